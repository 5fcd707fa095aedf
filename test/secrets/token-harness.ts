// Shared set-up of the access-half black-box suites: a secrets runtime on a manual clock with a fixed root token,
// and a small client for the Vault HTTP API.
import { DATABASES, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

export { DATABASES };
export const ROOT_TOKEN = 'root-test-token';
export const START = Date.parse('2026-01-01T00:00:00Z');

export async function startSecrets(database: 'sqlite' | 'postgres'): Promise<TestRuntime> {
  return startTestRuntime({
    services: ['secrets'],
    database,
    clock: 'manual',
    clockStart: START,
    settings: { secrets: { dev: true, devRootToken: ROOT_TOKEN } },
  });
}

export interface Api {
  (method: string, path: string, opts?: { token?: string | null; body?: unknown; namespace?: string }): ReturnType<typeof call>;
}

/** Calls `/v1/<path>` with the root token unless another (or none: null) is given. */
export function api(t: TestRuntime): Api {
  return (method, path, opts = {}) => {
    const headers: Record<string, string> = {};
    const token = opts.token === undefined ? ROOT_TOKEN : opts.token;
    if (token) headers['x-vault-token'] = token;
    if (opts.namespace) headers['x-vault-namespace'] = opts.namespace;
    return call(`${t.url('secrets')}/v1/${path}`, { method, headers, body: opts.body });
  };
}

export async function advance(t: TestRuntime, by: string): Promise<void> {
  const res = await call(`${t.adminUrl}/clock`, { body: { advance: by } });
  if (res.status !== 200) throw new Error(`clock move failed: ${res.text}`);
}

export const DENIED = '1 error occurred:\n\t* permission denied\n\n';
