// Shared setup of the gateway's black-box tests: a runtime with known clients and merchants, and a caller that makes a
// fresh API key (new nonce) for every request, as the client libraries do.
import { randomBytes } from 'node:crypto';
import { makeApiKey } from '../../src/services/payments/domain/api-key.ts';
import { after, before, describe } from 'node:test';
import { call, DATABASES, startTestRuntime, type TestRuntime, type TestRuntimeOptions } from '../helpers/runtime.ts';

export const CLIENT = 'DEV001';
export const LICENCE = 'TESTLICENCEKEY01';
export const OTHER_CLIENT = 'OTHER01';
export const OTHER_LICENCE = 'OTHERLICENCE0001';
/** The development merchant: defaults (duplicate check on, AVS/CSC bypassed, 3-D Secure on). */
export const MID = 10001;
/** A merchant of the same client enforcing CSC, postcode and address checks, in New York time. */
export const STRICT_MID = 20002;
/** A merchant of another client. */
export const FOREIGN_MID = 30003;

export const VISA = '4000000000000002';
export const AMEX = '374387188019714';
export const MASTERCARD = '5100000000000008';

/** A payments runtime with these payments settings, on the system clock unless `clock` says otherwise. */
export function startPayments(
  database: 'sqlite' | 'postgres',
  payments: Record<string, unknown>,
  clock: Pick<TestRuntimeOptions, 'clock' | 'clockStart'> = {},
): Promise<TestRuntime> {
  return startTestRuntime({ services: ['payments'], database, ...clock, settings: { payments } });
}

/** `extraMerchants` adds merchant configurations (for example with 3-D Secure off) beside the standard ones. */
export async function startGateway(database: 'sqlite' | 'postgres', clockStart = Date.parse('2026-03-10T12:00:00Z'), extraMerchants: Array<Record<string, unknown>> = []): Promise<TestRuntime> {
  return startPayments(
    database,
    {
      dev_licence_key: LICENCE,
      clients: [{ clientid: OTHER_CLIENT, name: 'Other client', licence_key: OTHER_LICENCE }],
      merchants: [
        { merchantid: STRICT_MID, clientid: CLIENT, name: 'Strict merchant', csc_policy: '1', avs_postcode_policy: '1', match_avsa: '1', time_zone: 'America/New_York', currency: 'USD' },
        { merchantid: FOREIGN_MID, clientid: OTHER_CLIENT, name: 'Foreign merchant' },
        ...extraMerchants,
      ],
    },
    { clock: 'manual', clockStart },
  );
}

export interface Caller {
  post(path: string, body: unknown, opts?: { headers?: Record<string, string>; key?: string | null; raw?: string }): ReturnType<typeof call>;
  get(path: string, opts?: { headers?: Record<string, string>; key?: string | null }): ReturnType<typeof call>;
  del(path: string): ReturnType<typeof call>;
  key(at?: number): string;
}

/** Calls the payments listener with a fresh `pay-api-key` (unless `key` is given: null sends none). */
export function caller(t: TestRuntime, client = CLIENT, licence = LICENCE): Caller {
  const key = (at = t.rt.clock.now()) => makeApiKey(client, licence, randomBytes(16), at);
  const headers = (opts: { headers?: Record<string, string>; key?: string | null } = {}) => {
    const h: Record<string, string> = { ...(opts.headers ?? {}) };
    const k = opts.key === undefined ? key() : opts.key;
    if (k !== null) h['pay-api-key'] = k;
    return h;
  };
  const base = () => t.url('payments');
  return {
    key,
    post: (path, body, opts = {}) =>
      opts.raw !== undefined
        ? call(`${base()}${path}`, { method: 'POST', raw: opts.raw, headers: headers(opts) })
        : call(`${base()}${path}`, { method: 'POST', body, headers: headers(opts) }),
    get: (path, opts = {}) => call(`${base()}${path}`, { headers: headers(opts) }),
    del: (path) => call(`${base()}${path}`, { method: 'DELETE', headers: headers() }),
  };
}

let counter = 0;
/** A unique transaction identifier. */
export const ident = (prefix = 'order'): string => `${prefix}-${process.pid}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

/** A valid AuthRequest for the development merchant, with overrides. */
export function authRequest(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { amount: 1500, cardnumber: VISA, expmonth: 12, expyear: 2030, identifier: ident(), merchantid: MID, csc: '012', ...over };
}

/**
 * One suite per database around a gateway started before its tests and closed after them. `t` and `c` may be used
 * while the tests are being defined: they reach the running gateway only when a test calls them.
 */
export function describeGateway(title: string, body: (t: TestRuntime, c: Caller, database: 'sqlite' | 'postgres') => void): void {
  for (const database of DATABASES) {
    describe(`${title} (${database})`, () => {
      let running: TestRuntime | undefined;
      const t = new Proxy({} as TestRuntime, {
        get(_target, prop) {
          if (!running) throw new Error('the gateway is not running yet');
          const value = Reflect.get(running, prop, running);
          return typeof value === 'function' ? value.bind(running) : value;
        },
      });
      before(async () => {
        running = await startGateway(database);
      });
      after(async () => running?.close());
      body(t, caller(t), database);
    });
  }
}

/** Moves the manual clock through the admin API (`{advance: '31m'}` or `{set: ISO}`); due jobs run before it answers. */
export const moveClock = (t: TestRuntime, move: { advance: string } | { set: string }) => call(`${t.adminUrl}/clock`, { body: move });

/** Row counts of every payments table: equal before and after a refused request means nothing was written. */
export async function paymentsRowCounts(t: TestRuntime): Promise<Record<string, number>> {
  const db = t.rt.db.kysely;
  const tables = (await db.introspection.getTables()).map((x) => x.name).filter((n) => n.startsWith('payments_')).sort();
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

/** Row counts of the payments tables other than the API-key nonces, which every request (refused or not) records. */
export async function paymentsRowCountsBesideNonces(t: TestRuntime): Promise<Record<string, number>> {
  const { payments_nonces: _nonces, ...rest } = await paymentsRowCounts(t);
  return rest;
}
