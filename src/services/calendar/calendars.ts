// Calendars (primary and secondary) and ACL rules.
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../../core/service.ts';
import { ROLE_RANK, type Caller, type Calendars } from './access.ts';
import { obj, only, str } from './domain/check.ts';
import { isEmail } from './domain/check.ts';
import { badRequest, forbidden, fullSyncRequired, notFound, requiredField } from './domain/errors.ts';
import { etagOf } from './domain/render.ts';
import { knownZone } from './domain/zone.ts';
import { newEventId } from './domain/ids.ts';
import { keyedPage, startOf } from './domain/keyed-page.ts';
import { boolParam, refuseWithSyncToken, strParam, type Query } from './domain/params.ts';
import { makeSyncToken, readSyncToken } from './domain/sync-token.ts';
import type { AclRow, CalendarDoc, CalendarRow, CalendarStore } from './store.ts';
import { aclTopic, calendarListTopic, settingsTopic, type ResourceWatches } from './watches.ts';

const READ_ONLY = ['kind', 'etag', 'id', 'conferenceProperties'];
const ROLES = ['none', 'freeBusyReader', 'reader', 'writer', 'owner'];
/** A role that puts the calendar on the grantee's calendar list. */
const listed = (role: string | undefined) => ROLE_RANK[role ?? 'none'] >= ROLE_RANK.freeBusyReader;
/** Calendars and list entries alike name the conference kinds their events may create. */
export const CONFERENCE = { allowedConferenceSolutionTypes: ['hangoutsMeet'] };

export function renderCalendar(c: CalendarRow): Record<string, unknown> {
  return { kind: 'calendar#calendar', etag: etagOf(c.version, 2), id: c.id, ...c.doc, conferenceProperties: CONFERENCE };
}

/** Reads a Calendar body; `partial` for patch (nothing required). */
function readCalendar(body: unknown, base: CalendarDoc | undefined, partial: boolean): CalendarDoc {
  const o = obj(body ?? {}, 'resource');
  only(o, ['summary', 'description', 'location', 'timeZone', ...READ_ONLY], 'resource');
  const doc: CalendarDoc = partial && base ? { ...base } : { summary: '', timeZone: base?.timeZone ?? 'UTC' };
  if (o.summary !== undefined) doc.summary = str(o.summary, 'summary', 1024);
  // A patch may leave the title out, but no write may leave the calendar without one.
  if (doc.summary === '' || (!partial && o.summary === undefined)) throw requiredField('Missing summary.', 'summary');
  for (const k of ['description', 'location'] as const) {
    if (o[k] === null) delete doc[k];
    else if (o[k] !== undefined) doc[k] = str(o[k], k, k === 'description' ? 8192 : 1024);
    else if (!partial) delete doc[k];
  }
  if (o.timeZone !== undefined && o.timeZone !== null) {
    const tz = str(o.timeZone, 'timeZone', 128);
    if (!knownZone(tz)) throw badRequest(`Invalid time zone: ${tz}`, 'timeZone');
    doc.timeZone = tz;
  }
  return doc;
}

export class CalendarAdmin {
  readonly #ctx: ServiceContext;
  readonly #store: CalendarStore;
  readonly #calendars: Calendars;
  readonly #watches: ResourceWatches;

  constructor(ctx: ServiceContext, store: CalendarStore, calendars: Calendars, watches: ResourceWatches) {
    this.#ctx = ctx;
    this.#store = store;
    this.#calendars = calendars;
    this.#watches = watches;
  }

  /** The e-mails of everyone whose list shows the calendar (its owner and every ACL grantee). */
  async #audience(tx: Kysely<any>, calendar: CalendarRow): Promise<string[]> {
    const rules = await this.#store.aclRules(tx, calendar.id);
    return [await this.#ownerEmail(calendar, tx), ...rules.filter((r) => listed(r.role)).map((r) => r.scopeValue)];
  }

  async insert(caller: Caller, body: unknown): Promise<CalendarRow> {
    const doc = readCalendar(body, { summary: '', timeZone: this.#calendars.defaultZone }, false);
    const row = { id: `${newEventId()}@group.calendar.twinstack.local`, ownerId: caller.principalId, isPrimary: false, doc, version: this.#ctx.clock.now() };
    await this.#ctx.db.write(async (tx) => {
      await this.#calendars.ensurePrimary(tx, caller.principalId, caller.email, caller.name);
      await this.#store.insertCalendar(tx, row, this.#ctx.clock.now());
      await this.#store.logListChange(tx, [caller.email], row.id);
      await this.#watches.changed(tx, [calendarListTopic(caller.email)]);
    });
    return { ...row, changeSeq: 0, syncFloor: 0, longestMs: 0 };
  }

  async update(caller: Caller, calendarId: string, body: unknown, partial: boolean): Promise<CalendarRow> {
    return this.#ctx.db.write(async (tx) => {
      const { calendar } = await this.#calendars.resolve(caller, calendarId, 'owner', tx);
      const doc = readCalendar(body, calendar.doc, partial);
      const version = Math.max(this.#ctx.clock.now(), calendar.version + 1);
      await this.#store.updateCalendar(tx, calendar.id, doc, version);
      const zoneChanged = calendar.isPrimary && doc.timeZone !== calendar.doc.timeZone;
      // Calendar properties are read-only on list entries: a list sync does not report them (as Calendar documents).
      await this.#watches.changed(tx, [...(await this.#audience(tx, calendar)).map(calendarListTopic), ...(zoneChanged ? [settingsTopic(calendar.id)] : [])]);
      return { ...calendar, doc, version };
    });
  }

  async delete(caller: Caller, calendarId: string): Promise<void> {
    await this.#ctx.db.write(async (tx) => {
      const { calendar } = await this.#calendars.resolve(caller, calendarId, 'owner', tx);
      if (calendar.isPrimary) throw badRequest('The primary calendar cannot be deleted; use calendars.clear to empty it.', 'calendarId', 'cannotDeletePrimaryCalendar');
      const audience = await this.#audience(tx, calendar);
      await this.#watches.changed(tx, [...audience.map(calendarListTopic), aclTopic(calendar.id)]);
      await this.#store.logListChange(tx, audience, calendar.id);
      await this.#store.deleteCalendar(tx, calendar.id);
    });
  }

  async clear(caller: Caller, calendarId: string): Promise<void> {
    await this.#ctx.db.write(async (tx) => {
      const { calendar } = await this.#calendars.resolve(caller, calendarId, 'owner', tx);
      if (!calendar.isPrimary) throw badRequest('Only a primary calendar can be cleared; delete a secondary calendar instead.', 'calendarId');
      await this.#store.clearEvents(tx, calendar.id);
    });
  }

  // ---- ACL (owners only)

  /** The owner's e-mail, read on `db` (the unit's transaction inside a write). */
  async #ownerEmail(calendar: CalendarRow, db: Kysely<any> = this.#ctx.kysely): Promise<string> {
    if (calendar.isPrimary) return calendar.id;
    const row = await db.selectFrom('core_principals').select('attrs').where('id', '=', calendar.ownerId).executeTakeFirst();
    const attrs = row ? (typeof row.attrs === 'string' ? JSON.parse(row.attrs) : row.attrs) : {};
    return typeof attrs?.email === 'string' ? attrs.email.toLowerCase() : `${calendar.ownerId}@twinstack.local`;
  }

  /**
   * The owner's rule (implicit, never stored, first) and the stored rules by id, paged with `maxResults` and
   * `pageToken`; `showDeleted` adds the deleted rules (role `none`). With `syncToken`, the rules changed since, deleted
   * ones included; the last page carries `nextSyncToken`.
   */
  async aclList(caller: Caller, calendarId: string, query: Query): Promise<Record<string, unknown>> {
    const { calendar } = await this.#calendars.resolve(caller, calendarId, 'owner');
    const syncToken = strParam(query, 'syncToken', 4096);
    if (syncToken !== undefined) refuseWithSyncToken(query, [], ['showDeleted']);
    const showDeleted = boolParam(query, 'showDeleted');
    const queryKey = `acl\u0000${calendar.id}\u0000${showDeleted}\u0000${syncToken ?? ''}`;
    const snap = await startOf(query, queryKey, () => calendar.changeSeq);
    let rules: RuleFields[];
    if (syncToken !== undefined) {
      const since = readSyncToken(syncToken, calendar.id, 'acl');
      if (since > snap) throw fullSyncRequired();
      // The owner's rule never changes, so a sync never reports it.
      rules = await this.#store.aclChanges(this.#ctx.kysely, calendar.id, since);
    } else {
      rules = [ownerRule(calendar, await this.#ownerEmail(calendar)), ...(await this.#store.aclRules(this.#ctx.kysely, calendar.id, showDeleted))];
    }
    // The owner's rule (only ever the first) has the empty key, so it leads; the others follow by id.
    const keyed = rules.map((rule, i) => ({ key: syncToken === undefined && i === 0 ? '' : idOf(rule), rule }));
    const page = keyedPage(keyed, query, queryKey, snap);
    // Every rule's version only grows, so a changed role gives the list a new ETag too.
    const version = rules.reduce((sum, r) => sum + r.version, calendar.version + rules.length);
    const out: Record<string, unknown> = { kind: 'calendar#acl', etag: etagOf(version, 6), items: page.items.map((i) => renderRule(i.rule)) };
    if (page.nextPageToken !== undefined) out.nextPageToken = page.nextPageToken;
    else out.nextSyncToken = makeSyncToken(calendar.id, snap, 'acl');
    return out;
  }

  async aclGet(caller: Caller, calendarId: string, ruleId: string): Promise<Record<string, unknown>> {
    const { calendar } = await this.#calendars.resolve(caller, calendarId, 'owner');
    const [type, value] = splitRule(ruleId);
    const ownerEmail = await this.#ownerEmail(calendar);
    if (value === ownerEmail) return renderRule(ownerRule(calendar, ownerEmail));
    const rule = await this.#store.aclRule(this.#ctx.kysely, calendar.id, type, value);
    if (!rule || rule.deleted) throw notFound();
    return renderRule(rule);
  }

  /** insert (ruleId undefined), update or patch of a rule. */
  async aclPut(caller: Caller, calendarId: string, ruleId: string | undefined, body: unknown, partial: boolean): Promise<Record<string, unknown>> {
    const o = obj(body ?? {}, 'resource');
    only(o, ['kind', 'etag', 'id', 'scope', 'role'], 'resource');
    let scopeValue: string | undefined;
    if (o.scope !== undefined) {
      const scope = obj(o.scope, 'scope');
      only(scope, ['type', 'value'], 'scope');
      if (scope.type !== 'user') throw badRequest('Only rules of scope type user are supported.', 'scope.type');
      if (scope.value === undefined || scope.value === null || scope.value === '') throw requiredField('Missing scope value.', 'scope.value');
      scopeValue = str(scope.value, 'scope.value', 254).toLowerCase();
      if (!isEmail(scopeValue)) throw badRequest(`Invalid scope value: ${scopeValue}`, 'scope.value');
    }
    if (ruleId !== undefined) {
      const [, value] = splitRule(ruleId);
      if (scopeValue !== undefined && scopeValue !== value) throw badRequest('The scope of a rule cannot be changed.', 'scope');
      scopeValue = value;
    } else if (scopeValue === undefined) throw requiredField('Missing scope.', 'scope');
    const role = o.role === undefined && partial ? undefined : o.role;
    if (role !== undefined && (typeof role !== 'string' || !ROLES.includes(role))) throw badRequest(`Invalid role: ${String(role)}`, 'role');
    if (role === undefined && !partial) throw requiredField('Missing role.', 'role');
    return this.#ctx.db.write(async (tx) => {
      const { calendar } = await this.#calendars.resolve(caller, calendarId, 'owner', tx);
      if (scopeValue === (await this.#ownerEmail(calendar, tx))) throw forbidden('The owner rule of a calendar cannot be changed.', 'cannotChangeOwnAcl');
      // A tombstone's version still counts, so a rule added again gets a new ETag.
      const stored = await this.#store.aclRule(tx, calendar.id, 'user', scopeValue!);
      const existing = stored?.deleted ? undefined : stored;
      if (ruleId !== undefined && !existing) throw notFound();
      const rule: AclRow = {
        calendarId: calendar.id,
        scopeType: 'user',
        scopeValue: scopeValue!,
        role: (role as string | undefined) ?? existing!.role,
        version: Math.max(this.#ctx.clock.now(), (stored?.version ?? 0) + 1),
        deleted: false,
        changeSeq: await this.#store.nextChange(tx, calendar.id),
      };
      await this.#store.putAclRule(tx, rule);
      await this.#ruleChanged(tx, existing, rule);
      return renderRule(rule);
    });
  }

  async aclDelete(caller: Caller, calendarId: string, ruleId: string): Promise<void> {
    const [type, value] = splitRule(ruleId);
    await this.#ctx.db.write(async (tx) => {
      const { calendar } = await this.#calendars.resolve(caller, calendarId, 'owner', tx);
      if (value === (await this.#ownerEmail(calendar, tx))) throw forbidden('The owner rule of a calendar cannot be deleted.', 'cannotChangeOwnAcl');
      const existing = await this.#store.aclRule(tx, calendar.id, type, value);
      if (!existing || existing.deleted) throw notFound();
      // Kept as a tombstone with role `none`, so acl.list with syncToken or showDeleted reports the deletion.
      const tombstone: AclRow = { ...existing, role: 'none', deleted: true, version: Math.max(this.#ctx.clock.now(), existing.version + 1), changeSeq: await this.#store.nextChange(tx, calendar.id) };
      await this.#store.putAclRule(tx, tombstone);
      await this.#ruleChanged(tx, existing, tombstone);
    });
  }

  /** Notifies the ACL's and the grantee's watchers; the grantee's list changes when the calendar joins or leaves it. */
  async #ruleChanged(tx: Kysely<any>, before: AclRow | undefined, after: AclRow): Promise<void> {
    await this.#watches.changed(tx, [aclTopic(after.calendarId), calendarListTopic(after.scopeValue)]);
    if (listed(before?.role) !== listed(after.role)) await this.#store.logListChange(tx, [after.scopeValue], after.calendarId);
  }
}

/** A rule id's scope type and value; only `user` rules exist, so any other id names no rule (404). */
function splitRule(ruleId: string): ['user', string] {
  const colon = ruleId.indexOf(':');
  if (colon <= 0 || ruleId.slice(0, colon) !== 'user') throw notFound();
  return ['user', ruleId.slice(colon + 1).toLowerCase()];
}

type RuleFields = Pick<AclRow, 'scopeType' | 'scopeValue' | 'role' | 'version'>;

const ownerRule = (calendar: CalendarRow, ownerEmail: string): RuleFields => ({ scopeType: 'user', scopeValue: ownerEmail, role: 'owner', version: calendar.version });

const idOf = (r: RuleFields) => `${r.scopeType}:${r.scopeValue}`;

const renderRule = (r: RuleFields) => ({
  kind: 'calendar#aclRule',
  etag: etagOf(r.version, 5),
  id: idOf(r),
  scope: { type: r.scopeType, value: r.scopeValue },
  role: r.role,
});
