// Names a request or a policy chooses that Object.prototype also holds (`constructor`, `toString`, `valueOf`,
// `__proto__`): each is an ordinary, unknown name, answered as any other unknown name is, through HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { startSecrets, vault } from './helpers.ts';
import { DENIED } from './token-harness.ts';

const INHERITED = ['constructor', 'toString', 'valueOf', '__proto__'];
const WRITER = '"create", "update", "read"';

/** Policies on the KV v1 mount `kv1/`, each restricting the parameters of writes one way. */
const POLICIES: Record<string, string> = {
  'allow-a': `path "kv1/*" {\n capabilities = [${WRITER}]\n allowed_parameters = { "a" = [] }\n}`,
  'deny-named': `path "kv1/*" {\n capabilities = [${WRITER}]\n denied_parameters = { "secret" = [] }\n}`,
  // JSON text: in a JavaScript literal `__proto__` would set the prototype instead of naming a key
  'allow-proto': `{"path": {"kv1/*": {"capabilities": [${WRITER}], "allowed_parameters": {"__proto__": []}}}}`,
  'deny-proto': `path "kv1/*" {\n capabilities = [${WRITER}]\n denied_parameters = { "__proto__" = [] }\n}`,
};

for (const database of DATABASES) {
  describe(`names Object.prototype holds (${database})`, () => {
    let t: TestRuntime;
    let v: ReturnType<typeof vault>;
    const tokens: Record<string, string> = {};

    before(async () => {
      t = await startSecrets(database);
      v = vault(t);
      assert.equal((await v('sys/mounts/kv1', { body: { type: 'kv' } })).status, 204);
      for (const [name, policy] of Object.entries(POLICIES)) {
        const res = await v(`sys/policies/acl/${name}`, { method: 'PUT', body: { policy } });
        assert.equal(res.status, 204, res.text);
      }
      for (const policies of [['allow-a'], ['deny-named'], ['allow-proto'], ['deny-proto'], ['deny-named', 'deny-proto']]) {
        const res = await v('auth/token/create', { body: { policies } });
        assert.equal(res.status, 200, res.text);
        tokens[policies.join('+')] = res.body.auth.client_token;
      }
    });
    after(async () => t.close());

    /** Writes one field to `kv1/<path>` as JSON, or as a form body (the only way a `__proto__` key arrives). */
    const write = (path: string, token: string, name: string, value: unknown) =>
      name === '__proto__'
        ? v(`kv1/${path}`, { method: 'PUT', token, raw: `${name}=${String(value)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
        : v(`kv1/${path}`, { method: 'PUT', token, body: { [name]: value } });

    const assertDenied = (res: { status: number; body: unknown }) => assert.deepEqual([res.status, res.body], [403, { errors: [DENIED] }]);
    const assertNothingAt = async (path: string) => assert.equal((await v(`kv1/${path}`)).status, 404);

    it('hashes only with the algorithms it knows', async () => {
      const input = Buffer.from('hello').toString('base64');
      for (const name of [...INHERITED, 'bogus']) {
        for (const res of [await v(`sys/tools/hash/${name}`, { body: { input } }), await v('sys/tools/hash', { body: { algorithm: name, input } })]) {
          assert.deepEqual([res.status, res.body], [400, { errors: [`unsupported algorithm ${name}`] }]);
        }
      }
    });

    it('refuses a legacy `policy` value that is no capability set, in HCL and JSON', async () => {
      for (const name of [...INHERITED, 'all']) {
        for (const policy of [`path "a" { policy = "${name}" }`, JSON.stringify({ path: { a: { policy: name } } })]) {
          const res = await v('sys/policies/acl/legacy', { method: 'PUT', body: { policy } });
          assert.deepEqual([res.status, res.body], [400, { errors: [`failed to parse policy: path "a": invalid policy "${name}"`] }]);
          assert.equal((await v('sys/policies/acl/legacy')).status, 404);
        }
      }
    });

    it('refuses fields outside allowed_parameters, whatever their name or value', async () => {
      const token = tokens['allow-a']!;
      assert.equal((await write('allowed', token, 'a', '1')).status, 204);
      for (const name of [...INHERITED, 'other']) {
        for (const value of [[], 'x']) {
          if (name === '__proto__' && Array.isArray(value)) continue; // a form body carries strings only
          assertDenied(await write('refused', token, name, value));
        }
      }
      await assertNothingAt('refused');
    });

    it('lets fields through that denied_parameters does not name', async () => {
      const token = tokens['deny-named']!;
      for (const name of ['constructor', 'toString', 'valueOf']) {
        assert.equal((await write(name, token, name, 'x')).status, 204);
        assert.deepEqual((await v(`kv1/${name}`)).body.data, { [name]: 'x' });
      }
      assertDenied(await write('secret', token, 'secret', 'x'));
      await assertNothingAt('secret');
    });

    it('keeps a policy parameter named __proto__ as a restriction', async () => {
      // allowed_parameters = { "__proto__" = [] } allows that one name, not every name
      assertDenied(await write('proto-allowed', tokens['allow-proto']!, 'other', 'x'));
      await assertNothingAt('proto-allowed');
      // denied_parameters = { "__proto__" = [] } denies that name, alone or merged into another policy's list (rules
      // for one path merge in the order of the sorted policy names: deny-named's map first, then deny-proto's)
      for (const token of [tokens['deny-proto']!, tokens['deny-named+deny-proto']!]) {
        assertDenied(await write('proto-denied', token, '__proto__', 'x'));
        await assertNothingAt('proto-denied');
      }
      assert.equal((await write('proto-other', tokens['deny-proto']!, 'other', 'x')).status, 204);
    });

    it('answers capabilities for every path asked, in data and at the top level', async () => {
      const self = await v('auth/token/lookup-self');
      const asks: Array<[string, Record<string, unknown>]> = [
        ['sys/capabilities-self', {}],
        ['sys/capabilities', { token: self.body.data.id }],
        ['sys/capabilities-accessor', { accessor: self.body.data.accessor }],
      ];
      for (const [endpoint, who] of asks) {
        for (const paths of [INHERITED, ['constructor'], ['__proto__']]) {
          const res = await v(endpoint, { body: { ...who, paths } });
          assert.equal(res.status, 200, res.text);
          const expected = [...paths.map((p) => [p, ['root']]), ...(paths.length === 1 ? [['capabilities', ['root']]] : [])];
          assert.deepEqual(Object.entries(res.body.data), expected, endpoint);
          const names = new Set(expected.map(([p]) => p));
          assert.deepEqual(Object.entries(res.body).filter(([k]) => names.has(k)), expected, `${endpoint}: top level`);
        }
      }
    });
  });
}
