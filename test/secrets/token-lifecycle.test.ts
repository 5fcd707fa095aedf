// Token auth through HTTP and node-vault: creation rules, lookup, renewal and expiry by moving the clock, use
// limits, cascading revocation, accessors, roles, and every bad input with its status and error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodeVault from 'node-vault';
import type { TestRuntime } from '../helpers/runtime.ts';
import { TokenStore } from '../../src/services/secrets/token/store.ts';
import { advance, api, DATABASES, DENIED, ROOT_TOKEN, startSecrets, type Api } from './token-harness.ts';

const INVALID = '2 errors occurred:\n\t* permission denied\n\t* invalid token\n\n';

for (const database of DATABASES) {
  describe(`token auth (${database})`, () => {
    let t: TestRuntime;
    let v: Api;
    before(async () => {
      t = await startSecrets(database);
      v = api(t);
      const res = await v('PUT', 'sys/policies/acl/dev', { body: { policy: 'path "secret/data/dev/*" { capabilities = ["read", "create", "update"] }\npath "auth/token/create" { capabilities = ["update"] }' } });
      assert.equal(res.status, 204);
    });
    after(async () => t.close());

    const create = async (body: Record<string, unknown>, token?: string) => {
      const res = await v('POST', 'auth/token/create', { body, token });
      assert.equal(res.status, 200, res.text);
      return res.body.auth as { client_token: string; accessor: string; policies: string[]; lease_duration: number; orphan: boolean; renewable: boolean };
    };

    it('looks up the root token', async () => {
      const res = await v('GET', 'auth/token/lookup-self');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data.policies, ['root']);
      assert.equal(res.body.data.ttl, 0);
      assert.equal(res.body.data.expire_time, null);
      assert.equal(res.body.data.path, 'auth/token/root');
      assert.equal(res.body.auth, null);
    });

    it('creates child tokens with policies, ttl, meta and display name', async () => {
      const res = await v('POST', 'auth/token/create', { body: { policies: ['dev', 'Missing'], ttl: '1h', meta: { app: 'x' }, display_name: 'ci bot', num_uses: '3' } });
      assert.equal(res.status, 200);
      assert.equal(res.body.data, null);
      assert.deepEqual(res.body.warnings, ['Policy "missing" does not exist']);
      const auth = res.body.auth;
      assert.match(auth.client_token, /^hvs\./);
      assert.deepEqual(auth.policies, ['default', 'dev', 'missing']);
      assert.equal(auth.lease_duration, 3600);
      assert.equal(auth.renewable, true);
      assert.equal(auth.orphan, false);
      assert.deepEqual(auth.metadata, { app: 'x' });
      assert.equal(auth.num_uses, 3);
      const look = await v('POST', 'auth/token/lookup', { body: { token: auth.client_token } });
      assert.equal(look.body.data.display_name, 'token-ci-bot');
      assert.equal(look.body.data.expire_time, '2026-01-01T01:00:00Z');
      assert.equal(look.body.data.creation_ttl, 3600);
      assert.equal(look.body.data.num_uses, 3, 'looking up another token does not spend its uses');
    });

    it('enforces the subset rule, orphan and sudo rules for non-root parents', async () => {
      const dev = await create({ policies: ['dev'] });
      let res = await v('POST', 'auth/token/create', { token: dev.client_token, body: { policies: ['admin'] } });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body, { errors: ['child policies must be subset of parent'] });
      res = await v('POST', 'auth/token/create', { token: dev.client_token, body: { no_parent: true } });
      assert.deepEqual(res.body.errors, ['root or sudo privileges required to create orphan token']);
      res = await v('POST', 'auth/token/create', { token: dev.client_token, body: { period: '1h' } });
      assert.deepEqual(res.body.errors, ['root or sudo privileges required to create periodic token']);
      res = await v('POST', 'auth/token/create', { token: dev.client_token, body: { id: 'custom' } });
      assert.deepEqual(res.body.errors, ['root or sudo privileges required to specify token id']);
      res = await v('POST', 'auth/token/create-orphan', { token: dev.client_token, body: {} });
      assert.equal(res.status, 403, 'create-orphan needs its own ACL grant');
      const child = await create({}, dev.client_token);
      assert.deepEqual(child.policies, ['default', 'dev']);
      assert.equal(child.orphan, false);
    });

    it('rejects bad input with 400 and creates nothing', async () => {
      const before = (await v('LIST', 'auth/token/accessors')).body.data.keys.length;
      for (const [body, error] of [
        [{ ttl: 'soon' }, /time: invalid duration "soon"/],
        [{ num_uses: 'many' }, /cannot parse 'num_uses' as int/],
        [{ num_uses: -2 }, /number of uses cannot be negative/],
        [{ renewable: 'maybe' }, /cannot parse 'renewable' as bool/],
        [{ policies: [1, {}] }, /'policies\[1\]' expected type 'string'/],
        [{ meta: 'nope' }, /'meta' expected a map, got 'string'/],
        [{ id: 'has.dot' }, /token IDs can not contain a "."/],
        [{ type: 'weird' }, /invalid 'token_type' value/],
      ] as const) {
        const res = await v('POST', 'auth/token/create', { body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.match(res.body.errors[0], error);
      }
      assert.equal((await v('LIST', 'auth/token/accessors')).body.data.keys.length, before);
    });

    it('expires tokens with the clock and revokes their children', async () => {
      const parent = await create({ policies: ['dev'], ttl: '1h' });
      const child = await create({ ttl: '10h' }, parent.client_token);
      assert.equal(child.lease_duration, 36000, 'a child may ask more than its parent has left');
      await advance(t, '59m');
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: child.client_token })).status, 200);
      await advance(t, '2m');
      let res = await v('GET', 'auth/token/lookup-self', { token: parent.client_token });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body.errors, [INVALID]);
      res = await v('GET', 'auth/token/lookup-self', { token: child.client_token });
      assert.equal(res.status, 403, 'the child died with its parent');
      res = await v('POST', 'auth/token/lookup', { body: { token: parent.client_token } });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body.errors, ['bad token']);
    });

    it('renews within the max TTL and refuses what cannot be renewed', async () => {
      const tok = await create({ policies: ['dev'], ttl: '1h', explicit_max_ttl: '2h' });
      await advance(t, '30m');
      let res = await v('POST', 'auth/token/renew-self', { token: tok.client_token, body: { increment: '1h' } });
      assert.equal(res.status, 200);
      assert.equal(res.body.auth.lease_duration, 3600);
      res = await v('POST', 'auth/token/renew', { body: { token: tok.client_token, increment: 7200 } });
      assert.equal(res.body.auth.lease_duration, 5400, 'capped at explicit_max_ttl from issue');
      assert.match(res.body.warnings[0], /exceeded the effective max_ttl/);
      const look = await v('POST', 'auth/token/lookup', { body: { token: tok.client_token } });
      assert.equal(look.body.data.ttl, 5400);
      assert.equal(typeof look.body.data.last_renewal_time, 'number');
      res = await v('POST', 'auth/token/renew-self', { body: {} });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.errors, ['lease is not renewable']);
      const fixed = await create({ renewable: false, ttl: '1h' });
      res = await v('POST', 'auth/token/renew', { body: { token: fixed.client_token } });
      assert.deepEqual(res.body.errors, ['lease is not renewable']);
      res = await v('POST', 'auth/token/renew', { body: { token: 'hvs.nothing' } });
      assert.deepEqual(res.body.errors, ['token not found']);
      res = await v('POST', 'auth/token/renew', { body: { token: fixed.client_token, increment: 'later' } });
      assert.equal(res.status, 400);
    });

    it('gives periodic tokens their period on every renewal', async () => {
      const tok = await create({ period: '30m', policies: ['dev'] });
      assert.equal(tok.lease_duration, 1800);
      await advance(t, '20m');
      const res = await v('POST', 'auth/token/renew-self', { token: tok.client_token, body: { increment: '10h' } });
      assert.equal(res.body.auth.lease_duration, 1800);
      await advance(t, '25m');
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: tok.client_token })).status, 200);
    });

    it('counts uses and refuses the token after the last one', async () => {
      const tok = await create({ policies: ['dev'], num_uses: 2 });
      let res = await v('GET', 'auth/token/lookup-self', { token: tok.client_token });
      assert.equal(res.body.data.num_uses, 1);
      res = await v('POST', 'auth/token/create', { token: tok.client_token, body: {} });
      assert.deepEqual(res.body.errors, ['restricted use token cannot generate child tokens']);
      res = await v('GET', 'auth/token/lookup-self', { token: tok.client_token });
      assert.equal(res.status, 403);
    });

    it('spends each use once under concurrent requests', async () => {
      const tok = await create({ policies: ['dev'], num_uses: 3 });
      const results = await Promise.all(Array.from({ length: 10 }, () => v('GET', 'auth/token/lookup-self', { token: tok.client_token })));
      assert.equal(results.filter((r) => r.status === 200).length, 3);
      assert.equal(results.filter((r) => r.status === 403).length, 7);
    });

    it('answers the request that spends the last use even when another revokes the spent token first', async () => {
      const tok = await create({ policies: ['dev'], num_uses: 1 });
      // What a concurrent request does when it finds the token spent: revoke it, here between this request's use and
      // its answer (under load the order the concurrent test above leaves to chance).
      const use = TokenStore.prototype.use;
      TokenStore.prototype.use = async function (entry) {
        const used = await use.call(this, entry);
        if (used?.numUses === -1) await this.revokeTree(used);
        return used;
      };
      try {
        const res = await v('GET', 'auth/token/lookup-self', { token: tok.client_token });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.data.accessor, tok.accessor);
      } finally {
        TokenStore.prototype.use = use;
      }
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: tok.client_token })).status, 403);
    });

    it('issues batch tokens that are never stored and cannot be renewed or revoked', async () => {
      const rows = async () => (await t.rt.db.kysely.selectFrom('secrets_entries').select('path').execute()).length;
      const parent = await create({ policies: ['dev'], ttl: '2h' });
      const before = await rows();
      let res = await v('POST', 'auth/token/create', { token: parent.client_token, body: { type: 'batch', ttl: '1h' } });
      assert.equal(res.status, 200, res.text);
      const batch = res.body.auth;
      assert.match(batch.client_token, /^hvb\./);
      assert.equal(batch.accessor, '');
      assert.equal(batch.token_type, 'batch');
      assert.equal(batch.renewable, false);
      assert.equal(await rows(), before, 'nothing stored');
      res = await v('GET', 'auth/token/lookup-self', { token: batch.client_token });
      assert.equal(res.body.data.type, 'batch');
      assert.deepEqual(res.body.data.policies, ['default', 'dev']);
      assert.deepEqual((await v('POST', 'auth/token/renew-self', { token: batch.client_token, body: {} })).body.errors, ['batch tokens cannot be renewed']);
      assert.deepEqual((await v('POST', 'auth/token/revoke', { body: { token: batch.client_token } })).body.errors, ['batch tokens cannot be revoked']);
      assert.deepEqual((await v('POST', 'auth/token/create', { token: batch.client_token, body: {} })).body.errors, ['batch tokens cannot create more tokens']);
      const forged = batch.client_token.slice(0, -4) + (batch.client_token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: forged })).status, 403, 'a tampered batch token is refused');
      await v('POST', 'auth/token/revoke', { body: { token: parent.client_token } });
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: batch.client_token })).status, 403, 'dies with its parent');
      const orphan = (await v('POST', 'auth/token/create-orphan', { body: { type: 'batch', policies: 'dev', ttl: '30m' } })).body.auth;
      assert.equal((await v('GET', 'secret/data/dev/none', { token: orphan.client_token })).status, 404);
      await advance(t, '31m');
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: orphan.client_token })).status, 403, 'expired');
    });

    it('revokes trees, orphans, by accessor and self', async () => {
      const parent = await create({ policies: ['dev'] });
      const child = await create({}, parent.client_token);
      const grandchild = await create({}, child.client_token);
      assert.equal((await v('POST', 'auth/token/revoke', { body: { token: parent.client_token } })).status, 204);
      for (const tok of [parent, child, grandchild]) assert.equal((await v('GET', 'auth/token/lookup-self', { token: tok.client_token })).status, 403);

      const p2 = await create({ policies: ['dev'] });
      const c2 = await create({}, p2.client_token);
      assert.equal((await v('POST', 'auth/token/revoke-orphan', { body: { token: p2.client_token } })).status, 204);
      const look = await v('GET', 'auth/token/lookup-self', { token: c2.client_token });
      assert.equal(look.status, 200);
      assert.equal(look.body.data.orphan, true);

      let res = await v('POST', 'auth/token/lookup-accessor', { body: { accessor: c2.accessor } });
      assert.equal(res.body.data.id, '');
      assert.equal(res.body.data.accessor, c2.accessor);
      assert.equal((await v('POST', 'auth/token/revoke-accessor', { body: { accessor: c2.accessor } })).status, 204);
      res = await v('POST', 'auth/token/lookup-accessor', { body: { accessor: c2.accessor } });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.errors, ['invalid accessor']);

      const self = await create({ policies: ['dev'] });
      assert.equal((await v('POST', 'auth/token/revoke-self', { token: self.client_token })).status, 204);
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: self.client_token })).status, 403);

      res = await v('POST', 'auth/token/revoke-orphan', { body: { token: 'hvs.unknown' } });
      assert.deepEqual(res.body.errors, ['token to revoke not found']);
      res = await v('POST', 'auth/token/revoke', { body: {} });
      assert.deepEqual(res.body.errors, ['missing token ID']);
      res = await v('POST', 'auth/token/lookup', { body: {} });
      assert.equal(res.body.data.id, ROOT_TOKEN, 'lookup without a token looks up the caller');
    });

    it('tidies expired tokens and their index entries away', async () => {
      const countTokens = async () =>
        (await t.rt.db.kysely.selectFrom('secrets_entries').select('path').execute()).filter((r) => /sys\/token\/(id|accessor|parent)\//.test(r.path)).length;
      const parent = await create({ policies: ['dev'], ttl: '1h' });
      await create({ ttl: '5h' }, parent.client_token);
      const before = await countTokens();
      await advance(t, '2h');
      const res = await v('POST', 'auth/token/tidy');
      assert.equal(res.status, 202);
      assert.match(res.body.warnings[0], /Tidy operation successfully started/);
      assert.ok((await countTokens()) <= before - 5, 'two tokens, two accessors and one child link removed');
      assert.equal((await v('POST', 'auth/token/tidy', { token: parent.client_token })).status, 403);
    });

    it('lists accessors only with sudo', async () => {
      const dev = await create({ policies: ['dev'] });
      const res = await v('LIST', 'auth/token/accessors');
      assert.equal(res.status, 200);
      assert.ok(res.body.data.keys.includes(dev.accessor));
      const denied = await v('LIST', 'auth/token/accessors', { token: dev.client_token });
      assert.equal(denied.status, 403);
      assert.deepEqual(denied.body.errors, [DENIED]);
    });

    it('manages roles and creates tokens through them', async () => {
      assert.equal((await v('LIST', 'auth/token/roles')).status, 404);
      let res = await v('POST', 'auth/token/roles/ci', { body: { allowed_policies: 'dev', orphan: true, renewable: false, token_explicit_max_ttl: '2h', path_suffix: 'v1' } });
      assert.equal(res.status, 204);
      res = await v('GET', 'auth/token/roles/ci');
      assert.deepEqual(res.body.data.allowed_policies, ['dev']);
      assert.equal(res.body.data.explicit_max_ttl, 7200);
      assert.deepEqual((await v('GET', 'auth/token/roles?list=true')).body.data.keys, ['ci']);
      res = await v('POST', 'auth/token/create/ci', { body: { ttl: '5h' } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.auth.policies, ['default', 'dev']);
      assert.equal(res.body.auth.orphan, true);
      assert.equal(res.body.auth.renewable, false);
      assert.equal(res.body.auth.lease_duration, 7200);
      const look = await v('POST', 'auth/token/lookup', { body: { token: res.body.auth.client_token } });
      assert.equal(look.body.data.path, 'auth/token/create/ci/v1');
      assert.equal(look.body.data.role, 'ci');
      res = await v('POST', 'auth/token/create/ci', { body: { policies: ['admin'] } });
      assert.equal(res.status, 400);
      assert.match(res.body.errors[0], /must be subset of the role's allowed policies/);
      res = await v('POST', 'auth/token/create/nope', { body: {} });
      assert.deepEqual(res.body.errors, ['unknown role nope']);
      res = await v('POST', 'auth/token/roles/ci', { body: { token_type: 'odd' } });
      assert.equal(res.status, 400);
      assert.equal((await v('GET', 'auth/token/roles/ci')).body.data.token_type, 'default-service', 'a rejected write changes nothing');
      await v('POST', 'auth/token/roles/fenced', { body: { token_bound_cidrs: '10.0.0.0/8', allowed_policies_glob: 'de*' } });
      res = await v('POST', 'auth/token/create/fenced', { body: { policies: 'dev' } });
      assert.equal(res.status, 200, res.text);
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: res.body.auth.client_token })).status, 403, 'bound elsewhere');
      assert.deepEqual((await v('GET', 'auth/token/roles/fenced')).body.data.token_bound_cidrs, ['10.0.0.0/8']);
      assert.equal((await v('DELETE', 'auth/token/roles/ci')).status, 204);
      assert.equal((await v('GET', 'auth/token/roles/ci')).status, 404);
    });

    it('answers missing and bad tokens with 403, unknown paths with 404', async () => {
      let res = await v('GET', 'auth/token/lookup-self', { token: null });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body.errors, [DENIED]);
      res = await v('GET', 'auth/token/lookup-self', { token: 'hvs.bogus' });
      assert.deepEqual(res.body.errors, [INVALID]);
      res = await v('GET', 'auth/token/nothing-here');
      assert.equal(res.status, 404);
      res = await v('DELETE', 'auth/token/create');
      assert.equal(res.status, 405);
    });

    it('keeps no token, accessor or password in clear in the database', async () => {
      const tok = await create({ policies: ['dev'] });
      await v('POST', 'sys/auth/userpass', { body: { type: 'userpass' } });
      await v('POST', 'auth/userpass/users/zoe', { body: { password: 'zoe-secret-pw' } });
      const login = (await v('POST', 'auth/userpass/login/zoe', { token: null, body: { password: 'zoe-secret-pw' } })).body.auth;
      const rows = await t.rt.db.kysely.selectFrom('secrets_entries').selectAll().execute();
      const dump = rows.map((r) => Object.values(r).map((x) => (Buffer.isBuffer(x) ? x.toString('latin1') : String(x))).join('|')).join('\n');
      assert.ok(rows.length > 0);
      for (const clear of [ROOT_TOKEN, tok.client_token, tok.accessor, login.client_token, 'zoe-secret-pw', 'token-ci-bot']) {
        assert.ok(!dump.includes(clear), `${clear} is stored in clear`);
      }
    });

    it('answers help for the token store', async () => {
      let res = await v('GET', 'auth/token/?help=1');
      assert.equal(res.status, 200);
      assert.match(res.body.help, /`\/create`: Create a child token/);
      assert.ok(res.body.openapi.paths['/create'].post);
      assert.ok(res.body.openapi.paths['/accessors'].get);
      res = await v('GET', 'auth/token/roles/any?help=1');
      assert.deepEqual(Object.keys(res.body.openapi.paths), ['/']);
      const plain = await create({ policies: ['default'] });
      assert.equal((await v('GET', 'auth/token/lookup-self?help=1', { token: plain.client_token })).status, 200);
      assert.equal((await v('GET', 'auth/token/create?help=1', { token: plain.client_token })).status, 403);
    });

    it('keeps tokens, roles and policies across a restart', async () => {
      const tok = await create({ policies: ['dev'], ttl: '3h' });
      await v('POST', 'auth/token/roles/kept', { body: { allowed_policies: 'dev' } });
      await v('POST', 'secret/data/dev/a', { body: { data: { x: 1 } } });
      await t.restart();
      v = api(t);
      const look = await v('GET', 'auth/token/lookup-self', { token: tok.client_token });
      assert.equal(look.status, 200);
      assert.deepEqual(look.body.data.policies, ['default', 'dev']);
      assert.equal((await v('GET', 'secret/data/dev/a', { token: tok.client_token })).status, 200);
      assert.equal((await v('GET', 'auth/token/roles/kept')).status, 200);
      await advance(t, '3h');
      assert.equal((await v('GET', 'auth/token/lookup-self', { token: tok.client_token })).status, 403);
    });

    it('works through node-vault unchanged', async () => {
      const client = nodeVault({ endpoint: t.url('secrets'), token: ROOT_TOKEN });
      const created = await client.tokenCreate({ policies: ['dev'], ttl: '2h' });
      assert.equal(created.auth.lease_duration, 7200);
      assert.equal(client.token, created.auth.client_token, 'node-vault switches to the new token');
      const self = await client.tokenLookupSelf();
      assert.deepEqual(self.data.policies, ['default', 'dev']);
      const renewed = await client.tokenRenewSelf({ increment: '1h' });
      assert.equal(renewed.auth.lease_duration, 3600);
      client.token = ROOT_TOKEN;
      const accessors = await client.tokenAccessors();
      assert.ok(accessors.data.keys.includes(created.auth.accessor));
      await client.tokenRevoke({ token: created.auth.client_token });
      await assert.rejects(client.tokenLookup({ token: created.auth.client_token }), /bad token/);
    });
  });
}
