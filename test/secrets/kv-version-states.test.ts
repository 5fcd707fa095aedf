// KV v2 version states as Vault's engine keeps them: patch against check-and-set and deleted versions, repeated
// deletes, and undelete under delete_version_after. Driven through HTTP and node-vault on a manual clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodeVault from 'node-vault';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { ROOT, startSecrets, vault } from './helpers.ts';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

for (const database of DATABASES) {
  describe(`secrets KV v2 version states (${database})`, () => {
    let t: TestRuntime;
    let v: ReturnType<typeof vault>;
    let client: ReturnType<typeof nodeVault>;
    const advance = (by: string) => call(`${t.adminUrl}/clock`, { body: { advance: by } });
    const mount = async (path: string) => {
      const res = await v(`sys/mounts/${path}`, { body: { type: 'kv', options: { version: '2' } } });
      assert.equal(res.status, 204);
    };
    before(async () => {
      t = await startSecrets(database, {}, 'manual');
      v = vault(t);
      client = nodeVault({ endpoint: t.url('secrets'), token: ROOT });
    });
    after(async () => t.close());

    it('PATCH needs cas when the engine config requires it, as a write does', async () => {
      await mount('kv-cas');
      await client.write('kv-cas/config', { cas_required: true });
      await client.write('kv-cas/data/app', { data: { a: 1 }, options: { cas: 0 } });

      const refused = await v('kv-cas/data/app', { method: 'PATCH', body: { data: { b: 2 } }, headers: MERGE_PATCH });
      assert.deepEqual([refused.status, refused.body], [400, { errors: ['check-and-set parameter required for this call'] }]);
      const unchanged = await client.read('kv-cas/data/app');
      assert.deepEqual([unchanged.data.data, unchanged.data.metadata.version], [{ a: 1 }, 1]);

      const patched = await v('kv-cas/data/app', { method: 'PATCH', body: { data: { b: 2 }, options: { cas: 1 } }, headers: MERGE_PATCH });
      assert.deepEqual([patched.status, patched.body.data.version], [200, 2]);
      assert.deepEqual((await client.read('kv-cas/data/app')).data.data, { a: 1, b: 2 });
    });

    it('PATCH of a soft-deleted or destroyed latest version answers 404 with that version', async () => {
      await client.write('secret/data/gone', { data: { a: 1 } });
      await client.write('secret/metadata/gone', { custom_metadata: { owner: 'ops' } });
      assert.equal((await v('secret/data/gone', { method: 'DELETE' })).status, 204);
      const deletionTime = (await client.read('secret/metadata/gone')).data.versions['1'].deletion_time;

      let res = await v('secret/data/gone', { method: 'PATCH', body: { data: { b: 2 } }, headers: MERGE_PATCH });
      assert.equal(res.status, 404);
      assert.deepEqual(res.body.errors, []);
      assert.deepEqual(res.body.data, {
        created_time: res.body.data.created_time,
        custom_metadata: { owner: 'ops' },
        deletion_time: deletionTime,
        destroyed: false,
        version: 1,
      });
      assert.notEqual(res.body.data.created_time, '');

      await client.write('secret/destroy/gone', { versions: [1] });
      res = await v('secret/data/gone', { method: 'PATCH', body: { data: { b: 2 } }, headers: MERGE_PATCH });
      assert.deepEqual([res.status, res.body.data.destroyed, res.body.data.version], [404, true, 1]);
      assert.equal((await client.read('secret/metadata/gone')).data.current_version, 1, 'no version was added');
    });

    it('deleting an already deleted version keeps its deletion time and the key updated_time', async () => {
      await client.write('secret/data/twice', { data: { a: 1 } });
      assert.equal((await v('secret/data/twice', { method: 'DELETE' })).status, 204);
      const first = (await client.read('secret/metadata/twice')).data;
      const deletedAt = first.versions['1'].deletion_time;
      assert.notEqual(deletedAt, '');

      await advance('5m');
      assert.equal((await v('secret/data/twice', { method: 'DELETE' })).status, 204);
      assert.equal((await v('secret/delete/twice', { body: { versions: [1] } })).status, 204);
      const again = (await client.read('secret/metadata/twice')).data;
      assert.equal(again.versions['1'].deletion_time, deletedAt);
      assert.equal(again.updated_time, first.updated_time);
    });

    it('undelete starts delete_version_after again from the time of the undelete', async () => {
      await client.write('secret/metadata/expiring', { delete_version_after: '10m' });
      await client.write('secret/data/expiring', { data: { a: 1 } });
      await advance('11m');
      assert.equal((await v('secret/data/expiring')).status, 404, 'expired');

      const undeletedAt = Date.parse((await call(`${t.adminUrl}/clock`)).body.now);
      assert.equal((await v('secret/undelete/expiring', { body: { versions: [1] } })).status, 204);
      const version = (await client.read('secret/metadata/expiring')).data.versions['1'];
      assert.equal(Date.parse(version.deletion_time), undeletedAt + 10 * 60_000);
      assert.deepEqual((await client.read('secret/data/expiring')).data.data, { a: 1 });

      await advance('11m');
      const res = await v('secret/data/expiring');
      assert.deepEqual([res.status, res.body.data.data, res.body.data.metadata.version], [404, null, 1], 'expires again');
    });
  });
}
