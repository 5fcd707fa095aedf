// Shared set-up of the file storage suites: a runtime with the files service, a second user, and small HTTP helpers.
import { after, before } from 'node:test';
import { google } from 'googleapis';
import { DEV_TOKEN, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

export const OTHER_TOKEN = 'files-test-other-token';
export const OTHER_EMAIL = 'other@example.com';
export const DEV_EMAIL = 'developer@twinstack.local';
/** More tokens of the second user, each with one narrower Drive scope. */
export const OTHER_SCOPED_TOKENS = {
  'drive.metadata': 'files-test-other-metadata-token',
  'drive.metadata.readonly': 'files-test-other-metadata-readonly-token',
  'drive.readonly': 'files-test-other-readonly-token',
  'drive.appdata': 'files-test-other-appdata-token',
} as const;
/** A token of the second user holding both `drive` and `drive.appdata`, as an app using both spaces asks. */
export const OTHER_DRIVE_AND_APPDATA_TOKEN = 'files-test-other-drive-appdata-token';

export async function startFiles(database: 'sqlite' | 'postgres', settings: Record<string, unknown> = {}, clock: 'system' | 'manual' = 'system'): Promise<TestRuntime> {
  return startTestRuntime({
    services: ['files'],
    database,
    clock,
    settings: { files: settings },
    principals: [
      {
        id: 'other-user',
        kind: 'user',
        name: 'Other User',
        attrs: { email: OTHER_EMAIL },
        credentials: [
          { type: 'bearer', value: OTHER_TOKEN, scopes: ['https://www.googleapis.com/auth/drive'] },
          { type: 'bearer', value: OTHER_DRIVE_AND_APPDATA_TOKEN, scopes: ['https://www.googleapis.com/auth/drive', 'https://www.googleapis.com/auth/drive.appdata'] },
          ...Object.entries(OTHER_SCOPED_TOKENS).map(([scope, value]) => ({ type: 'bearer' as const, value, scopes: [`https://www.googleapis.com/auth/${scope}`] })),
        ],
      },
    ],
  });
}

/** A files runtime started before the suite's tests and closed after them: read `t` and `a` inside the tests. */
export function filesSuite(database: 'sqlite' | 'postgres', settings: Record<string, unknown> = {}): { t: TestRuntime; a: Api } {
  const suite = {} as { t: TestRuntime; a: Api };
  before(async () => {
    suite.t = await startFiles(database, settings);
    suite.a = api(suite.t);
  });
  after(async () => suite.t.close());
  return suite;
}

export interface Api {
  (path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string>; raw?: string; token?: string }): ReturnType<typeof call>;
}

/** JSON calls under /storage/v2 with a bearer token (the development user's by default). */
export function api(t: TestRuntime, prefix = '/storage/v2'): Api {
  return (path, init = {}) => {
    const { token, ...rest } = init;
    return call(`${t.url('files')}${prefix}${path}`, { ...rest, headers: { authorization: `Bearer ${token ?? DEV_TOKEN}`, ...(rest.headers ?? {}) } });
  };
}

/** Raw fetch with the development token (uploads and downloads). */
export function raw(t: TestRuntime, path: string, init: RequestInit & { token?: string } = {}): Promise<Response> {
  const { token, ...rest } = init;
  return fetch(`${t.url('files')}${path}`, { ...rest, headers: { authorization: `Bearer ${token ?? DEV_TOKEN}`, ...((rest.headers as Record<string, string>) ?? {}) } });
}

/** Rows of one table (to assert that a refused request changed nothing). */
export async function count(t: TestRuntime, table: string): Promise<number> {
  const row = await t.rt.db.kysely.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The googleapis drive v2 client pointed at the runtime, as a user holding `token` (the development user's by default). */
export function driveClient(t: TestRuntime, token = DEV_TOKEN) {
  const auth = new google.auth.OAuth2();
  auth.setCredentials({ access_token: token });
  return google.drive({ version: 'v2', rootUrl: t.url('files') + '/', auth });
}
