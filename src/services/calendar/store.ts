// The calendar service's tables and queries. Every method takes the executor to run on: ctx.kysely for reads, the
// unit of work's transaction for writes (so the reads that decide a write are atomic with it).
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { inList } from '../../core/db/in-list.ts';
import { preparedByShape, preparedOn } from '../../core/db/prepared.ts';
import { storedDirectoryEntry, type DirectoryEntry } from '../../core/google/directory.ts';
import { directlyShared, effectiveRole, type Grant, type Scope } from './domain/acl-scope.ts';
import type { EventDoc } from './domain/event.ts';
import type { EventShape } from './domain/retired.ts';

export interface CalendarDoc {
  summary: string;
  description?: string;
  location?: string;
  timeZone: string;
  conferenceProperties?: { allowedConferenceSolutionTypes: string[] };
}

export interface CalendarRow {
  id: string;
  ownerId: string;
  isPrimary: boolean;
  doc: CalendarDoc;
  changeSeq: number;
  syncFloor: number;
  version: number;
  /** Longest span of a single event (or exception) the calendar has held. */
  longestMs: number;
}

export interface EventRow {
  calendarId: string;
  doc: EventDoc;
  startMs: number;
  endMs: number;
  changeSeq: number;
  updatedAt: number;
}

/** A user's own settings of a calendar on their list (calendarList.insert/update/patch). */
export interface ListOverlay {
  summaryOverride?: string;
  colorId?: string;
  backgroundColor?: string;
  foregroundColor?: string;
  hidden?: boolean;
  selected?: boolean;
  defaultReminders?: Array<{ method: string; minutes: number }>;
  notificationSettings?: { notifications: Array<{ type: string; method: string }> };
}

export interface ListEntryRow {
  principalId: string;
  calendarId: string;
  doc: ListOverlay;
  /** Taken off the list by calendarList.delete. */
  removed: boolean;
  /** Put on the list by calendarList.insert: keeps a calendar seen through a public or domain rule on it. */
  added: boolean;
  version: number;
}

/** A calendar someone else owns that may be on a user's list, with the user's effective role on it. */
export type ReachableCalendar = CalendarRow & { role: string; direct: boolean };

export type Role = 'owner' | 'writer' | 'reader' | 'freeBusyReader';

export interface AclRow {
  calendarId: string;
  scopeType: string;
  scopeValue: string;
  /** `none` once deleted. */
  role: string;
  version: number;
  /** A tombstone kept for sync (acl.list with syncToken or showDeleted). */
  deleted: boolean;
  /** The calendar's change number of the rule's last change. */
  changeSeq: number;
}

/** The span and series columns of an event row. */
export interface EventSpan {
  startMs: number;
  endMs: number;
  recurring: boolean;
}

const toCalendar = (r: any): CalendarRow => ({
  id: r.id,
  ownerId: r.owner_id,
  isPrimary: Number(r.is_primary) === 1,
  doc: JSON.parse(r.doc),
  changeSeq: Number(r.change_seq),
  syncFloor: Number(r.sync_floor),
  version: Number(r.version),
  longestMs: Number(r.longest_ms ?? 0),
});

export const toEvent = (r: any): EventRow => ({
  calendarId: r.calendar_id,
  doc: JSON.parse(r.doc),
  startMs: Number(r.start_ms),
  endMs: Number(r.end_ms),
  changeSeq: Number(r.change_seq),
  updatedAt: Number(r.updated_at),
});

const toListEntry = (r: any): ListEntryRow => ({
  principalId: r.principal_id,
  calendarId: r.calendar_id,
  doc: JSON.parse(r.doc),
  removed: Number(r.removed) === 1,
  added: Number(r.added) === 1,
  version: Number(r.version),
});

const toAcl = (r: any): AclRow => ({
  calendarId: r.calendar_id,
  scopeType: r.scope_type,
  scopeValue: r.scope_value,
  role: r.role,
  version: Number(r.version),
  deleted: Number(r.deleted) === 1,
  changeSeq: Number(r.change_seq),
});

export const EVENT_COLUMNS = ['calendar_id', 'doc', 'start_ms', 'end_ms', 'change_seq', 'updated_at'] as const;

/** A principal and its directory entry. */
export interface PrincipalEntry {
  principalId: string;
  entry: DirectoryEntry;
}

const toPrincipalEntry = (r: Record<string, unknown>): PrincipalEntry => ({
  principalId: r.id as string,
  entry: storedDirectoryEntry(r as { id: string; name: string; attrs: unknown }),
});

export class CalendarStore {
  // The reads of every request on a calendar or an event, and the writes of every event change: compiled once.
  readonly #calendarById = preparedOn((db) => db.selectFrom('calendar_calendars').selectAll().where('id', '=', ''));
  readonly #eventById = preparedOn((db) => db.selectFrom('calendar_events').select(EVENT_COLUMNS).where('calendar_id', '=', '').where('event_id', '=', ''));
  readonly #nextChange = preparedByShape<{ change_seq: unknown }>();
  readonly #putEvent = preparedByShape();

  // ---- calendars

  async calendar(db: Kysely<any>, id: string): Promise<CalendarRow | undefined> {
    const row = (await this.#calendarById(db, id)).rows[0];
    return row ? toCalendar(row) : undefined;
  }

  /**
   * Calendars a principal owns (role `owner`), and those of others that a rule of their own shares with them or that
   * they added to their list, each with the principal's effective role through the rules of `scopes` (theirs).
   */
  async calendarsOf(db: Kysely<any>, ownerId: string, scopes: Scope[]): Promise<ReachableCalendar[]> {
    const owned = await db.selectFrom('calendar_calendars').selectAll().where('owner_id', '=', ownerId).execute();
    const email = scopes.find((s) => s.type === 'user')!.value;
    const candidates = db
      .selectFrom('calendar_acl')
      .select('calendar_id')
      .where('scope_type', '=', 'user')
      .where('scope_value', '=', email)
      .where('deleted', '=', 0)
      .union(db.selectFrom('calendar_list_entries').select('calendar_id').where('principal_id', '=', ownerId).where('added', '=', 1));
    const others = await db.selectFrom('calendar_calendars').selectAll().where('id', 'in', candidates).where('owner_id', '<>', ownerId).execute();
    const grants = await this.#grantsIn(db, candidates, scopes);
    return [
      ...owned.map((r) => ({ ...toCalendar(r), role: 'owner', direct: true })),
      ...others.map((r) => {
        const mine = grants.get(r.id as string) ?? [];
        return { ...toCalendar(r), role: effectiveRole(mine), direct: directlyShared(mine) };
      }),
    ];
  }

  async insertCalendar(db: Kysely<any>, row: Omit<CalendarRow, 'changeSeq' | 'syncFloor' | 'longestMs'>, now: number): Promise<boolean> {
    const result = await db
      .insertInto('calendar_calendars')
      .values({ id: row.id, owner_id: row.ownerId, is_primary: row.isPrimary ? 1 : 0, doc: JSON.stringify(row.doc), change_seq: 0, sync_floor: 0, version: row.version, created_at: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async updateCalendar(db: Kysely<any>, id: string, doc: CalendarDoc, version: number): Promise<void> {
    await db.updateTable('calendar_calendars').set({ doc: JSON.stringify(doc), version }).where('id', '=', id).execute();
  }

  async deleteCalendar(db: Kysely<any>, id: string): Promise<void> {
    await db.deleteFrom('calendar_list_entries').where('calendar_id', '=', id).execute();
    await db.deleteFrom('calendar_series_shapes').where('calendar_id', '=', id).execute();
    await db.deleteFrom('calendar_events').where('calendar_id', '=', id).execute();
    await db.deleteFrom('calendar_acl').where('calendar_id', '=', id).execute();
    await db.deleteFrom('calendar_calendars').where('id', '=', id).execute();
  }

  /**
   * Takes the calendar's next change number (locks the calendar row for the rest of the unit) and raises its longest
   * event span to `spanMs`.
   */
  async nextChange(db: Kysely<any>, calendarId: string, spanMs = 0): Promise<number> {
    const { rows } = await this.#nextChange(db, [], [1, spanMs, spanMs, calendarId], (d) =>
      d
        .updateTable('calendar_calendars')
        .set((eb) => ({
          change_seq: eb('change_seq', '+', 1),
          // then() would write the value into the SQL text: bound, so the compiled query serves every span.
          longest_ms: eb.case().when('longest_ms', '<', spanMs).then(eb.val(spanMs)).else(eb.ref('longest_ms')).end(),
        }))
        .where('id', '=', calendarId)
        .returning('change_seq'),
    );
    if (rows.length === 0) throw new Error(`no calendar ${calendarId}`);
    return Number(rows[0].change_seq);
  }

  /** Empties a calendar's events; sync tokens from before are no longer valid. */
  async clearEvents(db: Kysely<any>, calendarId: string): Promise<void> {
    const seq = await this.nextChange(db, calendarId);
    await db.deleteFrom('calendar_events').where('calendar_id', '=', calendarId).execute();
    await db.deleteFrom('calendar_series_shapes').where('calendar_id', '=', calendarId).execute();
    await db.updateTable('calendar_calendars').set({ sync_floor: seq }).where('id', '=', calendarId).execute();
  }

  // ---- calendar list entries

  async listEntries(db: Kysely<any>, principalId: string): Promise<Map<string, ListEntryRow>> {
    const rows = await db.selectFrom('calendar_list_entries').selectAll().where('principal_id', '=', principalId).execute();
    return new Map(rows.map((r) => [r.calendar_id as string, toListEntry(r)]));
  }

  async listEntry(db: Kysely<any>, principalId: string, calendarId: string): Promise<ListEntryRow | undefined> {
    const row = await db.selectFrom('calendar_list_entries').selectAll().where('principal_id', '=', principalId).where('calendar_id', '=', calendarId).executeTakeFirst();
    return row ? toListEntry(row) : undefined;
  }

  async putListEntry(db: Kysely<any>, e: ListEntryRow): Promise<void> {
    const values = { doc: JSON.stringify(e.doc), removed: e.removed ? 1 : 0, added: e.added ? 1 : 0, version: e.version };
    await db
      .insertInto('calendar_list_entries')
      .values({ principal_id: e.principalId, calendar_id: e.calendarId, ...values })
      .onConflict((oc) => oc.columns(['principal_id', 'calendar_id']).doUpdateSet(values))
      .execute();
  }

  // ---- access control

  /** A rule, its tombstone included (a tombstone's role is `none`, so it grants nothing). */
  async aclRule(db: Kysely<any>, calendarId: string, scopeType: string, scopeValue: string): Promise<AclRow | undefined> {
    const row = await db
      .selectFrom('calendar_acl')
      .selectAll()
      .where('calendar_id', '=', calendarId)
      .where('scope_type', '=', scopeType)
      .where('scope_value', '=', scopeValue)
      .executeTakeFirst();
    return row ? toAcl(row) : undefined;
  }

  /**
   * The live rules of the calendar with one of these scopes (a user's own, their domain's, the public one): one query,
   * point lookups on the primary key.
   */
  async grantsOn(db: Kysely<any>, calendarId: string, scopes: Scope[]): Promise<Grant[]> {
    return (await this.#grantsIn(db, [calendarId], scopes)).get(calendarId) ?? [];
  }

  /** The live rules with one of `scopes` of each of these calendars (a list or a subquery of ids). */
  async #grantsIn(db: Kysely<any>, calendarIds: string[] | SelectQueryBuilder<any, any, any>, scopes: Scope[]): Promise<Map<string, Grant[]>> {
    const rows = await db
      .selectFrom('calendar_acl')
      .select(['calendar_id', 'scope_type', 'scope_value', 'role'])
      .where('calendar_id', 'in', calendarIds)
      .where('scope_type', 'in', scopes.map((s) => s.type))
      .where('scope_value', 'in', scopes.map((s) => s.value))
      .where('deleted', '=', 0)
      .execute();
    const out = new Map<string, Grant[]>();
    for (const r of rows) {
      // The two IN lists also match pairs of no scope asked for: only the exact pairs count.
      if (!scopes.some((s) => s.type === r.scope_type && s.value === r.scope_value)) continue;
      const grant = { scopeType: r.scope_type as string, scopeValue: r.scope_value as string, role: r.role as string };
      out.set(r.calendar_id as string, [...(out.get(r.calendar_id as string) ?? []), grant]);
    }
    return out;
  }

  /** The directory entries (e-mail, groups) of those of these principals that still exist. */
  async principalEntries(db: Kysely<any>, principalIds: string[]): Promise<PrincipalEntry[]> {
    const rows = await db.selectFrom('core_principals').select(['id', 'name', 'attrs']).where(inList(db, 'id', principalIds)).execute();
    return rows.map(toPrincipalEntry);
  }

  /** The principals who added the calendar to their list, with their directory entries (e-mail, groups). */
  async addedBy(db: Kysely<any>, calendarId: string): Promise<PrincipalEntry[]> {
    const rows = await db
      .selectFrom('calendar_list_entries')
      .innerJoin('core_principals', 'core_principals.id', 'calendar_list_entries.principal_id')
      .select(['core_principals.id as id', 'core_principals.name as name', 'core_principals.attrs as attrs'])
      .where('calendar_list_entries.calendar_id', '=', calendarId)
      .where('calendar_list_entries.added', '=', 1)
      .execute();
    return rows.map(toPrincipalEntry);
  }

  /** The calendar's rules; tombstones only with `withDeleted`. */
  async aclRules(db: Kysely<any>, calendarId: string, withDeleted = false): Promise<AclRow[]> {
    let q = db.selectFrom('calendar_acl').selectAll().where('calendar_id', '=', calendarId);
    if (!withDeleted) q = q.where('deleted', '=', 0);
    return (await q.execute()).map(toAcl);
  }

  /** Rules (tombstones included) changed after the calendar's change number `afterSeq`. */
  async aclChanges(db: Kysely<any>, calendarId: string, afterSeq: number): Promise<AclRow[]> {
    const rows = await db.selectFrom('calendar_acl').selectAll().where('calendar_id', '=', calendarId).where('change_seq', '>', afterSeq).execute();
    return rows.map(toAcl);
  }

  /** Writes a rule, or its tombstone (`deleted`). */
  async putAclRule(db: Kysely<any>, rule: AclRow): Promise<void> {
    const values = { role: rule.role, version: rule.version, deleted: rule.deleted ? 1 : 0, change_seq: rule.changeSeq };
    await db
      .insertInto('calendar_acl')
      .values({ calendar_id: rule.calendarId, scope_type: rule.scopeType, scope_value: rule.scopeValue, ...values })
      .onConflict((oc) => oc.columns(['calendar_id', 'scope_type', 'scope_value']).doUpdateSet(values))
      .execute();
  }

  // ---- calendar list changes (sync)

  /** The user's last calendar-list change number (0 before any). */
  async listHead(db: Kysely<any>, email: string): Promise<number> {
    const row = await db.selectFrom('calendar_list_heads').select('seq').where('email', '=', email).executeTakeFirst();
    return Number(row?.seq ?? 0);
  }

  /**
   * Records that the calendar changed on each user's list: each user's counter is raised (its row stays locked for
   * the rest of the unit, so a sync token never skips a change) and the calendar's entry takes the new number.
   */
  async logListChange(db: Kysely<any>, emails: Iterable<string>, calendarId: string): Promise<void> {
    for (const email of new Set([...emails].map((e) => e.toLowerCase()))) {
      const head = await db
        .insertInto('calendar_list_heads')
        .values({ email, seq: 1 })
        .onConflict((oc) => oc.column('email').doUpdateSet((eb) => ({ seq: eb('calendar_list_heads.seq', '+', 1) })))
        .returning('seq')
        .executeTakeFirstOrThrow();
      const seq = Number(head.seq);
      await db
        .insertInto('calendar_list_changes')
        .values({ email, calendar_id: calendarId, seq })
        .onConflict((oc) => oc.columns(['email', 'calendar_id']).doUpdateSet({ seq }))
        .execute();
    }
  }

  /** The calendars whose entry on the user's list changed after `afterSeq`, with the number of their last change. */
  async listChanges(db: Kysely<any>, email: string, afterSeq: number): Promise<Map<string, number>> {
    const rows = await db.selectFrom('calendar_list_changes').select(['calendar_id', 'seq']).where('email', '=', email).where('seq', '>', afterSeq).execute();
    return new Map(rows.map((r) => [r.calendar_id as string, Number(r.seq)]));
  }

  // ---- events

  async event(db: Kysely<any>, calendarId: string, eventId: string): Promise<EventRow | undefined> {
    const row = (await this.#eventById(db, calendarId, eventId)).rows[0];
    return row ? toEvent(row) : undefined;
  }

  async eventByUid(db: Kysely<any>, calendarId: string, icalUid: string): Promise<EventRow | undefined> {
    const row = await db
      .selectFrom('calendar_events')
      .select(EVENT_COLUMNS)
      .where('calendar_id', '=', calendarId)
      .where('ical_uid', '=', icalUid)
      .where('recurring_event_id', 'is', null)
      .executeTakeFirst();
    return row ? toEvent(row) : undefined;
  }

  async putEvent(db: Kysely<any>, calendarId: string, doc: EventDoc, span: EventSpan, changeSeq: number, search: string, now: number): Promise<void> {
    const values = {
      ical_uid: doc.iCalUID,
      status: doc.status,
      event_type: doc.eventType,
      recurring: span.recurring ? 1 : 0,
      recurring_event_id: doc.recurringEventId ?? null,
      original_start_ms: doc.originalStartTime ? originalMs(doc) : null,
      start_ms: span.startMs,
      end_ms: span.endMs,
      updated_at: Date.parse(doc.updated),
      change_seq: changeSeq,
      search,
      doc: JSON.stringify(doc),
    };
    const inserted = { calendar_id: calendarId, event_id: doc.id, created_at: now, ...values };
    await this.#putEvent(db, [], [...Object.values(inserted), ...Object.values(values)], (d) =>
      d
        .insertInto('calendar_events')
        .values(inserted)
        .onConflict((oc) => oc.columns(['calendar_id', 'event_id']).doUpdateSet(values)),
    );
  }

  /** Keeps the shape an event had before the change numbered `untilSeq`. */
  async putEarlierShape(db: Kysely<any>, calendarId: string, eventId: string, untilSeq: number, shape: EventShape): Promise<void> {
    await db.insertInto('calendar_series_shapes').values({ calendar_id: calendarId, event_id: eventId, until_seq: untilSeq, shape: JSON.stringify(shape) }).execute();
  }

  /** The shape each of these events had at change number `seq`, for those reshaped since. */
  async shapesAt(db: Kysely<any>, calendarId: string, eventIds: string[], seq: number): Promise<Map<string, EventShape>> {
    const out = new Map<string, EventShape>();
    for (let i = 0; i < eventIds.length; i += 500) {
      const rows = await db
        .selectFrom('calendar_series_shapes')
        .select(['event_id', 'shape'])
        .where('calendar_id', '=', calendarId)
        .where('event_id', 'in', eventIds.slice(i, i + 500))
        .where('until_seq', '>', seq)
        .orderBy('until_seq')
        .execute();
      // The first replacement after `seq` holds the shape current at `seq`.
      for (const r of rows) if (!out.has(r.event_id as string)) out.set(r.event_id as string, JSON.parse(r.shape as string) as EventShape);
    }
    return out;
  }

  /** Exceptions (modified or cancelled instances) of a series. */
  async exceptions(db: Kysely<any>, calendarId: string, seriesId: string): Promise<EventRow[]> {
    const rows = await db.selectFrom('calendar_events').select(EVENT_COLUMNS).where('calendar_id', '=', calendarId).where('recurring_event_id', '=', seriesId).execute();
    return rows.map(toEvent);
  }

  /** Exceptions of any of these series (one query for a page of instances). */
  async exceptionsOf(db: Kysely<any>, calendarId: string, seriesIds: string[]): Promise<EventRow[]> {
    if (seriesIds.length === 0) return [];
    const out: EventRow[] = [];
    for (let i = 0; i < seriesIds.length; i += 500) {
      const rows = await db
        .selectFrom('calendar_events')
        .select(EVENT_COLUMNS)
        .where('calendar_id', '=', calendarId)
        .where('recurring_event_id', 'in', seriesIds.slice(i, i + 500))
        .execute();
      // One at a time: the exceptions of 500 series may be more than a call takes as arguments.
      for (const row of rows) out.push(toEvent(row));
    }
    return out;
  }

  /** Rows whose span meets [fromMs, toMs): single events (and exceptions), or series masters. */
  spanQuery(db: Kysely<any>, calendarId: string, recurring: boolean, fromMs: number | undefined, toMs: number | undefined) {
    let q = db.selectFrom('calendar_events').select([...EVENT_COLUMNS, 'event_id']).where('calendar_id', '=', calendarId).where('recurring', '=', recurring ? 1 : 0);
    if (toMs !== undefined) q = q.where('start_ms', '<', toMs);
    if (fromMs !== undefined) q = q.where('end_ms', '>', fromMs);
    return q;
  }

  /** Rows changed after `afterSeq` (sync). */
  changesQuery(db: Kysely<any>, calendarId: string, afterSeq: number) {
    return db.selectFrom('calendar_events').select(EVENT_COLUMNS).where('calendar_id', '=', calendarId).where('change_seq', '>', afterSeq);
  }

  /** Base query of events.list without expansion (filters are added by the caller). */
  listQuery(db: Kysely<any>, calendarId: string) {
    return db.selectFrom('calendar_events').select([...EVENT_COLUMNS, 'event_id']).where('calendar_id', '=', calendarId);
  }

  /** When an event of the calendar last changed (undefined for a calendar without events). */
  async lastEventUpdate(db: Kysely<any>, calendarId: string): Promise<number | undefined> {
    const row = await db.selectFrom('calendar_events').select('updated_at').where('calendar_id', '=', calendarId).orderBy('updated_at', 'desc').limit(1).executeTakeFirst();
    return row ? Number(row.updated_at) : undefined;
  }

  async countEvents(db: Kysely<any>, calendarId: string): Promise<number> {
    const row = await db.selectFrom('calendar_events').select(sql<number>`count(*)`.as('n')).where('calendar_id', '=', calendarId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

function originalMs(doc: EventDoc): number {
  const o = doc.originalStartTime!;
  return o.date !== undefined ? Date.parse(`${o.date}T00:00:00Z`) : Date.parse(o.dateTime!);
}
