// Wrapping tokens are tokens of the token store: the policy `response-wrapping` alone, one use, the wrap TTL, no
// parent, not renewable; their accessor works with the accessor endpoints, and revoking them destroys the response.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { ROOT, startSecrets, vault } from './helpers.ts';

const DENIED = '1 error occurred:\n\t* permission denied\n\n';
const INVALID = ['wrapping token is not valid or does not exist'];

for (const database of DATABASES) {
  describe(`secrets wrapping tokens in the token store (${database})`, () => {
    let t: TestRuntime;
    let v: ReturnType<typeof vault>;
    const wrapRead = async () => (await v('secret/data/w', { headers: { 'x-vault-wrap-ttl': '5m' } })).body.wrap_info;
    before(async () => {
      t = await startSecrets(database, {}, 'manual');
      v = vault(t);
      await v('secret/data/w', { body: { data: { secret: 'wrapped-value-7c1' } } });
    });
    after(async () => t.close());

    it('is looked up by an authorised caller as a one-use orphan holding only response-wrapping', async () => {
      const info = await wrapRead();
      const look = await v('auth/token/lookup', { body: { token: info.token } });
      assert.equal(look.status, 200);
      const d = look.body.data;
      assert.deepEqual(
        [d.policies, d.num_uses, d.ttl, d.creation_ttl, d.explicit_max_ttl, d.orphan, d.renewable, d.path, d.accessor, d.type, d.meta],
        [['response-wrapping'], 1, 300, 300, 300, true, false, 'secret/data/w', info.accessor, 'service', null],
      );
      const byAccessor = await v('auth/token/lookup-accessor', { body: { accessor: info.accessor } });
      assert.deepEqual([byAccessor.body.data.policies, byAccessor.body.data.id], [['response-wrapping'], '']);
      const unwrapped = await v('sys/wrapping/unwrap', { body: { token: info.token } });
      assert.deepEqual(unwrapped.body.data.data, { secret: 'wrapped-value-7c1' }, 'looking it up spent no use');
    });

    it('looks itself up through sys/wrapping/lookup without spending its use, then unwraps once as the client token', async () => {
      const info = await wrapRead();
      const lookup = await v('sys/wrapping/lookup', { method: 'POST', token: info.token });
      assert.deepEqual([lookup.status, lookup.body.data.creation_ttl], [200, 300]);
      const unwrapped = await v('sys/wrapping/unwrap', { method: 'POST', token: info.token });
      assert.deepEqual(unwrapped.body.data.data, { secret: 'wrapped-value-7c1' });
      const gone = await v('auth/token/lookup', { body: { token: info.token } });
      assert.deepEqual([gone.status, gone.body.errors], [403, ['bad token']]);
      const again = await v('sys/wrapping/unwrap', { method: 'POST', token: info.token });
      assert.equal(again.status, 400);
    });

    it('is refused on every other path, and that refused request spends its one use', async () => {
      for (const [method, path] of [['GET', 'auth/token/lookup-self'], ['GET', 'secret/data/w'], ['POST', 'auth/token/create']] as const) {
        const info = await wrapRead();
        const res = await v(path, { method, token: info.token, body: method === 'POST' ? {} : undefined });
        assert.deepEqual([res.status, res.body.errors], [403, [DENIED]], path);
        const unwrap = await v('sys/wrapping/unwrap', { body: { token: info.token } });
        assert.deepEqual([unwrap.status, unwrap.body.errors], [400, INVALID], path);
      }
    });

    it('cannot be unwrapped once revoked by token or by accessor', async () => {
      const byToken = await wrapRead();
      assert.equal((await v('auth/token/revoke', { body: { token: byToken.token } })).status, 204);
      const byAccessor = await wrapRead();
      assert.equal((await v('auth/token/revoke-accessor', { body: { accessor: byAccessor.accessor } })).status, 204);
      for (const info of [byToken, byAccessor]) {
        for (const path of ['sys/wrapping/lookup', 'sys/wrapping/unwrap', 'sys/wrapping/rewrap']) {
          const res = await v(path, { body: { token: info.token } });
          assert.deepEqual([res.status, res.body.errors], [400, INVALID], path);
        }
      }
    });

    it('refuses renewal and leaves the token as it was', async () => {
      const info = await wrapRead();
      const renew = await v('auth/token/renew', { body: { token: info.token, increment: '1h' } });
      assert.deepEqual([renew.status, renew.body.errors], [400, ['lease is not renewable']]);
      const look = await v('auth/token/lookup', { body: { token: info.token } });
      assert.deepEqual([look.body.data.ttl, look.body.data.num_uses], [300, 1]);
    });

    it('is not another token: a normal token is no wrapping token, and response-wrapping stays unassignable and unlisted', async () => {
      const res = await v('sys/wrapping/unwrap', { body: { token: ROOT } });
      assert.deepEqual([res.status, res.body.errors], [400, INVALID]);
      assert.equal((await v('auth/token/lookup-self')).status, 200, 'the root token is still there');
      const create = await v('auth/token/create', { body: { policies: ['response-wrapping'] } });
      assert.deepEqual([create.status, create.body.errors], [400, ['cannot assign policy "response-wrapping"']]);
      const list = await v('sys/policies/acl', { method: 'LIST' });
      assert.ok(!list.body.data.keys.includes('response-wrapping'));
    });

    it('rewraps into a new real token and keeps the response encrypted at rest', async () => {
      const info = await wrapRead();
      const rewrapped = (await v('sys/wrapping/rewrap', { body: { token: info.token } })).body.wrap_info;
      assert.notEqual(rewrapped.accessor, info.accessor);
      const look = await v('auth/token/lookup-accessor', { body: { accessor: rewrapped.accessor } });
      assert.deepEqual([look.body.data.policies, look.body.data.path], [['response-wrapping'], 'secret/data/w']);
      const rows = await t.rt.db.kysely.selectFrom('secrets_entries').selectAll().execute();
      const dump = rows.map((r) => Object.values(r).map((x) => (Buffer.isBuffer(x) ? x.toString('latin1') : String(x))).join('|')).join('\n');
      for (const clear of ['wrapped-value-7c1', rewrapped.token, rewrapped.accessor]) assert.ok(!dump.includes(clear), `${clear} is stored in clear`);
      const out = await v('sys/wrapping/unwrap', { body: { token: rewrapped.token } });
      assert.deepEqual(out.body.data.data, { secret: 'wrapped-value-7c1' });
    });
  });
}
