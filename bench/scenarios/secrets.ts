// Secrets store: KV v2 read and write with a non-root token whose policy allows exactly the benchmark's paths, so every
// request pays for token lookup, the ACL check and the barrier (AES-GCM) besides storage.
import type { BenchEnv, BenchScenario } from '../scenario.ts';

const SEEDED = 200;
const POLICY = 'path "secret/data/bench/*" {\n  capabilities = ["create", "read", "update"]\n}\n';

let prepared: Promise<string> | undefined;
let rootToken: string | undefined;

/** KV v2 reads of the benchmark token, as static requests. */
export async function kvReads(env: BenchEnv): Promise<{ requests: Array<{ method: string; path: string }>; headers: Record<string, string> }> {
  const token = await prepare(env);
  return { headers: { 'x-secrets-token': token }, requests: Array.from({ length: SEEDED }, (_, i) => ({ method: 'GET', path: `/v1/secret/data/bench/item-${i}` })) };
}

async function api(env: BenchEnv, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${env.url('secrets')}/v1/${path}`, {
    method,
    headers: { 'x-secrets-token': token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Creates the policy and a token holding only it (through the HTTP API), and seeds the secrets read back. */
function prepare(env: BenchEnv): Promise<string> {
  prepared ??= (async () => {
    const running = env.rt.services.get('secrets')!;
    const hints = (await running.manifest.credentials?.(running.ctx)) ?? [];
    const root = hints.find((h) => /root token/.test(h.label))?.value;
    if (!root) throw new Error('the secrets store is not in dev mode: no root token to prepare the benchmark');
    rootToken = root;
    await api(env, root, 'PUT', 'sys/policies/acl/bench', { policy: POLICY });
    const created = await api(env, root, 'POST', 'auth/token/create', { policies: ['bench'], ttl: '2h' });
    const token = created.auth.client_token as string;
    for (let i = 0; i < SEEDED; i++) await api(env, token, 'POST', `secret/data/bench/item-${i}`, { data: { foo: 'a'.repeat(32), n: i } });
    return token;
  })();
  return prepared;
}

export const scenarios: BenchScenario[] = [
  {
    name: 'secrets.kv2-read',
    service: 'secrets',
    async setup(env) {
      // Static requests (one per seeded item, cycled) let the load run from a child process.
      return kvReads(env);
    },
  },
  {
    name: 'secrets.kv2-write',
    service: 'secrets',
    async setup(env) {
      const token = await prepare(env);
      const body = JSON.stringify({ data: { foo: 'a'.repeat(32) } });
      return {
        headers: { 'x-secrets-token': token, 'content-type': 'application/json' },
        requests: Array.from({ length: 1000 }, (_, i) => ({ method: 'POST', path: `/v1/secret/data/bench/w-${i}`, body })),
      };
    },
  },
  {
    // Policies are written in HCL by operators and tools such as Terraform; the parser is a WebAssembly program.
    name: 'secrets.policy-write-200-paths',
    service: 'secrets',
    async setup(env) {
      await prepare(env);
      const policy = Array.from({ length: 200 }, (_, i) => `path "secret/data/team-${i}/*" {\n  capabilities = ["create", "read", "update", "list"]\n}\n`).join('');
      return {
        headers: { 'x-secrets-token': rootToken!, 'content-type': 'application/json' },
        requests: Array.from({ length: 10 }, (_, i) => ({ method: 'PUT', path: `/v1/sys/policies/acl/bench-team-${i}`, body: JSON.stringify({ policy }) })),
      };
    },
  },
];
