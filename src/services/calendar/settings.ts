// settings.list / settings.get: the user's Calendar settings. Only `timezone` can change (it is the primary calendar's
// zone); the others are the defaults of a new Calendar user, fixed in twinstack.
import type { Caller, Calendars } from './access.ts';
import { fullSyncRequired, notFound } from './domain/errors.ts';
import { offsetPage } from './domain/offset-page.ts';
import { strParam, type Query } from './domain/params.ts';
import { etagOf } from './domain/render.ts';
import { makeSyncToken, readSyncToken } from './domain/sync-token.ts';

/** Settings that never change, with Calendar's values for a new user (values are strings in the API). */
const FIXED: Record<string, string> = {
  autoAddHangouts: 'false',
  dateFieldOrder: 'MDY',
  defaultEventLength: '60',
  format24HourTime: 'false',
  hideInvitations: 'false',
  hideWeekends: 'false',
  locale: 'en',
  remindOnRespondedEventsOnly: 'false',
  showDeclinedEvents: 'true',
  useKeyboardShortcuts: 'true',
  weekStart: '0',
};

interface Setting {
  id: string;
  value: string;
  /** The primary calendar's version for `timezone`, 0 for the fixed ones: what sync tokens compare. */
  version: number;
}

const render = (s: Setting) => ({ kind: 'calendar#setting', etag: etagOf(s.version, 7), id: s.id, value: s.value });

export class Settings {
  readonly #calendars: Calendars;

  constructor(calendars: Calendars) {
    this.#calendars = calendars;
  }

  async #all(caller: Caller): Promise<{ items: Setting[]; version: number }> {
    const { calendar } = await this.#calendars.resolve(caller, 'primary');
    const items = [...Object.entries(FIXED).map(([id, value]) => ({ id, value, version: 0 })), { id: 'timezone', value: calendar.doc.timeZone, version: calendar.version }];
    return { items: items.sort((a, b) => (a.id < b.id ? -1 : 1)), version: calendar.version };
  }

  async get(caller: Caller, id: string): Promise<Record<string, unknown>> {
    const found = (await this.#all(caller)).items.find((s) => s.id === id);
    if (!found) throw notFound();
    return render(found);
  }

  /** Paged by offset; the last page carries a sync token, and a list from a token gives what changed since. */
  async list(caller: Caller, query: Query): Promise<Record<string, unknown>> {
    const syncToken = strParam(query, 'syncToken', 4096);
    const { items, version } = await this.#all(caller);
    const tokenKey = `settings:${caller.principalId}`;
    let since: number | undefined;
    if (syncToken !== undefined) {
      since = readSyncToken(syncToken, tokenKey, 'settings');
      if (since > version) throw fullSyncRequired();
    }
    const changed = since === undefined ? items : items.filter((s) => s.version > since);
    const page = offsetPage(changed, query, `${tokenKey}\u0000${syncToken ?? ''}`);
    const out: Record<string, unknown> = { kind: 'calendar#settings', etag: etagOf(version, 8), ...page, items: page.items.map(render) };
    if (page.nextPageToken === undefined) out.nextSyncToken = makeSyncToken(tokenKey, version, 'settings');
    return out;
  }
}
