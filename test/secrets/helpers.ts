// Shared helpers of the secrets suites: a runtime with the secrets service and calls with a token.
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
