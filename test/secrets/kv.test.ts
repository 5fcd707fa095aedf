import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodeVault from 'node-vault';
import HashiVault from 'hashi-vault-js';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { ROOT, startSecrets, vault } from './helpers.ts';

for (const database of DATABASES) {
  describe(`secrets KV engines (${database})`, () => {
    let t: TestRuntime;
    let v: ReturnType<typeof vault>;
    let client: ReturnType<typeof nodeVault>;
    const advance = (by: string) => call(`${t.adminUrl}/clock`, { body: { advance: by } });
    before(async () => {
      t = await startSecrets(database, {}, 'manual');
      v = vault(t);
      client = nodeVault({ endpoint: t.url('secrets'), token: ROOT });
    });
    after(async () => t.close());

    it('KV v1: write, read with the default lease, list directories only, delete', async () => {
      assert.equal((await v('sys/mounts/kv1', { body: { type: 'kv', description: 'v1' } })).status, 204);
      await client.write('kv1/app/db', { user: 'u', password: 'p' });
      await client.write('kv1/app/cfg/x', { ttl: '60', k: 1 });
      await client.write('kv1/top', { a: 'b' });
      const res = await client.read('kv1/app/db');
      assert.deepEqual(res.data, { user: 'u', password: 'p' });
      assert.equal(res.lease_duration, 2764800);
      assert.equal(res.lease_id, '');
      assert.equal(res.renewable, false);
      assert.equal((await client.read('kv1/app/cfg/x')).lease_duration, 60);
      // the lease is read the way Vault parses durations: seconds or a duration string, `ttl` before `lease`
      for (const [data, lease] of [
        [{ ttl: '30m', k: 1 }, 1800],
        [{ lease: '1h', k: 1 }, 3600],
        [{ ttl: 90, lease: '1h' }, 90],
        [{ ttl: 'soon', k: 1 }, 2764800],
      ] as const) {
        await client.write('kv1/leased', data);
        const read = await client.read('kv1/leased');
        assert.equal(read.lease_duration, lease, JSON.stringify(data));
        assert.deepEqual(read.data, data, 'the data is stored as written');
      }
      await client.delete('kv1/leased');
      assert.deepEqual((await client.list('kv1/app')).data.keys, ['cfg/', 'db']);
      assert.deepEqual((await client.list('kv1/')).data.keys, ['app/', 'top']);
      let raw = await v('kv1/nothing?list=true');
      assert.equal(raw.status, 404);
      assert.deepEqual(raw.body, { errors: [] });
      raw = await v('kv1/missing');
      assert.equal(raw.status, 404);
      assert.deepEqual(raw.body, { errors: [] });
      raw = await v('kv1/app/db', { body: {} });
      assert.equal(raw.status, 400);
      assert.deepEqual(raw.body, { errors: ['missing data fields'] });
      assert.deepEqual((await client.read('kv1/app/db')).data, { user: 'u', password: 'p' }, 'unchanged after a rejected write');
      raw = await v('kv1/app/db', { method: 'PATCH', body: { a: 1 }, headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(raw.status, 405);
      await client.delete('kv1/app/db');
      assert.equal((await v('kv1/app/db')).status, 404);
      assert.equal((await v('kv1/app/db', { method: 'DELETE' })).status, 204, 'deleting a missing key is fine');
    });

    it('KV v2: versions, check-and-set, metadata and the engine config', async () => {
      let res = await client.write('secret/data/app', { data: { v: 1 } });
      assert.equal(res.data.version, 1);
      assert.equal(res.data.deletion_time, '');
      res = await client.write('secret/data/app', { data: { v: 2 }, options: { cas: 1 } });
      assert.equal(res.data.version, 2);
      let raw = await v('secret/data/app', { body: { data: { v: 3 }, options: { cas: 1 } } });
      assert.equal(raw.status, 400);
      assert.deepEqual(raw.body, { errors: ['check-and-set parameter did not match the current version'] });
      raw = await v('secret/data/app', { body: { data: { v: 3 }, options: { cas: '2' }, mount_point: 'secret' } });
      assert.equal(raw.status, 200, 'cas decoded weakly');
      assert.deepEqual(raw.body.warnings, ['Endpoint ignored these unrecognized parameters: [mount_point]']);
      raw = await v('secret/data/app', { body: {} });
      assert.deepEqual([raw.status, raw.body.errors], [400, ['no data provided']]);
      res = await client.read('secret/data/app?version=1');
      assert.deepEqual(res.data.data, { v: 1 });
      res = await client.read('secret/data/app');
      assert.deepEqual(res.data.data, { v: 3 });
      assert.equal(res.data.metadata.version, 3);
      assert.equal(res.data.metadata.custom_metadata, null);

      await client.write('secret/metadata/app', { cas_required: true, max_versions: 2, custom_metadata: { owner: 'ops' } });
      raw = await v('secret/data/app', { body: { data: { v: 4 } } });
      assert.deepEqual(raw.body, { errors: ['check-and-set parameter required for this call'] });
      res = await client.write('secret/data/app', { data: { v: 4 }, options: { cas: 3 } });
      assert.equal(res.data.version, 4);
      res = await client.read('secret/metadata/app');
      assert.equal(res.data.current_version, 4);
      assert.equal(res.data.max_versions, 2);
      assert.equal(res.data.oldest_version, 3);
      assert.deepEqual(Object.keys(res.data.versions).sort(), ['3', '4']);
      assert.deepEqual(res.data.custom_metadata, { owner: 'ops' });
      assert.equal(res.data.delete_version_after, '0s');
      raw = await v('secret/data/app?version=1');
      assert.equal(raw.status, 404, 'trimmed versions are gone');

      raw = await v('secret/metadata/app', { body: { custom_metadata: { bad: [1] } } });
      assert.equal(raw.status, 400);
      raw = await v('secret/metadata/app', { body: { max_versions: 'many' } });
      assert.equal(raw.status, 400);
      assert.equal((await client.read('secret/metadata/app')).data.max_versions, 2, 'unchanged after rejected writes');

      await client.write('secret/config', { max_versions: 5, delete_version_after: '1h' });
      res = await client.read('secret/config');
      assert.deepEqual(res.data, { cas_required: false, delete_version_after: '1h0m0s', max_versions: 5 });
      await client.write('secret/config', { max_versions: 0, delete_version_after: 0 });
    });

    it('KV v2: soft delete, undelete, destroy, and the 404 that carries metadata', async () => {
      await client.write('secret/data/del', { data: { a: 1 } });
      await client.write('secret/data/del', { data: { a: 2 } });
      assert.equal((await v('secret/data/del', { method: 'DELETE' })).status, 204);
      let raw = await v('secret/data/del');
      assert.equal(raw.status, 404);
      assert.equal(raw.body.data.data, null);
      assert.equal(raw.body.data.metadata.version, 2);
      assert.notEqual(raw.body.data.metadata.deletion_time, '');
      assert.deepEqual(raw.body.errors, []);
      raw = await v('secret/undelete/del', { body: { versions: [2] } });
      assert.equal(raw.status, 204);
      assert.deepEqual((await client.read('secret/data/del')).data.data, { a: 2 });
      raw = await v('secret/delete/del', { body: { versions: [] } });
      assert.deepEqual([raw.status, raw.body.errors], [400, ['No version number provided']]);
      await client.write('secret/delete/del', { versions: [1] });
      assert.equal((await v('secret/data/del?version=1')).status, 404);
      await client.write('secret/destroy/del', { versions: [2] });
      raw = await v('secret/data/del');
      assert.equal(raw.status, 404);
      assert.equal(raw.body.data.metadata.destroyed, true);
      raw = await v('secret/undelete/del', { body: { versions: '2' } });
      assert.equal((await v('secret/data/del')).status, 404, 'destroyed stays destroyed');
      assert.deepEqual((await client.list('secret/metadata')).data.keys.includes('del'), true, 'still listed');
      await client.delete('secret/metadata/del');
      assert.equal((await v('secret/metadata/del')).status, 404);
    });

    it('KV v2: delete_version_after follows the clock', async () => {
      await client.write('secret/metadata/temp', { delete_version_after: '30m' });
      await client.write('secret/data/temp', { data: { t: 1 } });
      assert.equal((await v('secret/data/temp')).status, 200);
      await advance('31m');
      const raw = await v('secret/data/temp');
      assert.equal(raw.status, 404);
      assert.equal(raw.body.data.metadata.version, 1);
    });

    it('KV v2: patch (merge-patch content type), subkeys, listing and bad paths', async () => {
      await client.write('secret/data/p', { data: { a: 1, nested: { b: 2, c: 3 } } });
      let raw = await v('secret/data/p', { method: 'PATCH', body: { data: { a: null, d: 4 } } });
      assert.equal(raw.status, 415);
      raw = await v('secret/data/p', { method: 'PATCH', body: { data: { a: null, d: 4, nested: { c: null } } }, headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(raw.status, 200);
      assert.equal(raw.body.data.version, 2);
      assert.deepEqual((await client.read('secret/data/p')).data.data, { d: 4, nested: { b: 2 } });
      raw = await v('secret/data/none', { method: 'PATCH', body: { data: { a: 1 } }, headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(raw.status, 404);
      const sub = await client.read('secret/subkeys/p');
      assert.deepEqual(sub.data.subkeys, { d: null, nested: { b: null } });
      assert.deepEqual((await client.read('secret/subkeys/p?depth=1')).data.subkeys, { d: null, nested: null });
      await client.write('secret/data/dir/one', { data: { x: 1 } });
      assert.deepEqual((await client.list('secret/metadata/dir')).data.keys, ['one']);
      raw = await v('secret/data/dir?list=true');
      assert.equal(raw.status, 405);
      raw = await v('secret/p');
      assert.equal(raw.status, 404);
      assert.match(raw.body.warnings[0], /^Invalid path for a versioned K\/V secrets engine/);
      raw = await v('secret/data/bad.');
      assert.equal(raw.status, 404);
      raw = await v('secret/data/p', { raw: '{not json', method: 'POST' });
      assert.equal(raw.status, 400);
      assert.match(raw.body.errors[0], /^failed to decode JSON input/);
    });

    it('works with hashi-vault-js (LIST verb, cas 0 creation)', async () => {
      const hv: any = new HashiVault({ baseUrl: `${t.url('secrets')}/v1`, timeout: 5000 });
      const health = await hv.healthCheck();
      assert.equal(health.sealed, false);
      await hv.createKVSecret(ROOT, 'hv/one', { k: 'v' });
      await assert.rejects(hv.createKVSecret(ROOT, 'hv/one', { k: 'again' }), (err: any) => err.response?.status === 400);
      const read = await hv.readKVSecret(ROOT, 'hv/one');
      assert.deepEqual(read.data, { k: 'v' });
      const list = await hv.listKVSecrets(ROOT, 'hv');
      assert.deepEqual(list.keys, ['one']);
    });

    it('lets exactly one of racing check-and-set writes win', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => v('secret/data/race', { body: { data: { i }, options: { cas: 0 } } })));
      assert.equal(results.filter((r) => r.status === 200).length, 1);
      assert.equal(results.filter((r) => r.status === 400).length, 7);
      assert.equal((await client.read('secret/metadata/race')).data.current_version, 1);
    });

    it('reads back after a restart', async () => {
      await t.restart();
      client = nodeVault({ endpoint: t.url('secrets'), token: ROOT });
      assert.deepEqual((await client.read('secret/data/p')).data.data, { d: 4, nested: { b: 2 } });
      assert.deepEqual((await client.read('kv1/top')).data, { a: 'b' });
    });
  });
}
