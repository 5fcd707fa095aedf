// The read side of events: get, list (stored rows, or instances expanded inside the requested window), sync lists
// from a sync token, and the instances of one series (expanded lazily page by page).
import { sql, type Kysely } from 'kysely';
import { decodePageToken, encodePageToken } from '../../core/google/index.ts';
import type { ServiceContext } from '../../core/service.ts';
import { Turns } from '../../core/turns.ts';
import { badRequest, fullSyncRequired } from './domain/errors.ts';
import type { EventDoc } from './domain/event.ts';
import { instanceDoc, instanceIdOf, masterDocOf, originalKey, seriesOf } from './domain/instances.ts';
import { retiredInstances, type EventShape } from './domain/retired.ts';
import { whenMs } from './domain/times.ts';
import type { ListQuery, Query } from './domain/params.ts';
import { boolParam, checkTimeRange, intParam, strParam, timeParam, zoneParam } from './domain/params.ts';
import { etagOf, renderEvent, type View } from './domain/render.ts';
import { makeSyncToken, readSyncToken } from './domain/sync-token.ts';
import { DAY_MS } from './domain/zone.ts';
import type { CalendarRow, CalendarStore, EventRow } from './store.ts';

/** How far past now (or timeMin) an open-ended series is expanded when a list names no timeMax. */
export const EXPANSION_HORIZON_MS = 366 * DAY_MS;

/** One listed event; an instance's document is built only if it lands on the page. */
interface Item {
  id: string;
  etag: string;
  startMs: number;
  updatedMs: number;
  doc?: EventDoc;
  make?: () => EventDoc;
}

const docOf = (i: Item): EventDoc => (i.doc ??= i.make!());

export interface EventsPage {
  items: Record<string, unknown>[];
  nextPageToken?: string;
  nextSyncToken?: string;
  updated: string;
  etag: string;
}

export class Reader {
  readonly #ctx: ServiceContext;
  readonly #store: CalendarStore;

  constructor(ctx: ServiceContext, store: CalendarStore) {
    this.#ctx = ctx;
    this.#store = store;
  }

  view(calendar: CalendarRow, zone?: string, maxAttendees?: number): View {
    return { calendarId: calendar.id, zone: zone ?? calendar.doc.timeZone, requestedZone: zone, baseUrl: this.#ctx.baseUrl, maxAttendees };
  }

  async list(calendar: CalendarRow, lq: ListQuery, rawQuery: Query): Promise<EventsPage> {
    const view = this.view(calendar, lq.timeZone, lq.maxAttendees);
    const { pageToken: _p, maxResults: _m, ...shapeQuery } = rawQuery;
    const queryKey = `${calendar.id}\u0000${JSON.stringify(shapeQuery)}`;
    const shape = JSON.stringify([lq.singleEvents, [...lq.eventTypes].sort()]);
    const cursor = lq.pageToken !== undefined ? decodePageToken<{ snap: number; at: unknown }>(lq.pageToken, queryKey) : undefined;
    const snap = cursor?.snap ?? calendar.changeSeq;
    let items: Item[];
    let more: unknown;
    // A window's expansion and a page's rendering run on the event loop, in turns with every other request.
    const turns = new Turns();
    if (lq.syncToken !== undefined) {
      const since = readSyncToken(lq.syncToken, calendar.id, shape);
      if (since < calendar.syncFloor || since > calendar.changeSeq) throw fullSyncRequired();
      ({ items, more } = await this.#changes(calendar, lq, since, snap, cursor?.at as [number, number] | undefined));
    } else if (lq.singleEvents) {
      ({ items, more } = await this.#expanded(calendar, lq, snap, (cursor?.at as number | undefined) ?? 0, turns));
    } else {
      ({ items, more } = await this.#stored(calendar, lq, snap, cursor?.at as [number, string] | undefined));
    }
    const rendered: Array<Record<string, unknown>> = [];
    for (const i of items) {
      if (turns.due) await turns.take();
      rendered.push(renderEvent(docOf(i), i.etag, view));
    }
    // The collection's `updated` is the calendar's last modification (its own or an event's), whatever the page holds.
    const lastEvent = await this.#store.lastEventUpdate(this.#ctx.kysely, calendar.id);
    const page: EventsPage = {
      items: rendered,
      updated: new Date(Math.max(calendar.version, lastEvent ?? 0)).toISOString(),
      etag: etagOf(snap, 1),
    };
    if (more !== undefined) page.nextPageToken = encodePageToken({ snap, at: more }, queryKey);
    else page.nextSyncToken = makeSyncToken(calendar.id, snap, shape);
    return page;
  }

  #filters(lq: ListQuery) {
    return <Q extends { where: (...a: any[]) => any }>(query: Q): Q => {
      let q: any = query;
      if (lq.iCalUID !== undefined) q = q.where('ical_uid', '=', lq.iCalUID);
      if (lq.eventTypes.length > 0) q = q.where('event_type', 'in', lq.eventTypes);
      for (const term of (lq.q ?? '').toLowerCase().split(/\s+/).filter(Boolean)) {
        q = q.where(sql`search`, 'like', `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      }
      if (lq.updatedMin !== undefined) q = q.where('updated_at', '>=', lq.updatedMin);
      // Deleted events show with showDeleted, and always in an updatedMin list (deleted since then). Without
      // singleEvents the cancelled instances of a live series are listed too (its removed occurrences); those of a
      // deleted series are deleted events like it.
      if (!lq.showDeleted && lq.updatedMin === undefined) {
        q = lq.singleEvents
          ? q.where('status', '<>', 'cancelled')
          : q.where((eb: any) => eb.or([eb('status', '<>', 'cancelled'), eb.and([eb('recurring_event_id', 'is not', null), eb.exists(liveSeries(eb))])]));
      }
      return q as Q;
    };
  }

  #propertiesMatch(lq: ListQuery, doc: EventDoc): boolean {
    const priv = doc.extendedProperties?.private ?? {};
    const shared = doc.extendedProperties?.shared ?? {};
    return lq.privateProperties.every(([k, v]) => priv[k] === v) && lq.sharedProperties.every(([k, v]) => shared[k] === v);
  }

  /** Stored rows (series unexpanded), keyset-paged on (start or updated, id). Pages may be short after filtering. */
  async #stored(calendar: CalendarRow, lq: ListQuery, snap: number, after: [number, string] | undefined): Promise<{ items: Item[]; more: unknown }> {
    const sortColumn = lq.orderBy === 'updated' ? 'updated_at' : 'start_ms';
    let q = this.#filters(lq)(this.#store.listQuery(this.#ctx.kysely, calendar.id));
    if (lq.timeMax !== undefined) q = q.where('start_ms', '<', lq.timeMax);
    if (lq.timeMin !== undefined) q = q.where('end_ms', '>', lq.timeMin);
    if (after) q = q.where((eb: any) => eb.or([eb(sortColumn, '>', after[0]), eb.and([eb(sortColumn, '=', after[0]), eb('event_id', '>', after[1])])]));
    const rows = await q.orderBy(sortColumn).orderBy('event_id').limit(lq.maxResults + 1).execute();
    const page = rows.slice(0, lq.maxResults);
    // Rows changed after the first page's snapshot are left to the sync that follows (filtered here, not in SQL, so the
    // planner keeps to the span index).
    const items = page.map((r: any) => toRow(r)).filter((r) => r.changeSeq <= snap && this.#propertiesMatch(lq, r.doc)).map(itemOf);
    const last: any = page[page.length - 1];
    return { items, more: rows.length > lq.maxResults ? [Number(last[sortColumn]), last.event_id] : undefined };
  }

  /**
   * Changed rows since a sync token, in change order. With singleEvents a changed series is given as its instances
   * (from its start to the expansion horizon); the cursor is then the change number and how many items of that row
   * earlier pages carried.
   */
  async #changes(calendar: CalendarRow, lq: ListQuery, since: number, snap: number, after: [number, number] | undefined): Promise<{ items: Item[]; more: unknown }> {
    const [fromSeq, skip] = after ?? [since + 1, 0];
    let q = this.#store.changesQuery(this.#ctx.kysely, calendar.id, fromSeq - 1).where('change_seq', '<=', snap);
    if (lq.eventTypes.length > 0) q = q.where('event_type', 'in', lq.eventTypes);
    const rows = (await q.orderBy('change_seq').limit(lq.maxResults + 1).execute()).map(toRow);
    const earlier = lq.singleEvents ? await this.#store.shapesAt(this.#ctx.kysely, calendar.id, rows.map((r) => r.doc.id), since) : new Map<string, EventShape>();
    const items: Item[] = [];
    for (const row of rows) {
      const produced = lq.singleEvents ? await this.#singleEventsOf(calendar, row, earlier.get(row.doc.id)) : [itemOf(row)];
      const start = row.changeSeq === fromSeq ? skip : 0;
      for (let i = start; i < produced.length; i++) {
        if (items.length === lq.maxResults) return { items, more: [row.changeSeq, i] };
        items.push(produced[i]);
      }
    }
    return { items, more: undefined };
  }

  /**
   * A changed row as a singleEvents sync gives it: the event or its instances, then (when the event was reshaped since
   * the token) the instances of the shape the client read that it no longer has, cancelled.
   */
  async #singleEventsOf(calendar: CalendarRow, row: EventRow, earlier: EventShape | undefined): Promise<Item[]> {
    const current = row.doc.recurrence ? await this.#allInstances(calendar, row) : [itemOf(row)];
    if (!earlier) return current;
    const zone = calendar.doc.timeZone;
    const exceptions = await this.#store.exceptions(this.#ctx.kysely, calendar.id, row.doc.id);
    const kept = new Set([...current.map((i) => i.id), ...exceptions.map((e) => e.doc.id)]);
    const to = Math.max(whenMs(earlier.start, zone), this.#ctx.clock.now()) + EXPANSION_HORIZON_MS;
    const retired = retiredInstances(row.doc, earlier, calendar.id, zone, to, kept);
    return [...current, ...retired.map(({ doc, startMs }) => ({ id: doc.id, etag: etagOf(row.changeSeq), startMs, updatedMs: row.updatedAt, doc }))];
  }

  /** Every instance of a series up to the expansion horizon, exceptions in place (for sync lists with singleEvents). */
  async #allInstances(calendar: CalendarRow, row: EventRow): Promise<Item[]> {
    const zone = calendar.doc.timeZone;
    const master = row.doc;
    const series = seriesOf(calendar.id, master, zone);
    const to = Math.max(row.startMs, this.#ctx.clock.now()) + EXPANSION_HORIZON_MS;
    const exceptions = new Map((await this.#store.exceptions(this.#ctx.kysely, calendar.id, master.id)).map((e) => [originalKey(e.doc.originalStartTime!), e]));
    return series.between(row.startMs - 1, to, zone).map((occ) => {
      const ex = exceptions.get(originalKey(occ.start));
      if (ex) return itemOf(ex);
      const doc = instanceDoc(master, occ);
      return { id: doc.id, etag: etagOf(row.changeSeq), startMs: occ.startMs, updatedMs: row.updatedAt, doc: master.status === 'cancelled' ? { ...doc, status: 'cancelled' } : doc };
    });
  }

  /** Single events and the instances of every series inside the window, offset-paged. */
  async #expanded(calendar: CalendarRow, lq: ListQuery, snap: number, offset: number, turns: Turns): Promise<{ items: Item[]; more: unknown }> {
    const zone = calendar.doc.timeZone;
    const db = this.#ctx.kysely;
    const from = lq.timeMin;
    const seriesTo = lq.timeMax ?? Math.max(from ?? 0, this.#ctx.clock.now()) + EXPANSION_HORIZON_MS;
    const filter = this.#filters(lq);
    const current = (r: EventRow) => r.changeSeq <= snap;
    // A single event overlapping the window starts at most the calendar's longest span before it.
    const singleFrom = from === undefined ? undefined : from - calendar.longestMs - 1;
    let singlesQuery = filter(this.#store.spanQuery(db, calendar.id, false, from, lq.timeMax));
    if (singleFrom !== undefined) singlesQuery = singlesQuery.where('start_ms', '>', singleFrom);
    const properties = lq.privateProperties.length + lq.sharedProperties.length > 0;
    // Ordered by start, a page can only hold singles among the first offset + maxResults of them (plus the rows of
    // later changes, which are skipped): the rest of a busy window is never read.
    if (lq.orderBy !== 'updated' && !properties) singlesQuery = singlesQuery.orderBy('start_ms').orderBy('event_id').limit(offset + lq.maxResults + 1 + (calendar.changeSeq - snap));
    // The window's rows are read off the event loop (a month of a busy calendar is thousands of rows).
    const singles = ((await this.#ctx.db.heavyRead(singlesQuery)) as any[]).map(toRow).filter(current);
    const masterRows = (await this.#ctx.db.heavyRead(filter(this.#store.spanQuery(db, calendar.id, true, from, seriesTo)))) as any[];
    await turns.take();
    const masters = masterRows.map(toRow).filter(current);
    const byUpdated = lq.orderBy === 'updated';
    const before = byUpdated ? (a: Item, b: Item) => a.updatedMs - b.updatedMs || cmp(a.id, b.id) : (a: Item, b: Item) => a.startMs - b.startMs || cmp(a.id, b.id);
    // Every source below yields its items in page order; the page is merged from their heads, so only the items up to
    // the page's end are ever made (a month of a busy calendar holds tens of thousands of instances).
    const sources: Array<() => Item | undefined> = [];
    const singleItems = singles.filter((r) => !properties || this.#propertiesMatch(lq, r.doc)).map(itemOf).sort(before);
    if (singleItems.length > 0) {
      let next = 0;
      sources.push(() => singleItems[next++]);
    }
    if (masters.length > 0) {
      const overridden = await this.overridden(db, calendar.id, from, seriesTo);
      for (const m of masters) {
        if (turns.due) await turns.take();
        const master = masterDocOf(m.raw);
        if (!this.#propertiesMatch(lq, master)) continue;
        // Instances of one series share its `updated` and their ids rise with their start: start order is page order
        // for either ordering.
        const occurrences = seriesOf(calendar.id, master, zone).cursor(from ?? -8.64e15, seriesTo, zone);
        const etag = etagOf(m.changeSeq);
        sources.push(() => {
          for (let occ = occurrences(); occ !== undefined; occ = occurrences()) {
            if (overridden.size > 0 && overridden.has(`${master.id}\u0000${originalKey(occ.start)}`)) continue;
            return { id: instanceIdOf(master.id, occ.start), etag, startMs: occ.startMs, updatedMs: m.updatedAt, make: () => instanceDoc(master, occ) };
          }
          return undefined;
        });
      }
    }
    const end = offset + lq.maxResults;
    const page: Item[] = [];
    const heap = new SourceHeap(before);
    for (const source of sources) {
      // Pushing a series computes its first instance in the window: a few milliseconds for hundreds of series.
      if (turns.due) await turns.take();
      heap.push(source);
    }
    for (let n = 0; n < end; n++) {
      if (turns.due) await turns.take();
      const item = heap.pop();
      if (item === undefined) break;
      if (n >= offset) page.push(item);
    }
    return { items: page, more: heap.size > 0 ? end : undefined };
  }

  /** Original starts that an exception replaces, as `<seriesId>\0<originalKey>`. */
  async overridden(db: Kysely<any>, calendarId: string, from: number | undefined, to: number): Promise<Set<string>> {
    let q = db
      .selectFrom('calendar_events')
      .select(['recurring_event_id', 'original_start_ms'])
      .where('calendar_id', '=', calendarId)
      .where('recurring_event_id', 'is not', null)
      .where('original_start_ms', '<', to + 2 * DAY_MS);
    if (from !== undefined) q = q.where('original_start_ms', '>', from - 400 * DAY_MS);
    const rows = await q.execute();
    return new Set(rows.map((r: any) => `${r.recurring_event_id}\u0000${Number(r.original_start_ms)}`));
  }

  /** instances: the occurrences of one series in start order, with exceptions in place, paged by original start. */
  async instances(calendar: CalendarRow, master: EventRow, query: Query): Promise<EventsPage> {
    const maxResults = Math.min(intParam(query, 'maxResults', 1, Number.MAX_SAFE_INTEGER) ?? 250, 2500);
    const timeMin = timeParam(query, 'timeMin');
    const timeMax = timeParam(query, 'timeMax');
    checkTimeRange(timeMin, timeMax);
    const originalStart = timeParam(query, 'originalStart');
    const showDeleted = boolParam(query, 'showDeleted');
    const zone = zoneParam(query);
    const maxAttendees = intParam(query, 'maxAttendees', 1, 1_000_000);
    const pageToken = strParam(query, 'pageToken', 4096);
    const { pageToken: _p, maxResults: _m, ...shapeQuery } = query;
    const queryKey = `${calendar.id}/${master.doc.id}\u0000${JSON.stringify(shapeQuery)}`;
    const view = this.view(calendar, zone, maxAttendees);
    const page: EventsPage = { items: [], updated: master.doc.updated, etag: etagOf(master.changeSeq, 1) };
    if (!master.doc.recurrence) return page;
    const calendarZone = calendar.doc.timeZone;
    const series = seriesOf(calendar.id, master.doc, calendarZone);
    const exceptions = new Map((await this.#store.exceptions(this.#ctx.kysely, calendar.id, master.doc.id)).map((e) => [originalKey(e.doc.originalStartTime!), e]));
    const duration = master.endMs === master.startMs ? 0 : Math.max(0, whenSpan(master.doc));
    // The window applies to an instance's own times: an exception moved into it is found by its original start, which
    // may lie anywhere, so the scan reaches the original starts of those exceptions too.
    const inWindow = (startMs: number, endMs: number) => (timeMin === undefined || endMs > timeMin) && (timeMax === undefined || startMs < timeMax);
    const movedIn = [...exceptions.values()].filter((e) => inWindow(e.startMs, e.endMs)).map((e) => whenMs(e.doc.originalStartTime!, calendarZone));
    const scanFrom = movedIn.reduce((from, ms) => Math.min(from, ms - 1), timeMin !== undefined ? timeMin - duration - 1 : -8.64e15);
    const scanTo = movedIn.reduce((to, ms) => Math.max(to, ms + 1), timeMax ?? 8.64e15);
    let cursor = pageToken !== undefined ? decodePageToken<number>(pageToken, queryKey) : scanFrom;
    if (originalStart !== undefined) cursor = originalStart - 1;
    const items: Item[] = [];
    let more: number | undefined;
    let lastIncluded = cursor;
    scan: for (;;) {
      const batch = series.after(cursor, maxResults + 1, calendarZone);
      for (const occ of batch) {
        if (occ.startMs >= scanTo) break scan;
        if (originalStart !== undefined && occ.startMs !== originalStart) break scan;
        cursor = occ.startMs;
        const ex = exceptions.get(originalKey(occ.start));
        if (!(ex ? inWindow(ex.startMs, ex.endMs) : inWindow(occ.startMs, occ.endMs))) continue;
        const doc = ex ? ex.doc : instanceDoc(master.doc, occ);
        const item: Item = { id: doc.id, etag: etagOf(ex ? ex.changeSeq : master.changeSeq), startMs: occ.startMs, updatedMs: master.updatedAt, doc };
        if (master.doc.status === 'cancelled') item.doc = { ...doc, status: 'cancelled' };
        if (item.doc!.status === 'cancelled' && !showDeleted) continue;
        if (items.length === maxResults) {
          more = lastIncluded;
          break scan;
        }
        items.push(item);
        lastIncluded = occ.startMs;
      }
      if (batch.length <= maxResults) break;
    }
    if (originalStart !== undefined && items.length === 0) throw badRequest('No instance starts at originalStart.', 'originalStart');
    page.items = items.map((i) => renderEvent(docOf(i), i.etag, view));
    if (more !== undefined) page.nextPageToken = encodePageToken(more, queryKey);
    return page;
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The series of the listed exception row, when it is not cancelled (a subquery on the same table). */
const liveSeries = (eb: any) =>
  eb
    .selectFrom('calendar_events as series')
    .select(sql`1`.as('one'))
    .whereRef('series.calendar_id', '=', 'calendar_events.calendar_id')
    .whereRef('series.event_id', '=', 'calendar_events.recurring_event_id')
    .where('series.status', '<>', 'cancelled');

/** A binary heap of item sources ordered by their current head (a k-way merge of sorted sources). */
class SourceHeap {
  readonly #heads: Item[] = [];
  readonly #sources: Array<() => Item | undefined> = [];
  readonly #before: (a: Item, b: Item) => number;

  constructor(before: (a: Item, b: Item) => number) {
    this.#before = before;
  }

  get size(): number {
    return this.#heads.length;
  }

  push(source: () => Item | undefined): void {
    const head = source();
    if (head === undefined) return;
    this.#heads.push(head);
    this.#sources.push(source);
    this.#up(this.#heads.length - 1);
  }

  /** The smallest head; its source moves on to its next item (or leaves the heap when it has none). */
  pop(): Item | undefined {
    if (this.#heads.length === 0) return undefined;
    const top = this.#heads[0];
    const next = this.#sources[0]();
    if (next !== undefined) this.#heads[0] = next;
    else {
      const lastHead = this.#heads.pop()!;
      const lastSource = this.#sources.pop()!;
      if (this.#heads.length === 0) return top;
      this.#heads[0] = lastHead;
      this.#sources[0] = lastSource;
    }
    this.#down(0);
    return top;
  }

  #swap(i: number, j: number): void {
    [this.#heads[i], this.#heads[j]] = [this.#heads[j], this.#heads[i]];
    [this.#sources[i], this.#sources[j]] = [this.#sources[j], this.#sources[i]];
  }

  #up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.#before(this.#heads[i], this.#heads[parent]) >= 0) return;
      this.#swap(i, parent);
      i = parent;
    }
  }

  #down(i: number): void {
    const n = this.#heads.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let least = i;
      if (l < n && this.#before(this.#heads[l], this.#heads[least]) < 0) least = l;
      if (r < n && this.#before(this.#heads[r], this.#heads[least]) < 0) least = r;
      if (least === i) return;
      this.#swap(i, least);
      i = least;
    }
  }
}
/**
 * A row whose JSON document is parsed on first use (a window may hold thousands of rows for one page). A class: its
 * accessor lives on the prototype, where a getter defined on each row made a closure and a slow-mode object per row.
 */
class LazyRow implements EventRow {
  readonly calendarId: string;
  readonly raw: string;
  readonly id: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly changeSeq: number;
  readonly updatedAt: number;
  #doc: EventDoc | undefined;

  constructor(r: any) {
    this.calendarId = r.calendar_id;
    this.raw = r.doc as string;
    this.id = r.event_id as string;
    this.startMs = Number(r.start_ms);
    this.endMs = Number(r.end_ms);
    this.changeSeq = Number(r.change_seq);
    this.updatedAt = Number(r.updated_at);
  }

  get doc(): EventDoc {
    return (this.#doc ??= JSON.parse(this.raw) as EventDoc);
  }
}
const toRow = (r: any): LazyRow => new LazyRow(r);
const itemOf = (r: EventRow & { id?: string }): Item => ({ id: r.id ?? r.doc.id, etag: etagOf(r.changeSeq), startMs: r.startMs, updatedMs: r.updatedAt, make: () => r.doc });
const whenSpan = (doc: EventDoc) => (doc.start.dateTime && doc.end.dateTime ? Date.parse(doc.end.dateTime) - Date.parse(doc.start.dateTime) : (Date.parse(doc.end.date ?? '') - Date.parse(doc.start.date ?? '')) || DAY_MS);
