import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildAdmin } from '../../src/admin/index.ts';
import { Runtime } from '../../src/core/runtime.ts';
import { manifestOf } from '../../src/services/index.ts';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { ROOT, startSecrets, vault } from './helpers.ts';

// Several instances on one PostgreSQL: each unseals itself from the kept dev share; configuration made on one
// (mounts, namespaces, CORS) is seen by the other at its next request.
if (DATABASES.includes('postgres')) {
  describe('secrets with two instances on one PostgreSQL', () => {
    let t: TestRuntime;
    let second: Runtime;
    let a: (path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }) => ReturnType<ReturnType<typeof vault>>;
    const b = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
      call(`${second.services.get('secrets')!.url}/v1/${path}`, { ...init, headers: { 'x-secrets-token': ROOT, ...(init.headers ?? {}) } });
    before(async () => {
      t = await startSecrets('postgres');
      a = vault(t);
      second = await Runtime.start({ ...t.rt.options, ports: () => 0 }, [manifestOf('secrets')], buildAdmin);
    });
    after(async () => {
      await second.close();
      await t.close();
    });

    it('shares mounts, data, namespaces and CORS between instances', async () => {
      assert.equal((await a('sys/mounts/shared', { body: { type: 'kv-v2' } })).status, 204);
      assert.equal((await a('shared/data/k', { body: { data: { v: 1 } } })).status, 200);
      assert.deepEqual((await b('shared/data/k')).body.data.data, { v: 1 });
      assert.equal((await b('sys/namespaces/fromb', { body: {} })).status, 200);
      assert.equal((await a('sys/mounts/inner', { body: { type: 'kv' }, headers: { 'x-secrets-namespace': 'fromb/' } })).status, 204);
      assert.equal((await b('fromb/inner/x', { body: { y: 2 } })).status, 204);
      assert.deepEqual((await a('fromb/inner/x')).body.data, { y: 2 });
      await a('sys/config/cors', { body: { allowed_origins: 'https://ok.example' } });
      assert.equal((await b('shared/data/k', { headers: { origin: 'https://no.example' } })).status, 403);
      const racing = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b)(`shared/data/race`, { body: { data: { i }, options: { cas: 0 } } })),
      );
      assert.equal(racing.filter((r) => r.status === 200).length, 1, 'one check-and-set winner across instances');
      assert.ok(racing.filter((r) => r.status !== 200).every((r) => r.status === 400 && /check-and-set/.test(r.body.errors[0])));
      assert.equal((await b('sys/mounts/shared', { method: 'DELETE' })).status, 204);
      assert.equal((await a('shared/data/k')).status, 404);
    });
  });
}
