// Shared helpers of the secrets suites: a runtime with the secrets service and calls with a token, and an unsealed
// barrier over a fresh storage table.
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/core/db/index.ts';
import { Barrier } from '../../src/services/secrets/storage/barrier.ts';
import { PhysicalStorage, storageMigrations } from '../../src/services/secrets/storage/physical.ts';
import { call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

export const ROOT = 'root-test-token';

export async function startSecrets(database: 'sqlite' | 'postgres', settings: Record<string, unknown> = {}, clock: 'system' | 'manual' = 'system'): Promise<TestRuntime> {
  return startTestRuntime({
    services: ['secrets'],
    database,
    clock,
    clockStart: clock === 'manual' ? Date.parse('2026-01-01T00:00:00Z') : undefined,
    settings: { secrets: { devRootToken: ROOT, ...settings } },
  });
}

/** Calls the secrets listener with a token (root unless given). */
export function vault(t: TestRuntime) {
  return (
    path: string,
    init: { method?: string; body?: unknown; token?: string | null; headers?: Record<string, string>; raw?: string } = {},
  ) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.token !== null) headers['x-secrets-token'] = init.token ?? ROOT;
    return call(`${t.url('secrets')}/v1/${path}`, { method: init.method, body: init.body, headers, raw: init.raw });
  };
}

/**
 * For a describe block: a secrets runtime started before its tests and closed after them, and a client that looks the
 * runtime up on each call (so it may be taken out of the suite while it is declared, and outlives a restart).
 */
export function secretsSuite(database: 'sqlite' | 'postgres'): { readonly t: TestRuntime; v: ReturnType<typeof vault> } {
  let runtime: TestRuntime | undefined;
  before(async () => {
    runtime = await startSecrets(database);
  });
  after(async () => runtime?.close());
  const running = (): TestRuntime => {
    if (!runtime) throw new Error('the secrets runtime starts before the tests run');
    return runtime;
  };
  return {
    get t() {
      return running();
    },
    v: (path, init) => vault(running())(path, init),
  };
}

/** A barrier initialised and unsealed with a new root key over a fresh storage table of `db`. */
export async function unsealedBarrier(db: Database, physicalOptions?: ConstructorParameters<typeof PhysicalStorage>[1]): Promise<{ barrier: Barrier; rootKey: Buffer }> {
  for (const m of Object.values(storageMigrations)) await m.up(db.kysely as Kysely<any>);
  const rootKey = randomBytes(32);
  const barrier = new Barrier(new PhysicalStorage(db, physicalOptions));
  await barrier.initialize(rootKey, Date.now());
  await barrier.unseal(rootKey);
  return { barrier, rootKey };
}
