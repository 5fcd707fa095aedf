// Shared set-up of the calendar suites: a runtime on a manual clock with three users, and a small HTTP client.
import { after, before } from 'node:test';
import { google } from 'googleapis';
import { call, DEV_TOKEN, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

export const NOW = Date.parse('2026-03-02T12:00:00Z');
export const DEV = 'developer@twinstack.local';
export const ALICE = 'alice@example.test';
export const BOB = 'bob@example.test';
export const TOKENS = { dev: DEV_TOKEN, alice: 'alice-token', bob: 'bob-token', readonly: 'readonly-token' };
export const CAL = 'https://www.googleapis.com/auth/calendar';

export type Principals = NonNullable<Parameters<typeof startTestRuntime>[0]['principals']>;

/** A calendar runtime with the developer, alice and bob, and any `more` principals. */
export async function startCalendar(database: 'sqlite' | 'postgres', settings: Record<string, unknown> = {}, more: Principals = []): Promise<TestRuntime> {
  return startTestRuntime({
    services: ['calendar'],
    database,
    clock: 'manual',
    clockStart: NOW,
    settings: { calendar: settings },
    principals: [
      { id: 'alice', kind: 'user', name: 'Alice', attrs: { email: ALICE }, credentials: [{ type: 'bearer', value: TOKENS.alice, scopes: [CAL] }, { type: 'bearer', value: TOKENS.readonly, scopes: [`${CAL}.readonly`] }] },
      { id: 'bob', kind: 'user', name: 'Bob', attrs: { email: BOB }, credentials: [{ type: 'bearer', value: TOKENS.bob, scopes: [CAL] }] },
      ...more,
    ],
  });
}

export type Api = (path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string>; raw?: string }) => ReturnType<typeof call>;

/** Calls `/calendar/v3<path>` as the holder of `token`. */
export function api(t: TestRuntime, token: string = DEV_TOKEN): Api {
  return (path, init = {}) => call(`${t.url('calendar')}/calendar/v3${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });
}

/** The runtime of a suite and an HTTP client for each of its users. */
export interface CalendarSuite {
  /** The running runtime: read it in hooks and tests, not while the suite is declared. */
  readonly t: TestRuntime;
  readonly dev: Api;
  readonly alice: Api;
  readonly bob: Api;
  /** A client for the holder of any other token (of the `more` principals). */
  as(token: string): Api;
}

/**
 * For a describe block: a calendar runtime started before its tests and closed after them. The clients look the
 * runtime up on each call, so they may be taken out of the suite while it is declared.
 */
export function calendarSuite(database: 'sqlite' | 'postgres', settings: Record<string, unknown> = {}, more: Principals = []): CalendarSuite {
  let runtime: TestRuntime | undefined;
  before(async () => {
    runtime = await startCalendar(database, settings, more);
  });
  after(async () => runtime?.close());
  const running = (): TestRuntime => {
    if (!runtime) throw new Error('the calendar runtime starts before the tests run');
    return runtime;
  };
  const as = (token: string): Api => (path, init) => api(running(), token)(path, init);
  return {
    as,
    get t() {
      return running();
    },
    dev: as(DEV_TOKEN),
    alice: as(TOKENS.alice),
    bob: as(TOKENS.bob),
  };
}

export function client(t: TestRuntime, token: string = DEV_TOKEN) {
  const auth = new google.auth.OAuth2();
  auth.setCredentials({ access_token: token });
  return google.calendar({ version: 'v3', rootUrl: `${t.url('calendar')}/`, auth, retry: false } as any);
}

export async function advance(t: TestRuntime, by: string): Promise<void> {
  const res = await call(`${t.adminUrl}/clock`, { body: { advance: by } });
  if (res.status !== 200) throw new Error(`clock: ${res.status} ${res.text}`);
}

export async function outbox(t: TestRuntime, channel: string): Promise<any[]> {
  const res = await call(`${t.adminUrl}/outbox?service=calendar&channel=${channel}`);
  return res.body.messages ?? res.body.items ?? res.body;
}

export const timed = (start: string, end: string, timeZone?: string) => ({
  start: timeZone ? { dateTime: start, timeZone } : { dateTime: start },
  end: timeZone ? { dateTime: end, timeZone } : { dateTime: end },
});

/** The error body's status and first reason. */
export function expectError(res: { status: number; body: any }, status: number, reason?: string): void {
  if (res.status !== status || (reason !== undefined && res.body?.error?.errors?.[0]?.reason !== reason)) {
    throw new Error(`expected ${status} ${reason ?? ''}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (res.body?.error?.code !== status) throw new Error(`error body code ${res.body?.error?.code} for ${status}`);
}

/** A sync token of the calendar now: `unchanged` later asserts that no event changed since. */
export async function syncPoint(a: Api, calendar = 'primary'): Promise<string> {
  let res = await a(`/calendars/${encodeURIComponent(calendar)}/events?maxResults=2500&showDeleted=true`);
  while (res.body.nextPageToken) res = await a(`/calendars/${encodeURIComponent(calendar)}/events?maxResults=2500&showDeleted=true&pageToken=${encodeURIComponent(res.body.nextPageToken)}`);
  return res.body.nextSyncToken;
}

export async function unchanged(a: Api, token: string, calendar = 'primary'): Promise<void> {
  const res = await a(`/calendars/${encodeURIComponent(calendar)}/events?syncToken=${encodeURIComponent(token)}`);
  if (res.status !== 200 || res.body.items.length !== 0) throw new Error(`calendar changed: ${res.status} ${JSON.stringify(res.body)}`);
}
