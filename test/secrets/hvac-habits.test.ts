// Requests exactly as hvac (the Python Vault client) sends them: unused optional arguments as JSON null, which Vault
// reads as absent on every route, and token TTLs that must come back as requested (ttl "1h" is 3600, not 3599).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { ROOT, startSecrets } from './helpers.ts';

/** hvac's adapter: X-Vault-Token and X-Vault-Request on every call, bodies through requests' `json=`. */
function hvac(t: TestRuntime, token = ROOT) {
  return (method: string, path: string, json?: unknown) =>
    call(`${t.url('secrets')}/v1/${path}`, {
      method,
      ...(json === undefined ? {} : { raw: JSON.stringify(json) }),
      headers: { 'x-vault-token': token, 'x-vault-request': 'true', ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    });
}

for (const database of DATABASES) {
  describe(`hvac's requests (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startSecrets(database);
    });
    after(async () => t.close());

    it('sys.enable_secrets_engine with null description, config and plugin_name mounts the engine', async () => {
      const client = hvac(t);
      const res = await client('POST', 'sys/mounts/hvac-kv', {
        type: 'kv',
        description: null,
        config: null,
        options: { version: '1' },
        plugin_name: null,
        local: false,
        seal_wrap: false,
      });
      assert.equal(res.status, 204, res.text);
      const mounts = await client('GET', 'sys/mounts');
      const mount = mounts.body.data['hvac-kv/'];
      assert.equal(mount.type, 'kv');
      assert.equal(mount.description, '');
      assert.deepEqual(mount.options, { version: '1' });
    });

    it('sys.enable_auth_method with nulls, then a token created with every unused argument null', async () => {
      const client = hvac(t);
      const auth = await client('POST', 'sys/auth/hvac-userpass', { type: 'userpass', description: null, config: null, plugin_name: null, local: false });
      assert.equal(auth.status, 204, auth.text);
      const created = await client('POST', 'auth/token/create', {
        id: null,
        role_name: null,
        policies: null,
        meta: null,
        no_parent: null,
        no_default_policy: null,
        renewable: null,
        ttl: '1h',
        type: null,
        explicit_max_ttl: null,
        display_name: 'token',
        num_uses: null,
        period: null,
        entity_alias: null,
      });
      assert.equal(created.status, 200, created.text);
      assert.equal(created.body.auth.lease_duration, 3600);
      assert.equal(created.body.auth.renewable, true);
    });

    it('token TTLs come back exactly as requested: create ttl "1h" is 3600, a renew by "2h" is 7200', async () => {
      const client = hvac(t);
      for (let i = 0; i < 5; i++) {
        const created = await client('POST', 'auth/token/create', { ttl: '1h' });
        assert.equal(created.body.auth.lease_duration, 3600, created.text);
        const token = created.body.auth.client_token as string;
        const renewed = await client('POST', 'auth/token/renew', { token, increment: '2h' });
        assert.equal(renewed.status, 200, renewed.text);
        assert.equal(renewed.body.auth.lease_duration, 7200);
        const self = await hvac(t, token)('POST', 'auth/token/renew-self', { increment: '2h' });
        assert.equal(self.body.auth.lease_duration, 7200, self.text);
      }
    });

    it('paths that store the body as data keep null values (KV version 1)', async () => {
      const client = hvac(t);
      await client('POST', 'sys/mounts/kv-one', { type: 'kv', options: { version: '1' } });
      assert.equal((await client('POST', 'kv-one/app', { a: null, b: 'x' })).status, 204);
      const read = await client('GET', 'kv-one/app');
      assert.deepEqual(read.body.data, { a: null, b: 'x' });
    });
  });
}
