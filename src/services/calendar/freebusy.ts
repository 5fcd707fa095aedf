// freebusy.query: the busy periods of calendars within a window, merged from the confirmed, opaque events each holds
// (series expanded inside the window); calendars the caller may not see carry an error instead. A group (an address
// that users name in their `groups` attribute) stands for its members' primary calendars.
import { dictionary } from '../../core/own.ts';
import type { ServiceContext } from '../../core/service.ts';
import { parseRfc3339 } from '../../core/time.ts';
import { groupMembers } from '../../core/google/directory.ts';
import type { Access, Caller, Calendars } from './access.ts';
import { ROLE_RANK } from './access.ts';
import { arr, int, obj, only, str } from './domain/check.ts';
import { badRequest, calendarError, requiredField } from './domain/errors.ts';
import type { EventDoc } from './domain/event.ts';
import { originalKey, seriesOf } from './domain/instances.ts';
import { checkTimeRange } from './domain/params.ts';
import { DAY_MS, formatInZone, knownZone } from './domain/zone.ts';
import type { Reader } from './reader.ts';
import type { CalendarRow, CalendarStore } from './store.ts';

/** Most calendars one query may name, and the largest expansion limits (Calendar's documented maxima). */
const MAX_CALENDARS = 50;
const MAX_GROUP_EXPANSION = 100;
/** Longest window one query may span (our bound: it caps how many instances a query expands). */
const MAX_WINDOW_MS = 366 * DAY_MS;
/** An id on Google Groups' domain is a group even when no user is a member of it (then it is not found). */
const GROUP_DOMAIN = '@googlegroups.com';

interface FreeBusyQuery {
  timeMin: number;
  timeMax: number;
  timeZone: string;
  calendarExpansionMax: number;
  groupExpansionMax: number;
  ids: string[];
}

type Errors = Array<{ domain: string; reason: string }>;
type Span = [number, number];

function readQuery(body: unknown): FreeBusyQuery {
  const o = obj(body ?? {}, 'resource');
  only(o, ['timeMin', 'timeMax', 'timeZone', 'groupExpansionMax', 'calendarExpansionMax', 'items'], 'resource');
  const time = (name: 'timeMin' | 'timeMax'): number => {
    if (o[name] === undefined || o[name] === null || o[name] === '') throw requiredField(`Missing ${name}.`, name);
    const parsed = parseRfc3339(str(o[name], name, 64));
    if (!parsed) throw badRequest(`Bad Request: ${name} must be an RFC 3339 timestamp with a time zone offset.`, name);
    return parsed.seconds * 1000;
  };
  const timeMin = time('timeMin');
  const timeMax = time('timeMax');
  checkTimeRange(timeMin, timeMax);
  if (timeMax - timeMin > MAX_WINDOW_MS) throw calendarError(400, 'timeRangeTooLong', 'The requested time range is too long (at most 366 days).', 'timeMax');
  let timeZone = 'UTC';
  if (o.timeZone !== undefined && o.timeZone !== null) {
    timeZone = str(o.timeZone, 'timeZone', 128);
    if (!knownZone(timeZone)) throw badRequest(`Invalid time zone: ${timeZone}`, 'timeZone');
  }
  const calendarExpansionMax = o.calendarExpansionMax === undefined ? MAX_CALENDARS : int(o.calendarExpansionMax, 'calendarExpansionMax', 1, MAX_CALENDARS);
  const groupExpansionMax = o.groupExpansionMax === undefined ? MAX_GROUP_EXPANSION : int(o.groupExpansionMax, 'groupExpansionMax', 1, MAX_GROUP_EXPANSION);
  const items = o.items === undefined ? [] : arr(o.items, 'items', Number.MAX_SAFE_INTEGER);
  if (items.length > MAX_CALENDARS) throw calendarError(400, 'tooManyCalendarsRequested', `At most ${MAX_CALENDARS} calendars may be queried at once.`, 'items');
  const ids = items.map((raw, i) => {
    const item = obj(raw, `items[${i}]`);
    only(item, ['id'], `items[${i}]`);
    if (item.id === undefined || item.id === '') throw requiredField(`Missing items[${i}].id.`, `items[${i}].id`);
    return str(item.id, `items[${i}].id`, 1024);
  });
  return { timeMin, timeMax, timeZone, calendarExpansionMax, groupExpansionMax, ids };
}

/** Whether an event (or the series an instance comes from) makes its calendar busy. */
function blocks(doc: EventDoc, calendarId: string): boolean {
  if (doc.status !== 'confirmed' || doc.transparency === 'transparent') return false;
  const own = doc.attendees?.find((a) => a.email.toLowerCase() === calendarId);
  return own?.responseStatus !== 'declined';
}

/** Sorted, overlapping or touching spans joined into one. */
function merge(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of [...spans].sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
    const last = out[out.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else out.push([...s]);
  }
  return out;
}

export class FreeBusy {
  readonly #ctx: ServiceContext;
  readonly #store: CalendarStore;
  readonly #calendars: Calendars;
  readonly #reader: Reader;

  constructor(ctx: ServiceContext, store: CalendarStore, calendars: Calendars, reader: Reader) {
    this.#ctx = ctx;
    this.#store = store;
    this.#calendars = calendars;
    this.#reader = reader;
  }

  async query(caller: Caller, body: unknown): Promise<Record<string, unknown>> {
    const q = readQuery(body);
    // Keyed by the caller's ids, which may be `constructor` or `__proto__`: no prototype to find or to set.
    const calendars = dictionary<{ busy: Array<{ start: string; end: string }>; errors?: Errors }>();
    const groups = dictionary<{ calendars: string[]; errors?: Errors }>();
    const format = (ms: number) => formatInZone(ms, q.timeZone);
    let expanded = 0;
    const addCalendar = async (id: string, found: Access | undefined) => {
      if (++expanded > q.calendarExpansionMax) {
        calendars[id] = { busy: [], errors: [{ domain: 'calendar', reason: 'tooManyCalendarsRequested' }] };
      } else if (!found || ROLE_RANK[found.role] < ROLE_RANK.freeBusyReader) {
        calendars[id] = { busy: [], errors: [{ domain: 'global', reason: 'notFound' }] };
      } else {
        const busy = merge(await this.#busy(found.calendar, q.timeMin, q.timeMax));
        calendars[id] = { busy: busy.map(([s, e]) => ({ start: format(s), end: format(e) })) };
      }
    };
    for (const id of q.ids) {
      if (Object.hasOwn(calendars, id) || Object.hasOwn(groups, id)) continue;
      const isGroupAddress = id.toLowerCase().endsWith(GROUP_DOMAIN);
      // A calendar the id names is that calendar; only an id that names none is looked up as a group.
      const found = isGroupAddress ? undefined : await this.#calendars.find(caller, id);
      const members = found ? [] : await groupMembers(this.#ctx.kysely, id);
      if (members.length === 0 && !isGroupAddress) {
        await addCalendar(id, found);
        continue;
      }
      if (members.length === 0) {
        groups[id] = { calendars: [], errors: [{ domain: 'global', reason: 'notFound' }] };
      } else if (members.length > q.groupExpansionMax) {
        groups[id] = { calendars: [], errors: [{ domain: 'calendar', reason: 'groupTooBig' }] };
      } else {
        groups[id] = { calendars: members.map((m) => m.email) };
        for (const { email } of members) if (!Object.hasOwn(calendars, email)) await addCalendar(email, await this.#calendars.find(caller, email));
      }
    }
    return {
      kind: 'calendar#freeBusy',
      timeMin: format(q.timeMin),
      timeMax: format(q.timeMax),
      ...(Object.keys(groups).length > 0 ? { groups } : {}),
      calendars,
    };
  }

  /** Busy spans of one calendar inside [from, to), clipped to the window. */
  async #busy(calendar: CalendarRow, from: number, to: number): Promise<Span[]> {
    const db = this.#ctx.kysely;
    const zone = calendar.doc.timeZone;
    const spans: Span[] = [];
    const add = (start: number, end: number) => {
      if (end > start) spans.push([Math.max(start, from), Math.min(end, to)]);
    };
    // Single events and exceptions: a row overlapping the window starts at most the calendar's longest span before it.
    const singles = await this.#store
      .spanQuery(db, calendar.id, false, from, to)
      .where('start_ms', '>', from - calendar.longestMs - 1)
      .where('status', '=', 'confirmed')
      .execute();
    for (const r of singles) {
      const doc = JSON.parse(r.doc as string) as EventDoc;
      if (blocks(doc, calendar.id)) add(Number(r.start_ms), Number(r.end_ms));
    }
    const masters = await this.#store.spanQuery(db, calendar.id, true, from, to).where('status', '=', 'confirmed').execute();
    if (masters.length === 0) return spans;
    const overridden = await this.#reader.overridden(db, calendar.id, from, to);
    for (const r of masters) {
      const master = JSON.parse(r.doc as string) as EventDoc;
      if (!blocks(master, calendar.id)) continue;
      for (const occ of seriesOf(calendar.id, master, zone).between(from, to, zone)) {
        if (!overridden.has(`${master.id}\u0000${originalKey(occ.start)}`)) add(occ.startMs, occ.endMs);
      }
    }
    return spans;
  }
}
