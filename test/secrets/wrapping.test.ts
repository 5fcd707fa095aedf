import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodeVault from 'node-vault';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { ROOT, startSecrets, vault } from './helpers.ts';

const DENIED = '1 error occurred:\n\t* permission denied\n\n';

for (const database of DATABASES) {
  describe(`secrets response wrapping (${database})`, () => {
    let t: TestRuntime;
    let v: ReturnType<typeof vault>;
    before(async () => {
      t = await startSecrets(database, {}, 'manual');
      v = vault(t);
      await v('secret/data/w', { body: { data: { secret: 'inside' } } });
    });
    after(async () => t.close());

    it('wraps a read behind a single-use token that unwraps once', async () => {
      const res = await v('secret/data/w', { headers: { 'x-vault-wrap-ttl': '5m' } });
      assert.equal(res.status, 200);
      assert.equal(res.body.data, null);
      const info = res.body.wrap_info;
      assert.equal(info.ttl, 300);
      assert.equal(info.creation_path, 'secret/data/w');
      assert.match(info.token, /^hvs\./);
      const lookup = await v('sys/wrapping/lookup', { body: { token: info.token }, token: null });
      assert.equal(lookup.body.data.creation_ttl, 300);
      const unwrapped = await v('sys/wrapping/unwrap', { method: 'PUT', token: info.token });
      assert.deepEqual(unwrapped.body.data.data, { secret: 'inside' });
      const again = await v('sys/wrapping/unwrap', { body: { token: info.token }, token: null });
      assert.deepEqual([again.status, again.body.errors], [400, ['wrapping token is not valid or does not exist']]);
    });

    it('wraps arbitrary data through sys/wrapping/wrap and node-vault unwraps it', async () => {
      const res = await v('sys/wrapping/wrap', { body: { a: 'b' }, headers: { 'x-secrets-wrap-ttl': '60' } });
      assert.equal(res.body.wrap_info.ttl, 60);
      // unwrap is a node-vault command its type declarations omit.
      const client: any = nodeVault({ endpoint: t.url('secrets'), token: ROOT });
      const out = await client.unwrap({ token: res.body.wrap_info.token });
      assert.deepEqual(out.data, { a: 'b' });
    });

    it('expires wrapping tokens with the clock and refuses negative TTLs', async () => {
      const res = await v('secret/data/w', { headers: { 'x-vault-wrap-ttl': '1m' } });
      const token = res.body.wrap_info.token;
      await call(`${t.adminUrl}/clock`, { body: { advance: '2m' } });
      assert.equal((await v('sys/wrapping/unwrap', { body: { token }, token: null })).status, 400);
      const negative = await v('secret/data/w', { headers: { 'x-vault-wrap-ttl': '-5m' } });
      assert.equal(negative.status, 400);
      assert.equal((await v('sys/wrapping/wrap', { body: {} })).status, 400);
    });

    it('answers 403 for a wrapping token it cannot read, 400 for one it does not know', async () => {
      for (const path of ['sys/wrapping/lookup', 'sys/wrapping/unwrap', 'sys/wrapping/rewrap']) {
        const cases: [Record<string, unknown>, number, string][] = [
          [{ token: 5 }, 403, 'error validating wrapping token: could not decode token in request body'],
          [{ token: '' }, 403, 'error validating wrapping token: empty token in request body'],
          [{}, 403, 'error validating wrapping token: token is empty'],
          [{ token: 'hvs.unknown' }, 400, 'wrapping token is not valid or does not exist'],
        ];
        for (const [body, status, message] of cases) {
          const res = await v(path, { method: 'POST', body, token: null });
          assert.deepEqual([res.status, res.body], [status, { errors: [message] }], `${path} ${JSON.stringify(body)}`);
        }
      }
    });

    it('refuses unwrap and rewrap of a good wrapping token without a client token, and the token keeps its response', async () => {
      const info = (await v('secret/data/w', { headers: { 'x-vault-wrap-ttl': '5m' } })).body.wrap_info;
      for (const path of ['sys/wrapping/unwrap', 'sys/wrapping/rewrap']) {
        const res = await v(path, { body: { token: info.token }, token: null });
        assert.deepEqual([res.status, res.body], [403, { errors: [DENIED] }], path);
      }
      const lookup = await v('sys/wrapping/lookup', { body: { token: info.token }, token: null });
      assert.deepEqual([lookup.status, lookup.body.data.creation_path], [200, 'secret/data/w'], 'lookup needs no client token');
      const unwrapped = await v('sys/wrapping/unwrap', { body: { token: info.token } });
      assert.deepEqual(unwrapped.body.data.data, { secret: 'inside' });
    });

    it('lets the default policy unwrap another token but not rewrap it; rewrap needs a grant of its own', async () => {
      const tokenWith = async (policies: string[]) => (await v('auth/token/create', { body: { policies } })).body.auth.client_token as string;
      const plain = await tokenWith(['default']);
      const info = (await v('secret/data/w', { headers: { 'x-vault-wrap-ttl': '5m' } })).body.wrap_info;
      const refused = await v('sys/wrapping/rewrap', { body: { token: info.token }, token: plain });
      assert.deepEqual([refused.status, refused.body], [403, { errors: [DENIED] }]);
      assert.equal((await v('sys/wrapping/lookup', { body: { token: info.token } })).status, 200, 'the refused rewrap left the wrapping token alone');
      assert.equal((await v('sys/policies/acl/rewrapper', { body: { policy: 'path "sys/wrapping/rewrap" { capabilities = ["update"] }' } })).status, 204);
      const rewrapped = await v('sys/wrapping/rewrap', { body: { token: info.token }, token: await tokenWith(['rewrapper']) });
      assert.equal(rewrapped.status, 200);
      const unwrapped = await v('sys/wrapping/unwrap', { body: { token: rewrapped.body.wrap_info.token }, token: plain });
      assert.deepEqual([unwrapped.status, unwrapped.body.data.data], [200, { secret: 'inside' }]);
    });

    it('writes creation_time as Go does: trailing fractional zeros dropped, none on a whole second', async () => {
      await call(`${t.adminUrl}/clock`, { body: { set: '2030-01-01T00:00:00.120Z' } });
      const res = await v('sys/wrapping/wrap', { body: { a: 'b' } });
      assert.equal(res.body.wrap_info.creation_time, '2030-01-01T00:00:00.12Z');
      const lookup = await v('sys/wrapping/lookup', { body: { token: res.body.wrap_info.token }, token: null });
      assert.deepEqual(lookup.body.data, { creation_path: 'sys/wrapping/wrap', creation_time: '2030-01-01T00:00:00.12Z', creation_ttl: 300 });
      await call(`${t.adminUrl}/clock`, { body: { set: '2030-01-01T00:00:01Z' } });
      const rewrapped = await v('sys/wrapping/rewrap', { body: { token: res.body.wrap_info.token } });
      assert.equal(rewrapped.body.wrap_info.creation_time, '2030-01-01T00:00:01Z');
      assert.equal(rewrapped.body.wrap_info.creation_path, 'sys/wrapping/wrap');
    });
  });
}
