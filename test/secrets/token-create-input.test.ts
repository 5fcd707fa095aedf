// Token creation input as Vault's token store decodes it: weakly typed meta, Go duration texts and their errors,
// display-name normalisation, reserved policies and entity aliases. Bad input leaves no token behind.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodeVault from 'node-vault';
import { call, type TestRuntime } from '../helpers/runtime.ts';
import { DATABASES, ROOT_TOKEN, api, startSecrets, type Api } from './token-harness.ts';

const DECODE = 'Error decoding request: 1 error(s) decoding:\n\n* ';

for (const database of DATABASES) {
  describe(`secrets token creation input (${database})`, () => {
    let t: TestRuntime;
    let v: Api;
    before(async () => {
      t = await startSecrets(database);
      v = api(t);
    });
    after(async () => t.close());

    const accessorCount = async () => (await v('LIST', 'auth/token/accessors')).body.data.keys.length as number;

    async function refused(path: string, body: Record<string, unknown>, message: string) {
      const before = await accessorCount();
      const res = await v('POST', path, { body });
      assert.deepEqual([res.status, res.body], [400, { errors: [message] }], JSON.stringify(body));
      assert.equal(await accessorCount(), before);
    }

    it('turns numbers and booleans in meta into text, as node-vault sends them', async () => {
      const client = nodeVault({ endpoint: t.url('secrets'), token: ROOT_TOKEN });
      const res = await client.tokenCreate({ meta: { n: 5, ok: true, off: false, s: 'x' } });
      assert.deepEqual(res.auth.metadata, { n: '5', ok: '1', off: '0', s: 'x' });
      const looked = await v('POST', 'auth/token/lookup', { body: { token: res.auth.client_token } });
      assert.deepEqual(looked.body.data.meta, { n: '5', ok: '1', off: '0', s: 'x' });
    });

    it('refuses nested meta values and a meta that is not a map', async () => {
      await refused('auth/token/create', { meta: { a: { b: 'c' } } }, `${DECODE}'meta[a]' expected type 'string', got unconvertible type 'map[string]interface {}'`);
      await refused('auth/token/create', { meta: { a: ['b'] } }, `${DECODE}'meta[a]' expected type 'string', got unconvertible type '[]interface {}'`);
      await refused('auth/token/create', { meta: 'a=b' }, `${DECODE}'meta' expected a map, got 'string'`);
    });

    it('names the negative duration field instead of a parse error', async () => {
      await refused('auth/token/create', { ttl: -5 }, 'ttl must be positive');
      await refused('auth/token/create', { ttl: '-1h' }, 'ttl must be positive');
      await refused('auth/token/create-orphan', { explicit_max_ttl: '-10' }, 'explicit_max_ttl must be positive');
      await refused('auth/token/create', { period: '-1m' }, 'period must be positive');
    });

    it("answers Go's duration errors", async () => {
      await refused('auth/token/create', { ttl: 'abc' }, 'time: invalid duration "abc"');
      await refused('auth/token/create', { ttl: '5x' }, 'time: unknown unit "x" in duration "5x"');
      await refused('auth/token/create', { explicit_max_ttl: 3600.5 }, 'time: missing unit in duration "3600.5"');
      await refused('auth/token/create', { period: 'xd' }, 'strconv.ParseInt: parsing "x": invalid syntax');
      const days = await v('POST', 'auth/token/create', { body: { ttl: '2d', explicit_max_ttl: '1h30m' } });
      assert.equal(days.body.auth.lease_duration, 5400);
    });

    it('refuses num_uses that is not an integer with the decoder text', async () => {
      await refused('auth/token/create', { num_uses: 'abc' }, `${DECODE}cannot parse 'num_uses' as int: strconv.ParseInt: parsing "abc": invalid syntax`);
      await refused('auth/token/create', { num_uses: 1.5 }, `${DECODE}error decoding json.Number into num_uses: strconv.ParseInt: parsing "1.5": invalid syntax`);
      const res = await v('POST', 'auth/token/create', { body: { num_uses: '3' } });
      assert.equal(res.body.auth.num_uses, 3);
    });

    it('reads renewable as Go does: an empty string is false, other text must parse', async () => {
      const res = await v('POST', 'auth/token/create', { body: { renewable: '', ttl: '1h' } });
      assert.equal(res.body.auth.renewable, false);
      await refused('auth/token/create', { renewable: 2 }, `${DECODE}cannot parse 'renewable' as bool: strconv.ParseBool: parsing "2": invalid syntax`);
    });

    it('drops one trailing hyphen of the display name, not all', async () => {
      const res = await v('POST', 'auth/token/create', { body: { display_name: 'a b--' } });
      const looked = await v('POST', 'auth/token/lookup', { body: { token: res.body.auth.client_token } });
      assert.equal(looked.body.data.display_name, 'token-a-b-');
    });

    it('keeps a comma string in policies as one policy name, as Vault does; a list names several', async () => {
      const one = await v('POST', 'auth/token/create', { body: { policies: 'a, B' } });
      assert.deepEqual(one.body.auth.policies, ['a, b', 'default']);
      assert.deepEqual(one.body.warnings, ['Policy "a, b" does not exist']);
      const client = nodeVault({ endpoint: t.url('secrets'), token: ROOT_TOKEN });
      const many = await client.tokenCreate({ policies: ['b', 'A'] });
      assert.deepEqual(many.auth.policies, ['a', 'b', 'default']);
    });

    it('refuses the policies Vault keeps for itself', async () => {
      await refused('auth/token/create', { policies: ['response-wrapping'] }, 'cannot assign policy "response-wrapping"');
      await refused('auth/token/create', { policies: ['control-group', 'dev'] }, 'cannot assign policy "control-group"');
    });

    it('allows entity_alias only through a role that lists it', async () => {
      await refused('auth/token/create', { entity_alias: 'bob' }, "'entity_alias' is only allowed in combination with token role");
      assert.equal((await v('POST', 'auth/token/roles/r', { body: { allowed_policies: ['dev'] } })).status, 204);
      await refused('auth/token/create/r', { entity_alias: 'bob' }, "invalid 'entity_alias' value");
    });

    it("caps num_uses at the role's token_num_uses and honours its token_no_default_policy", async () => {
      await v('POST', 'auth/token/roles/limited', { body: { allowed_policies: ['dev'], token_num_uses: 2, token_no_default_policy: true } });
      const unlimited = await v('POST', 'auth/token/create/limited', { body: {} });
      assert.equal(unlimited.body.auth.num_uses, 2);
      assert.deepEqual(unlimited.body.auth.policies, ['dev']);
      const more = await v('POST', 'auth/token/create/limited', { body: { num_uses: 5 } });
      assert.equal(more.body.auth.num_uses, 2);
      const fewer = await v('POST', 'auth/token/create/limited', { body: { num_uses: 1 } });
      assert.equal(fewer.body.auth.num_uses, 1);
    });

    it('writes issue_time and expire_time as Go does, without trailing fractional zeros', async () => {
      await call(`${t.adminUrl}/clock`, { body: { set: '2026-06-01T00:00:00.500Z' } });
      const res = await v('POST', 'auth/token/create', { body: { ttl: '1h' } });
      const looked = await v('POST', 'auth/token/lookup', { body: { token: res.body.auth.client_token } });
      assert.equal(looked.body.data.issue_time, '2026-06-01T00:00:00.5Z');
      assert.equal(looked.body.data.expire_time, '2026-06-01T01:00:00.5Z');
    });
  });
}
