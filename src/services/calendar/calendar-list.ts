// The caller's calendar list: derived from ownership and the ACL, with the user's own overlay per calendar (name,
// colours, hidden, selected, reminders, notifications), the calendars they took off the list and those they added
// (seen through a public or domain rule, which puts no calendar on anyone's list by itself).
import type { ServiceContext } from '../../core/service.ts';
import { ROLE_RANK, type Access, type Caller, type Calendars } from './access.ts';
import { CONFERENCE } from './calendars.ts';
import { scopesOf } from './domain/acl-scope.ts';
import { obj, str } from './domain/check.ts';
import { badRequest, fullSyncRequired, notFound, requiredField } from './domain/errors.ts';
import { keyedPage, startOf } from './domain/keyed-page.ts';
import { colorsOf, readListEntry } from './domain/list-entry.ts';
import { boolParam, enumParam, refuseWithSyncToken, strParam, type Query } from './domain/params.ts';
import { etagOf } from './domain/render.ts';
import { makeSyncToken, readSyncToken } from './domain/sync-token.ts';
import type { CalendarRow, CalendarStore, ListEntryRow, ListOverlay } from './store.ts';
import { calendarListTopic, type ResourceWatches } from './watches.ts';

const ROLES = ['freeBusyReader', 'reader', 'writer', 'owner'] as const;

/** An entry of a list page: its place, its version (for the list's ETag) and how it is shown. */
interface ListItem {
  key: string;
  version: number;
  render: () => Record<string, unknown>;
}

/** Sum of the calendar's and the overlay's versions: both only grow, so either change gives a new ETag. */
const versionOf = (c: CalendarRow, e?: ListEntryRow) => c.version + (e?.version ?? 0);

export function renderListEntry(c: CalendarRow, role: string, e?: ListEntryRow): Record<string, unknown> {
  const overlay: ListOverlay = e?.doc ?? {};
  const entry: Record<string, unknown> = {
    kind: 'calendar#calendarListEntry',
    etag: etagOf(versionOf(c, e), 3),
    id: c.id,
    ...c.doc,
    ...(overlay.summaryOverride !== undefined ? { summaryOverride: overlay.summaryOverride } : {}),
    ...colorsOf(overlay),
    ...(overlay.hidden ? { hidden: true } : {}),
    selected: overlay.selected ?? true,
    accessRole: role,
    defaultReminders: overlay.defaultReminders ?? [],
    ...(overlay.notificationSettings !== undefined ? { notificationSettings: overlay.notificationSettings } : {}),
    conferenceProperties: CONFERENCE,
  };
  if (c.isPrimary && role === 'owner') entry.primary = true;
  if (e?.removed) entry.deleted = true;
  return entry;
}

export class CalendarList {
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

  /** A calendar that can be on the caller's list (at least freeBusyReader), else 404; with the caller's entry. */
  async #listable(caller: Caller, calendarId: string, db = this.#ctx.kysely): Promise<Access & { entry?: ListEntryRow }> {
    const found = await this.#calendars.find(caller, calendarId, db);
    if (!found || ROLE_RANK[found.role] < ROLE_RANK.freeBusyReader) throw notFound();
    return { ...found, entry: await this.#store.listEntry(db, caller.principalId, found.calendar.id) };
  }

  /** A calendar on the caller's list (not taken off it; a public or domain one only once added), else 404. */
  async #onList(caller: Caller, calendarId: string, db = this.#ctx.kysely): Promise<Access & { entry?: ListEntryRow }> {
    const found = await this.#listable(caller, calendarId, db);
    if (found.entry?.removed || (!found.direct && !found.entry?.added)) throw notFound();
    return found;
  }

  async get(caller: Caller, calendarId: string): Promise<Record<string, unknown>> {
    const { calendar, role, entry } = await this.#onList(caller, calendarId);
    return renderListEntry(calendar, role, entry);
  }

  /** The caller's default reminders of a calendar (events.list and instances answer them, as Calendar does). */
  async defaultReminders(caller: Caller, calendarId: string): Promise<NonNullable<ListOverlay['defaultReminders']>> {
    const entry = await this.#store.listEntry(this.#ctx.kysely, caller.principalId, calendarId);
    return entry?.doc.defaultReminders ?? [];
  }

  /**
   * The caller's list, paged; the last page carries `nextSyncToken`. With `syncToken`, the entries that changed on the
   * list since (overlay changes, calendars added, taken off or gone), hidden and deleted ones included.
   */
  async list(caller: Caller, query: Query): Promise<Record<string, unknown>> {
    await this.#calendars.ensurePrimary(undefined, caller.principalId, caller.email, caller.name);
    const syncToken = strParam(query, 'syncToken', 4096);
    // A sync reports every change, so it cannot leave entries out.
    if (syncToken !== undefined) refuseWithSyncToken(query, ['minAccessRole'], ['showDeleted', 'showHidden']);
    const minRole = enumParam(query, 'minAccessRole', ROLES) ?? 'freeBusyReader';
    const showHidden = boolParam(query, 'showHidden');
    const showDeleted = boolParam(query, 'showDeleted');
    const queryKey = `${caller.principalId}/${minRole}/${showHidden}/${showDeleted}/${syncToken ?? ''}`;
    // The change number is read before the list, so whatever changes after it is reported by the next sync.
    const snap = await startOf(query, queryKey, () => this.#store.listHead(this.#ctx.kysely, caller.email));
    const tokenKey = `calendarList:${caller.email}`;
    const since = syncToken === undefined ? undefined : readSyncToken(syncToken, tokenKey, 'calendarList');
    if (since !== undefined && since > snap) throw fullSyncRequired();

    const entries = await this.#store.listEntries(this.#ctx.kysely, caller.principalId);
    const listed = (await this.#store.calendarsOf(this.#ctx.kysely, caller.principalId, scopesOf(caller)))
      .map((c) => ({ c, e: entries.get(c.id) }))
      .filter(({ c, e }) => ROLE_RANK[c.role] >= ROLE_RANK.freeBusyReader && (c.direct || e?.added));
    // The caller's own primary calendar leads (empty key); the rest follow by id.
    const keyOf = (c: { id: string; ownerId?: string; isPrimary?: boolean }) => (c.isPrimary && c.ownerId === caller.principalId ? '' : `~${c.id}`);
    let all: ListItem[];
    if (since === undefined) {
      all = listed
        .filter(({ c, e }) => ROLE_RANK[c.role] >= ROLE_RANK[minRole] && (showDeleted || !e?.removed) && (showHidden || !e?.doc.hidden))
        .map(({ c, e }) => ({ key: keyOf(c), version: versionOf(c, e), render: () => renderListEntry(c, c.role, e) }));
    } else {
      const changed = await this.#store.listChanges(this.#ctx.kysely, caller.email, since);
      const byId = new Map(listed.map((l) => [l.c.id, l]));
      all = [...changed].map(([id, seq]) => {
        const found = byId.get(id);
        if (found) return { key: keyOf(found.c), version: versionOf(found.c, found.e), render: () => renderListEntry(found.c, found.c.role, found.e) };
        // Deleted, or no longer shared with the caller: only its id is told.
        return { key: `~${id}`, version: seq, render: () => ({ kind: 'calendar#calendarListEntry', etag: etagOf(seq, 3), id, deleted: true }) };
      });
    }
    const page = keyedPage(all, query, queryKey, snap);
    const listVersion = all.reduce((sum, i) => sum + i.version, all.length);
    const out: Record<string, unknown> = { kind: 'calendar#calendarList', etag: etagOf(listVersion, 4), items: page.items.map((i) => i.render()) };
    if (page.nextPageToken !== undefined) out.nextPageToken = page.nextPageToken;
    else out.nextSyncToken = makeSyncToken(tokenKey, snap, 'calendarList');
    return out;
  }

  /** insert: puts a calendar the caller can see (back) on the list with the body's settings, and marks it added. */
  async insert(caller: Caller, body: unknown, rgbFormat: boolean): Promise<Record<string, unknown>> {
    const o = obj(body ?? {}, 'resource');
    if (o.id === undefined || o.id === null || o.id === '') throw requiredField('Missing id.', 'id');
    const id = str(o.id, 'id', 1024);
    const overlay = readListEntry(o, {}, false, rgbFormat);
    return this.#write(caller, id, () => overlay, true);
  }

  /** update (PUT) or patch of an entry on the list. */
  async update(caller: Caller, calendarId: string, body: unknown, partial: boolean, rgbFormat: boolean): Promise<Record<string, unknown>> {
    return this.#write(caller, calendarId, (base) => readListEntry(body, base, partial, rgbFormat), false);
  }

  /** delete: takes a calendar off the caller's list (its own primary calendar stays). */
  async delete(caller: Caller, calendarId: string): Promise<void> {
    await this.#ctx.db.write(async (tx) => {
      const { calendar, entry } = await this.#onList(caller, calendarId, tx);
      if (calendar.isPrimary && calendar.ownerId === caller.principalId) {
        throw badRequest('The primary calendar cannot be removed from the calendar list.', 'calendarId', 'cannotDeletePrimaryCalendar');
      }
      await this.#store.putListEntry(tx, { principalId: caller.principalId, calendarId: calendar.id, doc: entry?.doc ?? {}, removed: true, added: entry?.added ?? false, version: this.#nextVersion(entry) });
      await this.#store.logListChange(tx, [caller.email], calendar.id);
      await this.#watches.changed(tx, [calendarListTopic(caller.email)]);
    });
  }

  #nextVersion(entry?: ListEntryRow): number {
    return Math.max(this.#ctx.clock.now(), (entry?.version ?? 0) + 1);
  }

  /** Stores the overlay `make` builds from the current one; `adding` (insert) also restores a removed entry. */
  async #write(caller: Caller, calendarId: string, make: (base: ListOverlay) => ListOverlay, adding: boolean): Promise<Record<string, unknown>> {
    return this.#ctx.db.write(async (tx) => {
      const { calendar, role, entry } = adding ? await this.#listable(caller, calendarId, tx) : await this.#onList(caller, calendarId, tx);
      const next: ListEntryRow = {
        principalId: caller.principalId,
        calendarId: calendar.id,
        doc: make(entry?.doc ?? {}),
        removed: false,
        added: adding || (entry?.added ?? false),
        version: this.#nextVersion(entry),
      };
      await this.#store.putListEntry(tx, next);
      await this.#store.logListChange(tx, [caller.email], calendar.id);
      await this.#watches.changed(tx, [calendarListTopic(caller.email)]);
      return renderListEntry(calendar, role, next);
    });
  }
}
