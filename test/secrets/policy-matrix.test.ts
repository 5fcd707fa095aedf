// ACL policies through HTTP: the policy endpoints (both forms, node-vault's legacy calls), a matrix of paths by
// operations allowed and denied, create-vs-update from the existence check, sudo paths, capabilities-self, and
// policies scoped per namespace.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodeVault from 'node-vault';
import type { TestRuntime } from '../helpers/runtime.ts';
import { api, DATABASES, DENIED, ROOT_TOKEN, startSecrets, type Api } from './token-harness.ts';

const APP_POLICY = `
path "secret/data/app/*" { capabilities = ["read"] }
path "secret/data/app/rw" { capabilities = ["create", "read", "update", "delete"] }
path "secret/data/+/shared" { capabilities = ["read", "update"] }
path "secret/data/app/deny*" { capabilities = ["deny"] }
path "secret/data/once/*" { capabilities = ["create"] }
path "secret/metadata/" { capabilities = ["list"] }
path "secret/metadata/app/*" { capabilities = ["list", "read"] }
path "sys/mounts" { capabilities = ["read"] }
path "sys/auth/*" { capabilities = ["create", "update", "read"] }
path "sys/policies/acl/*" { capabilities = ["read"] }
`;

for (const database of DATABASES) {
  describe(`ACL policies (${database})`, () => {
    let t: TestRuntime;
    let v: Api;
    let app: string;
    before(async () => {
      t = await startSecrets(database);
      v = api(t);
      assert.equal((await v('PUT', 'sys/policies/acl/app', { body: { policy: APP_POLICY } })).status, 204);
      const res = await v('POST', 'auth/token/create', { body: { policies: ['app'] } });
      app = res.body.auth.client_token;
      for (const key of ['app/rw', 'app/ro', 'team/shared', 'app/deny-me', 'other/x']) {
        assert.equal((await v('POST', `secret/data/${key}`, { body: { data: { v: key } } })).status, 200);
      }
    });
    after(async () => t.close());

    it('allows and denies a matrix of paths by operations', async () => {
      const cases: Array<[string, string, unknown, number]> = [
        ['GET', 'secret/data/app/ro', undefined, 200],
        ['POST', 'secret/data/app/ro', { data: { a: 1 } }, 403],
        ['DELETE', 'secret/data/app/ro', undefined, 403],
        ['GET', 'secret/data/app/missing', undefined, 404],
        ['GET', 'secret/data/app/rw', undefined, 200],
        ['POST', 'secret/data/app/rw', { data: { a: 2 } }, 200],
        ['DELETE', 'secret/data/app/rw', undefined, 204],
        ['GET', 'secret/data/team/shared', undefined, 200],
        ['POST', 'secret/data/team/shared', { data: { b: 1 } }, 200],
        ['GET', 'secret/data/team/x/shared', undefined, 403],
        ['GET', 'secret/data/app/deny-me', undefined, 403],
        ['GET', 'secret/data/other/x', undefined, 403],
        ['LIST', 'secret/metadata', undefined, 200],
        ['LIST', 'secret/metadata/app', undefined, 200],
        ['LIST', 'secret/metadata/team', undefined, 403],
        ['GET', 'secret/metadata/app/ro', undefined, 200],
        ['GET', 'sys/mounts', undefined, 200],
        ['POST', 'sys/mounts/kv2', { type: 'kv' }, 403],
        ['POST', 'sys/auth/up', { type: 'userpass' }, 403],
        ['GET', 'sys/policies/acl/app', undefined, 200],
        ['PUT', 'sys/policies/acl/app', { policy: 'path "x" { capabilities = ["read"] }' }, 403],
        ['GET', 'nowhere/at/all', undefined, 403],
        ['GET', 'cubbyhole/mine', undefined, 404],
      ];
      for (const [method, path, body, status] of cases) {
        const res = await v(method, path, { token: app, body });
        assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
        if (status === 403) assert.deepEqual(res.body, { errors: [DENIED] });
      }
      assert.equal((await v('GET', 'secret/data/app/ro')).body.data.data.v, 'app/ro', 'a denied write changed nothing');
    });

    it('lets any capability under a mount read its ui mount entry (how `vault kv` finds the version)', async () => {
      let res = await v('GET', 'sys/internal/ui/mounts/secret/app/rw', { token: app });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.path, 'secret/');
      assert.equal(res.body.data.options.version, '2');
      const plain = (await v('POST', 'auth/token/create', { body: { policies: ['default'] } })).body.auth.client_token;
      res = await v('GET', 'sys/internal/ui/mounts/secret', { token: plain });
      assert.equal(res.status, 403);
    });

    it('decides create or update from what exists', async () => {
      assert.equal((await v('POST', 'secret/data/once/a', { token: app, body: { data: { x: 1 } } })).status, 200);
      assert.equal((await v('POST', 'secret/data/once/a', { token: app, body: { data: { x: 2 } } })).status, 403);
    });

    it('reports capabilities for the token itself, another token and an accessor', async () => {
      let res = await v('POST', 'sys/capabilities-self', { token: app, body: { paths: ['secret/data/app/rw', 'secret/data/app/deny-x', 'secret/data/team/shared', 'elsewhere'] } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data['secret/data/app/rw'], ['create', 'delete', 'read', 'update']);
      assert.deepEqual(res.body.data['secret/data/app/deny-x'], ['deny']);
      assert.deepEqual(res.body.data['secret/data/team/shared'], ['read', 'update']);
      assert.deepEqual(res.body['elsewhere'], ['deny'], 'copied to the top level');
      res = await v('POST', 'sys/capabilities-self', { body: { path: 'anything' } });
      assert.deepEqual(res.body.data.capabilities, ['root']);
      res = await v('POST', 'sys/capabilities', { body: { token: app, paths: ['secret/data/app/ro'] } });
      assert.deepEqual(res.body.data.capabilities, ['read']);
      const accessor = (await v('GET', 'auth/token/lookup-self', { token: app })).body.data.accessor;
      res = await v('POST', 'sys/capabilities-accessor', { body: { accessor, paths: 'sys/mounts' } });
      assert.deepEqual(res.body.data.capabilities, ['read']);
      res = await v('POST', 'sys/capabilities-self', { token: app, body: {} });
      assert.equal(res.status, 400);
      res = await v('POST', 'sys/capabilities', { token: app, body: { token: ROOT_TOKEN, paths: ['x'] } });
      assert.equal(res.status, 403, 'asking about other tokens needs its own grant');
    });

    it('manages policies in both forms and refuses bad ones without changing anything', async () => {
      let res = await v('PUT', 'sys/policy/Ops', { body: { rules: '{"path":{"ops/*":{"policy":"write"}}}' } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.warnings, ['policy name was converted to ops', "'rules' is deprecated, please use 'policy' instead"]);
      res = await v('GET', 'sys/policy/ops');
      assert.equal(res.body.rules, '{"path":{"ops/*":{"policy":"write"}}}');
      res = await v('GET', 'sys/policy');
      assert.deepEqual(res.body.policies, ['app', 'default', 'ops', 'root']);
      assert.deepEqual(res.body.data.keys, res.body.policies);
      const encoded = Buffer.from('path "b64/*" { capabilities = ["list"] }').toString('base64');
      assert.equal((await v('PUT', 'sys/policies/acl/b64', { body: { policy: encoded } })).status, 204);
      assert.equal((await v('GET', 'sys/policies/acl/b64')).body.data.policy, 'path "b64/*" { capabilities = ["list"] }');
      res = await v('LIST', 'sys/policies/acl');
      assert.deepEqual(res.body.data.keys, ['app', 'b64', 'default', 'ops', 'root']);
      assert.deepEqual(res.body.data.policies, res.body.data.keys);

      for (const [path, body, status, error] of [
        ['sys/policies/acl/app', { policy: 'path "x" { capabilities = ["fly"] }' }, 400, /^failed to parse policy: .*invalid capability "fly"/],
        ['sys/policies/acl/app', { policy: 'path "x" {' }, 400, /^failed to parse policy: /],
        ['sys/policies/acl/app', { policy: '' }, 400, /'policy' parameter not supplied or empty/],
        ['sys/policies/acl/app', {}, 400, /'policy' parameter not supplied or empty/],
        ['sys/policies/acl/root', { policy: 'path "x" { capabilities = ["read"] }' }, 400, /cannot update "root" policy/],
      ] as const) {
        res = await v('PUT', path, { body });
        assert.equal(res.status, status);
        assert.match(res.body.errors[0], error);
      }
      assert.equal((await v('GET', 'sys/policies/acl/app')).body.data.policy, APP_POLICY, 'rejected writes left the policy as it was');
      res = await v('DELETE', 'sys/policies/acl/default');
      assert.deepEqual(res.body.errors, ['cannot delete "default" policy']);
      res = await v('DELETE', 'sys/policy/root');
      assert.deepEqual(res.body.errors, ['cannot delete "root" policy']);
      assert.equal((await v('DELETE', 'sys/policies/acl/b64')).status, 204);
      assert.equal((await v('GET', 'sys/policies/acl/b64')).status, 404);
    });

    it('applies a changed policy to existing tokens at once', async () => {
      const tok = (await v('POST', 'auth/token/create', { body: { policies: ['ops'] } })).body.auth.client_token;
      assert.equal((await v('GET', 'secret/data/other/x', { token: tok })).status, 403);
      await v('PUT', 'sys/policies/acl/ops', { body: { policy: 'path "secret/data/other/*" { capabilities = ["read"] }' } });
      assert.equal((await v('GET', 'secret/data/other/x', { token: tok })).status, 200);
    });

    it('grants the default policy its standard paths', async () => {
      const plain = (await v('POST', 'auth/token/create', { body: { policies: ['default'] } })).body.auth.client_token;
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: plain })).status, 200);
      assert.equal((await v('POST', 'cubbyhole/note', { token: plain, body: { a: 'b' } })).status, 204);
      assert.equal((await v('GET', 'sys/mounts', { token: plain })).status, 403);
      const none = (await v('POST', 'auth/token/create', { body: { policies: ['app'], no_default_policy: true } })).body.auth.client_token;
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: none })).status, 403);
    });

    it('keeps policies per namespace', async () => {
      assert.equal((await v('POST', 'sys/namespaces/team')).status, 200);
      assert.equal((await v('POST', 'sys/mounts/kv', { namespace: 'team', body: { type: 'kv', options: { version: '1' } } })).status, 204);
      assert.equal((await v('POST', 'kv/hello', { namespace: 'team', body: { v: 1 } })).status, 204);
      assert.equal((await v('PUT', 'sys/policies/acl/reader', { namespace: 'team', body: { policy: 'path "kv/*" { capabilities = ["read"] }' } })).status, 204);
      assert.equal((await v('GET', 'sys/policies/acl/reader')).status, 404, 'not visible in the root namespace');
      const res = await v('POST', 'auth/token/create', { namespace: 'team', body: { policies: ['reader'] } });
      assert.equal(res.status, 200, res.text);
      const tok = res.body.auth.client_token;
      assert.match(tok, /^hvs\.[^.]+\.[^.]+$/, 'namespaced tokens carry the namespace id');
      assert.equal((await v('GET', 'kv/hello', { token: tok, namespace: 'team' })).status, 200);
      assert.equal((await v('GET', 'team/kv/hello', { token: tok })).status, 200, 'path prefix equals the header');
      assert.equal((await v('POST', 'kv/hello', { token: tok, namespace: 'team', body: { v: 2 } })).status, 403);
      assert.equal((await v('GET', 'secret/data/app/ro', { token: tok })).status, 403, 'a namespace token cannot act above its namespace');
      assert.deepEqual((await v('GET', 'sys/policy', { namespace: 'team' })).body.data.keys, ['default', 'reader'], 'root is listed in the root namespace only');
    });

    it('finds LIST rules on the path without its slash before wildcard rules on the path with it, as Vault does', async () => {
      const policy = 'path "+/teams" { capabilities = ["list"] }\npath "+/*" { capabilities = ["read"] }\npath "secret/metadata/app" { capabilities = ["list"] }';
      assert.equal((await v('PUT', 'sys/policies/acl/lister', { body: { policy } })).status, 204);
      assert.equal((await v('POST', 'sys/mounts/crew', { body: { type: 'kv', options: { version: '1' } } })).status, 204);
      assert.equal((await v('POST', 'crew/teams/a', { body: { v: 1 } })).status, 204);
      const tok = (await v('POST', 'auth/token/create', { body: { policies: ['lister'] } })).body.auth.client_token;
      // `+/teams` matches `crew/teams` only; `+/*` also matches `crew/teams/` and must not shadow it
      const listed = await v('LIST', 'crew/teams', { token: tok });
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(listed.body.data.keys, ['a']);
      assert.equal((await v('GET', 'crew/teams/a', { token: tok })).status, 200, 'reads still follow `+/*`');
      // sys/capabilities-self finds rules as a LIST does: the rule without the slash answers for the path with it
      const caps = await v('POST', 'sys/capabilities-self', { token: tok, body: { paths: ['secret/metadata/app/', 'crew/teams/', 'crew/teams/a'] } });
      assert.equal(caps.status, 200, caps.text);
      assert.deepEqual(caps.body.data, { 'secret/metadata/app/': ['list'], 'crew/teams/': ['list'], 'crew/teams/a': ['read'] });
      const one = await v('POST', 'sys/capabilities', { body: { token: tok, path: 'secret/metadata/app/' } });
      assert.deepEqual(one.body.capabilities, ['list']);
    });

    it('works through node-vault policy calls', async () => {
      const client = nodeVault({ endpoint: t.url('secrets'), token: ROOT_TOKEN });
      await client.addPolicy({ name: 'nv', rules: 'path "nv/*" { policy = "read" }' });
      const got = await client.getPolicy({ name: 'nv' });
      assert.equal(got.rules, 'path "nv/*" { policy = "read" }');
      const all = await client.policies();
      assert.ok(all.policies.includes('nv'));
      await client.removePolicy({ name: 'nv' });
      await assert.rejects(client.getPolicy({ name: 'nv' }), /Status 404/);
    });
  });
}
