// KV v2 metadata writes and the version window as Vault's engine keeps them: a write without fields, the cas_required
// warning, max_versions applied at the next data write, and oldest_version. Driven through HTTP and node-vault.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodeVault from 'node-vault';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { ROOT, startSecrets, vault } from './helpers.ts';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };
const CAS_WARNING = "cas_required is false for this key, but the engine's configuration requires check-and-set, so it still applies";

for (const database of DATABASES) {
  describe(`secrets KV v2 metadata writes (${database})`, () => {
    let t: TestRuntime;
    let v: ReturnType<typeof vault>;
    let client: ReturnType<typeof nodeVault>;
    const metadata = async (path: string) => (await client.read(`secret/metadata/${path}`)).data;
    const writeVersions = async (path: string, count: number) => {
      for (let i = 0; i < count; i++) await client.write(`secret/data/${path}`, { data: { i } });
    };
    before(async () => {
      t = await startSecrets(database);
      v = vault(t);
      client = nodeVault({ endpoint: t.url('secrets'), token: ROOT });
    });
    after(async () => t.close());

    it('a write without any metadata field answers 204 and creates no key', async () => {
      assert.equal((await v('secret/metadata/nothing', { body: {} })).status, 204);
      assert.equal((await v('secret/metadata/nothing', { method: 'PUT', body: { unknown: 'x' } })).status, 204);
      assert.deepEqual((await v('secret/metadata/nothing')).body, { errors: [] });
      assert.equal((await v('secret/metadata/nothing')).status, 404);
      assert.equal((await v('secret/data/nothing', { body: { data: { a: 1 }, options: { cas: 0 } } })).status, 200, 'still new');

      // On an existing key the same write changes nothing.
      const before = await metadata('nothing');
      assert.equal((await v('secret/metadata/nothing', { body: {} })).status, 204);
      assert.deepEqual(await metadata('nothing'), before);
    });

    it('leaves updated_time alone on a metadata write or patch of an existing key, as Vault does', async () => {
      await client.write('secret/data/stamped', { data: { a: 1 } });
      const written = await metadata('stamped');
      // The system clock moves on before the settings change.
      await new Promise((r) => setTimeout(r, 5));
      assert.equal((await v('secret/metadata/stamped', { body: { max_versions: 4, custom_metadata: { team: 'a' } } })).status, 204);
      assert.equal((await v('secret/metadata/stamped', { method: 'PATCH', body: { cas_required: true }, headers: MERGE_PATCH })).status, 204);
      const changed = await metadata('stamped');
      assert.deepEqual([changed.max_versions, changed.cas_required, changed.custom_metadata], [4, true, { team: 'a' }]);
      assert.deepEqual([changed.updated_time, changed.created_time], [written.updated_time, written.created_time]);
      // A key made by a metadata write is stamped with that moment.
      assert.equal((await v('secret/metadata/stamped-new', { body: { max_versions: 2 } })).status, 204);
      const made = await metadata('stamped-new');
      assert.equal(made.updated_time, made.created_time);
    });

    it('warns when cas_required is set false on a key while the engine requires check-and-set', async () => {
      assert.equal((await v('sys/mounts/kv-cas', { body: { type: 'kv', options: { version: '2' } } })).status, 204);
      await client.write('kv-cas/config', { cas_required: true });

      let res = await v('kv-cas/metadata/app', { body: { cas_required: false, max_versions: 3 } });
      assert.deepEqual([res.status, res.body.warnings, res.body.data], [200, [CAS_WARNING], null]);
      const stored = (await client.read('kv-cas/metadata/app')).data;
      assert.deepEqual([stored.cas_required, stored.max_versions], [false, 3], 'the key setting is kept');
      res = await v('kv-cas/data/app', { body: { data: { a: 1 } } });
      assert.deepEqual([res.status, res.body], [400, { errors: ['check-and-set parameter required for this call'] }]);

      res = await v('kv-cas/metadata/app', { method: 'PATCH', body: { cas_required: false }, headers: MERGE_PATCH });
      assert.deepEqual([res.status, res.body.warnings], [200, [CAS_WARNING]]);
      assert.equal((await v('kv-cas/metadata/app', { body: { cas_required: true } })).status, 204, 'true is no conflict');
      assert.equal((await v('secret/metadata/app', { body: { cas_required: false } })).status, 204, 'no warning where the engine does not require it');
    });

    it('a lower max_versions keeps the versions until the next data write trims them', async () => {
      await writeVersions('window', 4);
      assert.equal((await v('secret/metadata/window', { body: { max_versions: 2 } })).status, 204);
      let meta = await metadata('window');
      assert.deepEqual([Object.keys(meta.versions), meta.oldest_version, meta.current_version], [['1', '2', '3', '4'], 0, 4]);
      assert.deepEqual((await client.read('secret/data/window?version=1')).data.data, { i: 0 }, 'still readable');

      await writeVersions('window', 1);
      meta = await metadata('window');
      assert.deepEqual([Object.keys(meta.versions), meta.oldest_version, meta.current_version], [['4', '5'], 4, 5]);
      assert.equal((await v('secret/data/window?version=3')).status, 404);
    });

    it('oldest_version moves as soon as the versions fill max_versions, and destroyed versions count', async () => {
      await client.write('secret/metadata/oldest', { max_versions: 2 });
      await writeVersions('oldest', 1);
      assert.equal((await metadata('oldest')).oldest_version, 0);
      await writeVersions('oldest', 1);
      let meta = await metadata('oldest');
      assert.deepEqual([Object.keys(meta.versions), meta.oldest_version], [['1', '2'], 1]);

      await client.write('secret/destroy/oldest', { versions: [2] });
      assert.equal((await v('secret/delete/oldest', { body: { versions: [1] } })).status, 204);
      await writeVersions('oldest', 1);
      meta = await metadata('oldest');
      assert.deepEqual([Object.keys(meta.versions), meta.oldest_version, meta.versions['2'].destroyed], [['2', '3'], 2, true]);

      // The engine's default of 10 versions behaves the same.
      await writeVersions('ten', 10);
      meta = await metadata('ten');
      assert.deepEqual([Object.keys(meta.versions).length, meta.oldest_version], [10, 1]);
    });

    it('keeps the greater of the key\'s and the engine\'s max_versions', async () => {
      assert.equal((await v('sys/mounts/kv-max', { body: { type: 'kv', options: { version: '2' } } })).status, 204);
      await client.write('kv-max/config', { max_versions: 3 });
      const kept = async (path: string) => Object.keys((await client.read(`kv-max/metadata/${path}`)).data.versions).map(Number);
      await client.write('kv-max/metadata/lower', { max_versions: 2 });
      await client.write('kv-max/metadata/higher', { max_versions: 5 });
      for (let i = 0; i < 6; i++) {
        for (const path of ['lower', 'higher', 'unset']) await client.write(`kv-max/data/${path}`, { data: { i } });
      }
      assert.deepEqual(await kept('lower'), [4, 5, 6], 'the engine keeps more than the key asks');
      assert.deepEqual(await kept('higher'), [2, 3, 4, 5, 6]);
      assert.deepEqual(await kept('unset'), [4, 5, 6]);
    });
  });
}
