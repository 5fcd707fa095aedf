// The secrets browser's data, read through the store's own Vault API in-process with the development root token:
// seal state, mounts, one folder of a KV tree at a time, one entry with its versions, policies, and tokens (by
// accessor: a token's value is never shown).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Runtime } from '../../core/runtime.ts';
import { adminError } from '../errors.ts';
import { callService, expectOk } from './service-call.ts';

const KvQuery = Type.Object(
  { mount: Type.String({ pattern: '^[\\w.-]+(/[\\w.-]+)*/$' }), path: Type.Optional(Type.String({ pattern: '^[^?#]*$' })) },
  { additionalProperties: false },
);

export function secretsRoutes(app: FastifyInstance, rt: Runtime): void {
  const rootToken = async (): Promise<string> => {
    const s = rt.services.get('secrets');
    if (!s) throw adminError(404, 'service secrets is not running');
    const hint = (await s.manifest.credentials?.(s.ctx))?.find((c) => /root token/.test(c.label));
    if (!hint) throw adminError(409, 'the secrets store is not in development mode: the console has no token to read it with');
    return hint.value;
  };
  const vault = async (what: string, url: string, method: 'GET' | 'POST' = 'GET', body?: unknown) =>
    expectOk(callService(rt, 'secrets', { method, url, body, headers: { 'x-vault-token': await rootToken() } }), what);
  /** A LIST that finds nothing answers 404 in the Vault API: an empty folder here. */
  const list = async (what: string, url: string): Promise<string[]> => {
    const answer = await callService(rt, 'secrets', { url: `${url}?list=true`, headers: { 'x-vault-token': await rootToken() } });
    if (answer.status === 404) return [];
    if (answer.status !== 200) throw adminError(502, `${what}: ${answer.body?.errors?.join('; ') ?? answer.status}`);
    return answer.body.data.keys as string[];
  };

  app.get('/console/api/secrets/status', async () => {
    const seal = await expectOk(callService(rt, 'secrets', { url: '/v1/sys/seal-status' }), 'seal status');
    return { seal };
  });

  app.get('/console/api/secrets/mounts', async () => {
    const mounts = (await vault('mounts', '/v1/sys/mounts')).data as Record<string, { type: string; description: string; options?: Record<string, string> | null; accessor: string }>;
    return {
      mounts: Object.entries(mounts).map(([path, m]) => ({
        path,
        type: m.type,
        description: m.description,
        kvVersion: m.type === 'kv' ? Number(m.options?.version ?? 1) : null,
      })),
    };
  });

  const kvVersion = async (mount: string): Promise<number> => {
    const mounts = (await vault('mounts', '/v1/sys/mounts')).data as Record<string, { type: string; options?: Record<string, string> | null }>;
    const m = mounts[mount];
    if (!m || m.type !== 'kv') throw adminError(404, `no KV mount ${mount}`);
    return Number(m.options?.version ?? 1);
  };

  app.get('/console/api/secrets/kv/list', { schema: { querystring: KvQuery } }, async (req) => {
    const { mount, path = '' } = req.query as Static<typeof KvQuery>;
    const version = await kvVersion(mount);
    const keys = await list('list', version === 2 ? `/v1/${mount}metadata/${path}` : `/v1/${mount}${path}`);
    return { mount, path, kvVersion: version, keys };
  });

  app.get('/console/api/secrets/kv/entry', { schema: { querystring: KvQuery } }, async (req) => {
    const { mount, path = '' } = req.query as Static<typeof KvQuery>;
    if (!path || path.endsWith('/')) throw adminError(400, 'name an entry, not a folder');
    const version = await kvVersion(mount);
    if (version === 1) {
      const read = await vault('read', `/v1/${mount}${path}`);
      return { mount, path, kvVersion: 1, data: read.data, metadata: null };
    }
    const metadata = (await vault('metadata', `/v1/${mount}metadata/${path}`)).data;
    // The current version may be deleted or destroyed: then there is no data to show, only its metadata.
    const current = await callService(rt, 'secrets', { url: `/v1/${mount}data/${path}`, headers: { 'x-vault-token': await rootToken() } });
    return { mount, path, kvVersion: 2, data: current.status === 200 ? current.body.data.data : null, metadata };
  });

  app.get('/console/api/secrets/policies', async () => {
    const names = await list('policies', '/v1/sys/policies/acl');
    const policies = await Promise.all(names.map(async (name) => ({ name, policy: (await vault(`policy ${name}`, `/v1/sys/policies/acl/${encodeURIComponent(name)}`)).data.policy as string })));
    return { policies };
  });

  app.get('/console/api/secrets/tokens', async () => {
    const accessors = await list('token accessors', '/v1/auth/token/accessors');
    const tokens = await Promise.all(
      accessors.map(async (accessor) => {
        const d = (await vault('token lookup', '/v1/auth/token/lookup-accessor', 'POST', { accessor })).data;
        return {
          accessor,
          displayName: d.display_name,
          policies: d.policies,
          type: d.type,
          ttl: d.ttl,
          createdAt: d.creation_time ? new Date(d.creation_time * 1000).toISOString() : null,
          expiresAt: d.expire_time ?? null,
          orphan: d.orphan,
          path: d.path,
        };
      }),
    );
    return { tokens };
  });
}
