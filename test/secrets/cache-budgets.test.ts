// The secrets store's memory caches take their budgets from the service settings; with budgets too small to keep
// anything, every answer is still right (the caches only save work).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseSettings } from '../../src/services/secrets/http/settings.ts';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { startSecrets, vault } from './helpers.ts';

describe('secrets cache budgets in the settings', () => {
  it('default, merge and refuse malformed budgets', () => {
    const defaults = parseSettings({});
    assert.deepEqual(defaults.aclCacheBudget, { entries: 1_000, bytes: 16 * 1024 * 1024 });
    assert.deepEqual(defaults.storageCacheBudget, { entries: 20_000, bytes: 64 * 1024 * 1024 });
    assert.deepEqual(parseSettings({ aclCacheBudget: { entries: 5 } }).aclCacheBudget, { entries: 5, bytes: 16 * 1024 * 1024 });
    assert.throws(() => parseSettings({ aclCacheBudget: { entries: 0 } }), /aclCacheBudget/);
  });
});

for (const database of DATABASES) {
  describe(`secrets with budgets too small to cache anything (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startSecrets(database, { storageCache: true, aclCacheBudget: { entries: 1, bytes: 1 }, storageCacheBudget: { entries: 1, bytes: 1 } });
    });
    after(async () => t.close());

    it('authorises by the current policies and reads the current values', async () => {
      const v = vault(t);
      assert.equal((await v('sys/policies/acl/reader', { method: 'PUT', body: { policy: 'path "secret/data/app" { capabilities = ["read"] }' } })).status, 204);
      assert.equal((await v('secret/data/app', { body: { data: { v: '1' } } })).status, 200);
      const token = (await v('auth/token/create', { body: { policies: ['reader'] } })).body.auth.client_token as string;
      assert.equal((await v('secret/data/app', { token })).body.data.data.v, '1');
      assert.equal((await v('secret/data/app', { body: { data: { v: '2' } } })).status, 200);
      assert.equal((await v('secret/data/app', { token })).body.data.data.v, '2');
      assert.equal((await v('sys/policies/acl/reader', { method: 'PUT', body: { policy: 'path "secret/data/other" { capabilities = ["read"] }' } })).status, 204);
      assert.equal((await v('secret/data/app', { token })).status, 403);
    });
  });
}
