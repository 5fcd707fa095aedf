// KV v2 custom_metadata: Vault's weak decoding of values to strings, its limits and error text, and removal of single
// keys by PATCH with null.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodeVault from 'node-vault';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { ROOT, startSecrets, vault } from './helpers.ts';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

for (const database of DATABASES) {
  describe(`secrets KV v2 custom_metadata (${database})`, () => {
    let t: TestRuntime;
    let v: ReturnType<typeof vault>;
    let client: ReturnType<typeof nodeVault>;
    before(async () => {
      t = await startSecrets(database);
      v = vault(t);
      client = nodeVault({ endpoint: t.url('secrets'), token: ROOT });
    });
    after(async () => t.close());

    it('refuses empty values and too long keys in one multierror message, changing nothing', async () => {
      await client.write('secret/metadata/limits', { custom_metadata: { owner: 'ops' } });
      const long = 'k'.repeat(129);
      const res = await v('secret/metadata/limits', { body: { custom_metadata: { owner: '', [long]: 'x' } } });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, {
        errors: [
          '2 errors occurred:\n' +
            '\t* custom_metadata validation failed: length of value for key "owner" is 0 but must be 0 < len(value) <= 512\n' +
            `\t* custom_metadata validation failed: length of key "${long}" is 129 but must be 0 < len(key) <= 128\n\n`,
        ],
      });
      assert.deepEqual((await client.read('secret/metadata/limits')).data.custom_metadata, { owner: 'ops' });
    });

    it('stops at the key count when there are more than 64 keys', async () => {
      const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, '']));
      const res = await v('secret/metadata/many', { body: { custom_metadata: many } });
      assert.deepEqual([res.status, res.body], [400, { errors: ['1 error occurred:\n\t* custom_metadata validation failed: payload must contain at most 64 keys, provided 65\n\n'] }]);
      assert.equal((await v('secret/metadata/many')).status, 404, 'no key was created');
    });

    it('refuses unprintable characters', async () => {
      const res = await v('secret/metadata/odd', { body: { custom_metadata: { team: 'a\nb' } } });
      assert.deepEqual([res.status, res.body], [400, { errors: ['1 error occurred:\n\t* custom_metadata validation failed: value for key "team" contains unprintable characters\n\n'] }]);
    });

    it('keeps numbers and booleans as strings, as Vault decodes the map weakly', async () => {
      const res = await v('secret/metadata/typed', { body: { custom_metadata: { n: 5, ratio: 1.5, on: true, off: false, owner: 'ops' } } });
      assert.equal(res.status, 204);
      assert.deepEqual((await client.read('secret/metadata/typed')).data.custom_metadata, { n: '5', ratio: '1.5', on: '1', off: '0', owner: 'ops' });

      const patched = await v('secret/metadata/typed', { method: 'PATCH', body: { custom_metadata: { n: 6, on: null } }, headers: MERGE_PATCH });
      assert.equal(patched.status, 204);
      assert.deepEqual((await client.read('secret/metadata/typed')).data.custom_metadata, { n: '6', ratio: '1.5', off: '0', owner: 'ops' });
    });

    it('refuses a list or a map as a value, and null on a write, changing nothing', async () => {
      await client.write('secret/metadata/nested', { custom_metadata: { owner: 'ops' } });
      let res = await v('secret/metadata/nested', { body: { custom_metadata: { owner: 'dev', tags: ['a', 'b'] } } });
      assert.deepEqual([res.status, res.body], [400, { errors: ['custom_metadata validation failed: value for key "tags" is not a string, a number or a boolean'] }]);
      res = await v('secret/metadata/nested', { body: { custom_metadata: { owner: { team: 'dev' } } } });
      assert.deepEqual([res.status, res.body], [400, { errors: ['custom_metadata validation failed: value for key "owner" is not a string, a number or a boolean'] }]);
      // A null value is decoded as an empty string on a write, which the length rule then refuses.
      res = await v('secret/metadata/nested', { body: { custom_metadata: { owner: null } } });
      assert.deepEqual([res.status, res.body], [400, { errors: ['1 error occurred:\n\t* custom_metadata validation failed: length of value for key "owner" is 0 but must be 0 < len(value) <= 512\n\n'] }]);
      assert.deepEqual((await client.read('secret/metadata/nested')).data.custom_metadata, { owner: 'ops' });
    });

    it('PATCH with a null value removes that key and keeps the others', async () => {
      await client.write('secret/metadata/patched', { custom_metadata: { owner: 'ops', team: 'core' } });
      const res = await v('secret/metadata/patched', { method: 'PATCH', body: { custom_metadata: { owner: null, tier: 'gold' } }, headers: MERGE_PATCH });
      assert.equal(res.status, 204);
      assert.deepEqual((await client.read('secret/metadata/patched')).data.custom_metadata, { team: 'core', tier: 'gold' });
    });
  });
}
