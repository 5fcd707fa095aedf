// Calendars (primary and secondary) and ACL rules.
import type { Kysely } from 'kysely';
import { directoryEntryOf, type DirectoryEntry } from '../../core/google/directory.ts';
import type { ServiceContext } from '../../core/service.ts';
import type { Caller, Calendars } from './access.ts';
import { checkRoleOfScope, effectiveRole, grantsFor, listedRole, onList, parseRuleId, readScope, renderScope, ruleIdOf, sameScope, type Member, type Scope } from './domain/acl-scope.ts';
import { obj, only, str } from './domain/check.ts';
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

  /**
   * The e-mails of everyone whose list shows the calendar: its owner, every user it is shared with, and whoever added
   * it to their list while a public or domain rule lets them see it.
   */
  async #audience(tx: Kysely<any>, calendar: CalendarRow): Promise<string[]> {
    const rules = await this.#store.aclRules(tx, calendar.id);
    const adders = await this.#addedBy(tx, calendar.id);
    return [
      await this.#ownerEmail(calendar, tx),
      ...rules.filter((r) => r.scopeType === 'user' && listedRole(r.role)).map((r) => r.scopeValue),
      ...[...adders.values()].filter((member) => onList(grantsFor(rules, member), true)).map((member) => member.email),
    ];
  }

  /** The users who added the calendar to their list with calendarList.insert, by e-mail. */
  async #addedBy(tx: Kysely<any>, calendarId: string): Promise<Map<string, DirectoryEntry>> {
    return new Map((await this.#store.addedBy(tx, calendarId)).map(({ entry }) => [entry.email, entry]));
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
    const [owner] = await this.#store.principalEntries(db, [calendar.ownerId]);
    return owner?.entry.email ?? directoryEntryOf({ id: calendar.ownerId, name: '', attrs: {} }).email;
  }

  /**
   * The owner's rule (implicit, never stored, first) and the stored rules by id, paged with `maxResults` and
   * `pageToken`; `showDeleted` adds the deleted rules (role `none`). With `syncToken`, the rules changed since, deleted
   * ones included; the last page carries `nextSyncToken`.
   */
  async aclList(caller: Caller, calendarId: string, query: Query): Promise<Record<string, unknown>> {
    const { calendar } = await this.#calendars.resolve(caller, calendarId, 'writer');
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
    const keyed = rules.map((rule, i) => ({ key: syncToken === undefined && i === 0 ? '' : ruleIdOf(rule), rule }));
    const page = keyedPage(keyed, query, queryKey, snap);
    // Every rule's version only grows, so a changed role gives the list a new ETag too.
    const version = rules.reduce((sum, r) => sum + r.version, calendar.version + rules.length);
    const out: Record<string, unknown> = { kind: 'calendar#acl', etag: etagOf(version, 6), items: page.items.map((i) => renderRule(i.rule)) };
    if (page.nextPageToken !== undefined) out.nextPageToken = page.nextPageToken;
    else out.nextSyncToken = makeSyncToken(calendar.id, snap, 'acl');
    return out;
  }

  async aclGet(caller: Caller, calendarId: string, ruleId: string): Promise<Record<string, unknown>> {
    const { calendar } = await this.#calendars.resolve(caller, calendarId, 'writer');
    const scope = parseRuleId(ruleId);
    const ownerEmail = await this.#ownerEmail(calendar);
    if (isOwnerScope(scope, ownerEmail)) return renderRule(ownerRule(calendar, ownerEmail));
    const rule = await this.#store.aclRule(this.#ctx.kysely, calendar.id, scope.type, scope.value);
    if (!rule || rule.deleted) throw notFound();
    return renderRule(rule);
  }

  /** insert (ruleId undefined), update or patch of a rule. */
  async aclPut(caller: Caller, calendarId: string, ruleId: string | undefined, body: unknown, partial: boolean): Promise<Record<string, unknown>> {
    const o = obj(body ?? {}, 'resource');
    only(o, ['kind', 'etag', 'id', 'scope', 'role'], 'resource');
    let scope: Scope | undefined = o.scope === undefined ? undefined : readScope(o.scope);
    if (ruleId !== undefined) {
      const named = parseRuleId(ruleId);
      if (scope !== undefined && (scope.type !== named.type || scope.value !== named.value)) throw badRequest('The scope of a rule cannot be changed.', 'scope');
      scope = named;
    } else if (scope === undefined) throw requiredField('Missing scope.', 'scope');
    const role = o.role === undefined && partial ? undefined : o.role;
    if (role !== undefined && (typeof role !== 'string' || !ROLES.includes(role))) throw badRequest(`Invalid role: ${String(role)}`, 'role');
    if (role === undefined && !partial) throw requiredField('Missing role.', 'role');
    if (role !== undefined) checkRoleOfScope(scope, role as string);
    const target: Scope = scope;
    return this.#ctx.db.write(async (tx) => {
      const { calendar } = await this.#calendars.resolve(caller, calendarId, 'owner', tx);
      const ownerEmail = await this.#ownerEmail(calendar, tx);
      if (isOwnerScope(target, ownerEmail)) throw forbidden('The owner rule of a calendar cannot be changed.', 'cannotChangeOwnAcl');
      // A tombstone's version still counts, so a rule added again gets a new ETag.
      const stored = await this.#store.aclRule(tx, calendar.id, target.type, target.value);
      const existing = stored?.deleted ? undefined : stored;
      if (ruleId !== undefined && !existing) throw notFound();
      const rulesBefore = await this.#store.aclRules(tx, calendar.id);
      const newRole = (role as string | undefined) ?? existing!.role;
      const rule: AclRow = {
        calendarId: calendar.id,
        scopeType: target.type,
        scopeValue: target.value,
        role: newRole,
        version: Math.max(this.#ctx.clock.now(), (stored?.version ?? 0) + 1),
        // Calendar represents a deleted rule by role `none`: a rule written with it is deleted (a tombstone).
        deleted: newRole === 'none',
        changeSeq: await this.#store.nextChange(tx, calendar.id),
      };
      await this.#store.putAclRule(tx, rule);
      await this.#ruleChanged(tx, ownerEmail, rulesBefore, rule);
      return renderRule(rule);
    });
  }

  async aclDelete(caller: Caller, calendarId: string, ruleId: string): Promise<void> {
    const scope = parseRuleId(ruleId);
    await this.#ctx.db.write(async (tx) => {
      const { calendar } = await this.#calendars.resolve(caller, calendarId, 'owner', tx);
      const ownerEmail = await this.#ownerEmail(calendar, tx);
      if (isOwnerScope(scope, ownerEmail)) throw forbidden('The owner rule of a calendar cannot be deleted.', 'cannotChangeOwnAcl');
      const existing = await this.#store.aclRule(tx, calendar.id, scope.type, scope.value);
      if (!existing || existing.deleted) throw notFound();
      const rulesBefore = await this.#store.aclRules(tx, calendar.id);
      // Kept as a tombstone with role `none`, so acl.list with syncToken or showDeleted reports the deletion.
      const tombstone: AclRow = { ...existing, role: 'none', deleted: true, version: Math.max(this.#ctx.clock.now(), existing.version + 1), changeSeq: await this.#store.nextChange(tx, calendar.id) };
      await this.#store.putAclRule(tx, tombstone);
      await this.#ruleChanged(tx, ownerEmail, rulesBefore, tombstone);
    });
  }

  /**
   * Notifies the ACL's watchers, and the calendar-list watchers of the users the rule reaches: the grantee of a user
   * rule, and, for any rule, the users who added the calendar to their list and whose role or list changes. A user's
   * list changes when the calendar joins or leaves it.
   */
  async #ruleChanged(tx: Kysely<any>, ownerEmail: string, rulesBefore: AclRow[], after: AclRow): Promise<void> {
    const rulesAfter = [...rulesBefore.filter((r) => !sameScope(r, after)), after];
    const adders = await this.#addedBy(tx, after.calendarId);
    // A user rule reaches its grantee (their groups matter only if they added the calendar: then they are an adder).
    const grantee = (email: string): Member => adders.get(email) ?? { email, groups: [] };
    const reached = after.scopeType === 'user' ? [grantee(after.scopeValue)] : [...adders.values()].filter((member) => member.email !== ownerEmail);
    const notified = [aclTopic(after.calendarId)];
    const moved: string[] = [];
    for (const member of reached) {
      const { email } = member;
      const [was, is] = [grantsFor(rulesBefore, member), grantsFor(rulesAfter, member)];
      const added = adders.has(email);
      const listChanged = onList(was, added) !== onList(is, added);
      if (after.scopeType === 'user' || listChanged || effectiveRole(was) !== effectiveRole(is)) notified.push(calendarListTopic(email));
      if (listChanged) moved.push(email);
    }
    await this.#watches.changed(tx, notified);
    if (moved.length > 0) await this.#store.logListChange(tx, moved, after.calendarId);
  }
}

/** Whether a scope names the owner's implicit rule. */
const isOwnerScope = (scope: Scope, ownerEmail: string) => scope.type === 'user' && scope.value === ownerEmail;

type RuleFields = Pick<AclRow, 'scopeType' | 'scopeValue' | 'role' | 'version'>;

const ownerRule = (calendar: CalendarRow, ownerEmail: string): RuleFields => ({ scopeType: 'user', scopeValue: ownerEmail, role: 'owner', version: calendar.version });

const renderRule = (r: RuleFields) => ({
  kind: 'calendar#aclRule',
  etag: etagOf(r.version, 5),
  id: ruleIdOf(r),
  scope: renderScope(r),
  role: r.role,
});
