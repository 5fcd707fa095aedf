// userpass and approle through raw HTTP, node-vault and hashi-vault-js; sys/auth enable, list, tune and disable.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Vault from 'hashi-vault-js';
import nodeVault from 'node-vault';
import type { TestRuntime } from '../helpers/runtime.ts';
import { advance, api, DATABASES, DENIED, ROOT_TOKEN, startSecrets, type Api } from './token-harness.ts';

for (const database of DATABASES) {
  describe(`auth methods (${database})`, () => {
    let t: TestRuntime;
    let v: Api;
    before(async () => {
      t = await startSecrets(database);
      v = api(t);
      await v('PUT', 'sys/policies/acl/reader', { body: { policy: 'path "secret/data/*" { capabilities = ["read"] }' } });
      await v('POST', 'secret/data/app', { body: { data: { password: 'hunter2' } } });
    });
    after(async () => t.close());

    it('enables, lists, tunes and disables auth methods (sudo needed)', async () => {
      let res = await v('POST', 'sys/auth/userpass', { body: { type: 'userpass', description: 'people' } });
      assert.equal(res.status, 204);
      res = await v('POST', 'sys/auth/approle', { body: { type: 'approle' } });
      assert.equal(res.status, 204);
      res = await v('GET', 'sys/auth');
      assert.deepEqual(Object.keys(res.body.data).sort(), ['approle/', 'token/', 'userpass/']);
      assert.equal(res.body['userpass/'].type, 'userpass', 'listing mirrored at the top level');
      assert.equal(res.body.data['userpass/'].description, 'people');
      assert.equal(res.body.data['token/'].config.token_type, 'default-service');
      res = await v('POST', 'sys/auth/userpass/tune', { body: { default_lease_ttl: '2h', max_lease_ttl: '4h' } });
      assert.equal(res.status, 204, res.text);
      res = await v('GET', 'sys/auth/userpass/tune');
      assert.equal(res.body.data.default_lease_ttl, 7200);
      assert.equal(res.body.data.max_lease_ttl, 14400);

      for (const [body, status] of [
        [{}, 400],
        [{ type: 'nosuch' }, 400],
        [{ type: 'userpass' }, 409],
        [{ type: 'userpass', config: 'x' }, 400],
      ] as const) {
        res = await v('POST', 'sys/auth/userpass', { body });
        assert.equal(res.status, status, JSON.stringify(body) + res.text);
        assert.equal(typeof res.body.errors[0], 'string');
      }
      res = await v('DELETE', 'sys/auth/token');
      assert.deepEqual(res.body.errors, ['token credential backend cannot be disabled']);
      const plain = (await v('POST', 'auth/token/create', { body: { policies: ['reader'] } })).body.auth.client_token;
      res = await v('POST', 'sys/auth/other', { token: plain, body: { type: 'userpass' } });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body.errors, [DENIED]);
      assert.deepEqual(Object.keys((await v('GET', 'sys/auth')).body.data).sort(), ['approle/', 'token/', 'userpass/'], 'nothing changed');
    });

    it('reads back every tuned setting of an auth method and of an engine, whichever tune path is asked', async () => {
      assert.equal((await v('POST', 'sys/auth/tuned', { body: { type: 'userpass' } })).status, 204);
      let res = await v('POST', 'sys/auth/tuned/tune', { body: { max_lease_ttl: '1h', listing_visibility: 'unauth', audit_non_hmac_request_keys: ['username'] } });
      assert.equal(res.status, 204, res.text);
      const expected = {
        default_lease_ttl: 2764800,
        max_lease_ttl: 3600,
        force_no_cache: false,
        description: '',
        options: null,
        listing_visibility: 'unauth',
        audit_non_hmac_request_keys: ['username'],
        token_type: 'default-service',
      };
      res = await v('GET', 'sys/auth/tuned/tune');
      assert.deepEqual(res.body.data, expected, 'an unset default reads as the system default, as in Vault');
      res = await v('GET', 'sys/mounts/auth/tuned/tune');
      assert.deepEqual(res.body.data, expected, 'the same answer through sys/mounts');
      res = await v('POST', 'sys/auth/tuned/tune', { body: { listing_visibility: 'sideways' } });
      assert.equal(res.status, 400);
      assert.equal((await v('GET', 'sys/auth/tuned/tune')).body.data.listing_visibility, 'unauth', 'a refused tune changes nothing');

      assert.equal((await v('POST', 'sys/mounts/secret/tune', { body: { listing_visibility: 'unauth', passthrough_request_headers: ['X-Trace'] } })).status, 204);
      res = await v('GET', 'sys/mounts');
      assert.deepEqual(res.body.data['secret/'].config, { default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false, listing_visibility: 'unauth', passthrough_request_headers: ['X-Trace'] });
      res = await v('GET', 'sys/mounts/secret/tune');
      assert.equal(res.body.data.token_type, undefined, 'token_type belongs to auth methods only');
      assert.deepEqual(res.body.data.passthrough_request_headers, ['X-Trace']);
      assert.equal((await v('DELETE', 'sys/auth/tuned')).status, 204);
    });

    it('logs in with userpass over raw HTTP without a token', async () => {
      assert.equal((await v('POST', 'auth/userpass/users/Bob', { body: { password: 'pw1', token_policies: 'reader', token_ttl: '1h' } })).status, 204);
      let res = await v('GET', 'auth/userpass/users/bob');
      assert.deepEqual(res.body.data.token_policies, ['reader']);
      assert.equal(res.body.data.password, undefined, 'the password is never shown');
      assert.equal(res.body.data.token_ttl, 3600);
      res = await v('POST', 'auth/userpass/login/bob', { token: null, body: { password: 'pw1' } });
      assert.equal(res.status, 200);
      const auth = res.body.auth;
      assert.deepEqual(auth.policies, ['default', 'reader']);
      assert.deepEqual(auth.metadata, { username: 'bob' });
      assert.equal(auth.orphan, true);
      assert.equal(auth.lease_duration, 3600);
      assert.equal((await v('GET', 'secret/data/app', { token: auth.client_token })).status, 200);
      const look = await v('GET', 'auth/token/lookup-self', { token: auth.client_token });
      assert.equal(look.body.data.path, 'auth/userpass/login/bob');
      assert.equal(look.body.data.display_name, 'userpass-bob');

      for (const body of [{ password: 'wrong' }, { password: '' }, {}]) {
        res = await v('POST', 'auth/userpass/login/bob', { token: null, body });
        assert.equal(res.status, 400);
      }
      res = await v('POST', 'auth/userpass/login/bob', { token: null, body: { password: 'wrong' } });
      assert.deepEqual(res.body.errors, ['invalid username or password']);
      res = await v('POST', 'auth/userpass/login/nobody', { token: null, body: { password: 'pw1' } });
      assert.deepEqual(res.body.errors, ['invalid username or password']);

      assert.equal((await v('POST', 'auth/userpass/users/bob/password', { body: { password: 'pw2' } })).status, 204);
      assert.equal((await v('POST', 'auth/userpass/login/bob', { token: null, body: { password: 'pw1' } })).status, 400);
      assert.equal((await v('POST', 'auth/userpass/login/bob', { token: null, body: { password: 'pw2' } })).status, 200);
      await v('POST', 'auth/userpass/users/batchy', { body: { password: 'pw', token_type: 'batch', token_policies: 'reader' } });
      res = await v('POST', 'auth/userpass/login/batchy', { token: null, body: { password: 'pw' } });
      assert.equal(res.body.auth.token_type, 'batch');
      assert.match(res.body.auth.client_token, /^hvb\./);
      assert.equal((await v('GET', 'secret/data/app', { token: res.body.auth.client_token })).status, 200);
      res = await v('POST', 'auth/userpass/users/-bad', { body: { password: 'x' } });
      assert.equal(res.status, 400);
      res = await v('POST', 'auth/userpass/users/carol', { body: { token_ttl: 'forever', password: 'x' } });
      assert.equal(res.status, 400);
      assert.equal((await v('GET', 'auth/userpass/users/carol')).status, 404, 'a rejected create stores nothing');
      assert.deepEqual((await v('LIST', 'auth/userpass/users')).body.data.keys, ['batchy', 'bob']);
    });

    it('caps login tokens by the mount and expires them with the clock', async () => {
      await v('POST', 'auth/userpass/users/dave', { body: { password: 'pw', token_ttl: '10h' } });
      const res = await v('POST', 'auth/userpass/login/dave', { token: null, body: { password: 'pw' } });
      assert.equal(res.body.auth.lease_duration, 14400, 'capped at the tuned max_lease_ttl');
      const tok = res.body.auth.client_token;
      await advance(t, '3h');
      assert.equal((await v('POST', 'auth/token/renew-self', { token: tok, body: { increment: '5h' } })).body.auth.lease_duration, 3600);
      await advance(t, '61m');
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: tok })).status, 403);
    });

    it('works with node-vault and hashi-vault-js for userpass', async () => {
      const client = nodeVault({ endpoint: t.url('secrets'), token: ROOT_TOKEN });
      await client.write('auth/userpass/users/erin', { password: 'pw', policies: 'reader, default' });
      const login = await client.userpassLogin({ username: 'erin', password: 'pw' });
      assert.deepEqual(login.auth.policies, ['default', 'reader']);
      const secret = await client.read('secret/data/app');
      assert.equal(secret.data.data.password, 'hunter2');
      await assert.rejects(client.userpassLogin({ username: 'erin', password: 'no' }), /invalid username or password/);

      const hv = new Vault({ baseUrl: `${t.url('secrets')}/v1`, timeout: 5000 });
      await hv.createUserpassUser(ROOT_TOKEN, 'frank', 'pw', ['reader']);
      const auth = (await hv.loginWithUserpass('frank', 'pw')) as any;
      assert.deepEqual(auth.policies, ['default', 'reader']);
      const self = (await hv.lookupSelfToken(auth.client_token)) as any;
      assert.equal(self.display_name, 'userpass-frank');
    });

    it('logs in with approle: role id, secret ids, uses and TTLs', async () => {
      let res = await v('POST', 'auth/approle/role/Ci', { body: { token_policies: ['reader'], secret_id_num_uses: 2, secret_id_ttl: '1h', token_ttl: '20m' } });
      assert.equal(res.status, 204);
      const roleId = (await v('GET', 'auth/approle/role/ci/role-id')).body.data.role_id;
      assert.match(roleId, /^[0-9a-f-]{36}$/);
      res = await v('POST', 'auth/approle/role/ci/secret-id', { body: { metadata: '{"env":"test"}' } });
      assert.equal(res.status, 200);
      const { secret_id: secretId, secret_id_accessor: accessor, secret_id_num_uses, secret_id_ttl } = res.body.data;
      assert.equal(secret_id_num_uses, 2);
      assert.equal(secret_id_ttl, 3600);
      assert.deepEqual((await v('LIST', 'auth/approle/role/ci/secret-id')).body.data.keys, [accessor]);

      res = await v('POST', 'auth/approle/login', { token: null, body: { role_id: roleId, secret_id: secretId } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.auth.metadata, { env: 'test', role_name: 'ci' });
      assert.equal(res.body.auth.lease_duration, 1200);
      assert.deepEqual(res.body.auth.policies, ['default', 'reader']);
      res = await v('POST', 'auth/approle/role/ci/secret-id-accessor/lookup', { body: { secret_id_accessor: accessor } });
      assert.equal(res.body.data.secret_id_num_uses, 1);
      assert.equal((await v('POST', 'auth/approle/login', { token: null, body: { role_id: roleId, secret_id: secretId } })).status, 200);
      res = await v('POST', 'auth/approle/login', { token: null, body: { role_id: roleId, secret_id: secretId } });
      assert.equal(res.status, 400, 'two uses spent');
      assert.deepEqual(res.body.errors, ['invalid role or secret ID']);

      const second = (await v('POST', 'auth/approle/role/ci/secret-id', { body: {} })).body.data.secret_id;
      await advance(t, '61m');
      res = await v('POST', 'auth/approle/login', { token: null, body: { role_id: roleId, secret_id: second } });
      assert.deepEqual(res.body.errors, ['invalid role or secret ID'], 'expired secret id');

      for (const [body, error] of [
        [{}, 'missing role_id'],
        [{ role_id: roleId }, 'missing secret_id'],
        [{ role_id: 'nope', secret_id: 'x' }, 'invalid role or secret ID'],
      ] as const) {
        res = await v('POST', 'auth/approle/login', { token: null, body });
        assert.equal(res.status, 400);
        assert.deepEqual(res.body.errors, [error]);
      }
      res = await v('POST', 'auth/approle/role/ci', { body: { secret_id_num_uses: -1 } });
      assert.equal(res.status, 400);
      assert.equal((await v('GET', 'auth/approle/role/ci')).body.data.secret_id_num_uses, 2, 'unchanged after a rejected write');
      res = await v('POST', 'auth/approle/role/ci/secret-id', { body: { metadata: 'not json' } });
      assert.equal(res.status, 400);
      assert.equal((await v('POST', 'auth/approle/role/missing/secret-id', { body: {} })).status, 400);
    });

    it('reads, sets and resets approle settings through their own paths', async () => {
      await v('POST', 'auth/approle/role/fields', { body: { token_policies: 'a' } });
      assert.equal((await v('POST', 'auth/approle/role/fields/policies', { body: { policies: 'b, c' } })).status, 204);
      assert.deepEqual((await v('GET', 'auth/approle/role/fields/policies')).body.data, { token_policies: ['b', 'c'] });
      assert.equal((await v('POST', 'auth/approle/role/fields/token-ttl', { body: { token_ttl: '5m' } })).status, 204);
      assert.equal((await v('GET', 'auth/approle/role/fields')).body.data.token_ttl, 300);
      assert.equal((await v('DELETE', 'auth/approle/role/fields/token-ttl')).status, 204);
      assert.equal((await v('GET', 'auth/approle/role/fields/token-ttl')).body.data.token_ttl, 0);
      let res = await v('POST', 'auth/approle/role/fields/secret-id-num-uses', { body: {} });
      assert.deepEqual(res.body.errors, ['missing secret_id_num_uses']);
      res = await v('POST', 'auth/approle/role/ghost/token-ttl', { body: { token_ttl: 5 } });
      assert.equal(res.status, 400);
      assert.equal((await v('GET', 'auth/approle/role/ghost')).status, 404, 'a field write does not create a role');
      const roleId = (await v('GET', 'auth/approle/role/fields/role-id')).body.data.role_id;
      assert.equal((await v('POST', 'auth/approle/role/fields/role-id', { body: { role_id: 'my-own-id' } })).status, 204);
      const secretId = (await v('POST', 'auth/approle/role/fields/secret-id', { body: {} })).body.data.secret_id;
      assert.equal((await v('POST', 'auth/approle/login', { token: null, body: { role_id: roleId, secret_id: secretId } })).status, 400);
      assert.equal((await v('POST', 'auth/approle/login', { token: null, body: { role_id: 'my-own-id', secret_id: secretId } })).status, 200);
    });

    it('works with node-vault and hashi-vault-js for approle', async () => {
      const client = nodeVault({ endpoint: t.url('secrets'), token: ROOT_TOKEN });
      await client.addApproleRole({ role_name: 'svc', policies: 'reader' });
      const roles = await client.approleRoles();
      assert.ok(roles.data.keys.includes('svc'));
      const roleId = (await client.getApproleRoleId({ role_name: 'svc' })).data.role_id;
      const secretId = (await client.getApproleRoleSecret({ role_name: 'svc' })).data.secret_id;
      const login = await client.approleLogin({ role_id: roleId, secret_id: secretId });
      assert.deepEqual(login.auth.metadata, { role_name: 'svc' });

      const hv = new Vault({ baseUrl: `${t.url('secrets')}/v1`, timeout: 5000 });
      const generated = (await hv.generateAppRoleSecretId(ROOT_TOKEN, 'svc')) as any;
      const auth = (await hv.loginWithAppRole(roleId, generated.secret_id)) as any;
      assert.deepEqual(auth.policies, ['default', 'reader']);
      client.token = ROOT_TOKEN; // node-vault switched to the login token
      await client.deleteApproleRole({ role_name: 'svc' });
      await assert.rejects(async () => hv.loginWithAppRole(roleId, generated.secret_id));
    });

    it('enforces CIDR bindings on logins and tokens', async () => {
      await v('POST', 'auth/userpass/users/far', { body: { password: 'pw', token_bound_cidrs: '10.0.0.0/8' } });
      let res = await v('POST', 'auth/userpass/login/far', { token: null, body: { password: 'pw' } });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body.errors, [DENIED]);
      await v('POST', 'auth/userpass/users/near', { body: { password: 'pw', token_bound_cidrs: ['127.0.0.1/32', '::1'] } });
      res = await v('POST', 'auth/userpass/login/near', { token: null, body: { password: 'pw' } });
      assert.equal(res.status, 200);
      const look = await v('GET', 'auth/token/lookup-self', { token: res.body.auth.client_token });
      assert.deepEqual(look.body.data.bound_cidrs, ['127.0.0.1/32', '::1']);
      res = await v('POST', 'auth/userpass/users/bad', { body: { password: 'pw', token_bound_cidrs: '10.0.0.0/40' } });
      assert.equal(res.status, 400);
      assert.match(res.body.errors[0], /invalid CIDR in token_bound_cidrs/);

      await v('POST', 'auth/approle/role/fenced', { body: { secret_id_bound_cidrs: '10.0.0.0/8' } });
      const roleId = (await v('GET', 'auth/approle/role/fenced/role-id')).body.data.role_id;
      const secretId = (await v('POST', 'auth/approle/role/fenced/secret-id', { body: {} })).body.data.secret_id;
      res = await v('POST', 'auth/approle/login', { token: null, body: { role_id: roleId, secret_id: secretId } });
      assert.equal(res.status, 400);
      assert.match(res.body.errors[0], /unauthorized through CIDR restrictions on the role/);
      res = await v('POST', 'auth/approle/role/fenced/secret-id', { body: { cidr_list: 'nonsense' } });
      assert.equal(res.status, 400);
    });

    it('keeps auth methods and their users per namespace', async () => {
      assert.equal((await v('POST', 'sys/namespaces/org')).status, 200);
      assert.equal((await v('POST', 'sys/auth/userpass', { namespace: 'org', body: { type: 'userpass' } })).status, 204);
      assert.equal((await v('POST', 'auth/userpass/users/olga', { namespace: 'org', body: { password: 'pw' } })).status, 204);
      assert.equal((await v('POST', 'auth/userpass/login/olga', { token: null, body: { password: 'pw' } })).status, 400, 'not a root-namespace user');
      const res = await v('POST', 'org/auth/userpass/login/olga', { token: null, body: { password: 'pw' } });
      assert.equal(res.status, 200, res.text);
      const tok = res.body.auth.client_token;
      assert.match(tok, /^hvs\.[^.]+\.[^.]+$/);
      const look = await v('GET', 'auth/token/lookup-self', { token: tok, namespace: 'org' });
      assert.equal(look.body.data.namespace_path, 'org/');
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: tok })).status, 403, 'not usable above its namespace');
      assert.deepEqual(Object.keys((await v('GET', 'sys/auth', { namespace: 'org' })).body.data).sort(), ['token/', 'userpass/']);
    });

    it('revokes the tokens of a disabled method', async () => {
      await v('POST', 'sys/auth/temp', { body: { type: 'userpass' } });
      await v('POST', 'auth/temp/users/gus', { body: { password: 'pw' } });
      const tok = (await v('POST', 'auth/temp/login/gus', { token: null, body: { password: 'pw' } })).body.auth.client_token;
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: tok })).status, 200);
      assert.equal((await v('DELETE', 'sys/auth/temp')).status, 204);
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: tok })).status, 403);
      assert.equal((await v('POST', 'auth/temp/login/gus', { token: null, body: { password: 'pw' } })).status, 403);
    });
  });
}
