// Random bodies against every write endpoint of the access half: never a 500, and a rejected write changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { TestRuntime } from '../helpers/runtime.ts';
import { api, DATABASES, startSecrets, type Api } from './token-harness.ts';

const FIELDS = [
  'policies', 'ttl', 'explicit_max_ttl', 'period', 'num_uses', 'renewable', 'no_parent', 'meta', 'display_name', 'id', 'type',
  'password', 'token_policies', 'token_ttl', 'token_max_ttl', 'token_num_uses', 'token_type', 'allowed_policies', 'orphan',
  'path_suffix', 'secret_id_num_uses', 'secret_id_ttl', 'bind_secret_id', 'metadata', 'role_id', 'secret_id', 'policy',
  'rules', 'paths', 'token', 'accessor', 'increment', 'options', 'config', 'description',
];

const value = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('1h', '-5', 'true', 'x,y', '', '{}', '{"a":1}', 'path "x" {', 'root', 'default'),
  fc.integer({ min: -1000, max: 100000 }),
  fc.double({ noNaN: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxKeys: 2 }),
);
const body = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 4 });

const ENDPOINTS = [
  'auth/token/create',
  'auth/token/create-orphan',
  'auth/token/roles/fuzz',
  'auth/token/lookup',
  'auth/token/renew',
  'auth/token/revoke-accessor',
  'auth/userpass/users/fuzz',
  'auth/userpass/login/fuzz',
  'auth/approle/role/fuzz',
  'auth/approle/role/fixed/secret-id',
  'auth/approle/login',
  'sys/policies/acl/fuzz',
  'sys/policy/fuzz',
  'sys/capabilities-self',
  'sys/auth/fuzz',
  'sys/audit/fuzz',
];

for (const database of DATABASES) {
  describe(`bad input to the access endpoints (${database})`, () => {
    let t: TestRuntime;
    let v: Api;
    before(async () => {
      t = await startSecrets(database);
      v = api(t);
      await v('POST', 'sys/auth/userpass', { body: { type: 'userpass' } });
      await v('POST', 'sys/auth/approle', { body: { type: 'approle' } });
      await v('POST', 'auth/approle/role/fixed', { body: { token_policies: 'default' } });
    });
    after(async () => t.close());

    it('never answers 500', async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ENDPOINTS), body, async (path, data) => {
          const res = await v('POST', path, { body: data });
          assert.ok(res.status < 500, `${path} ${JSON.stringify(data)} -> ${res.status} ${res.text}`);
          if (res.status >= 400) assert.ok(Array.isArray(res.body.errors), res.text);
        }),
        { numRuns: 150 },
      );
    });

    it('leaves stored items unchanged after rejected writes', async () => {
      await v('POST', 'auth/userpass/users/keep', { body: { password: 'pw', token_ttl: 60, token_policies: 'a' } });
      await v('PUT', 'sys/policies/acl/keep', { body: { policy: 'path "k/*" { capabilities = ["read"] }' } });
      const snapshot = async () => [(await v('GET', 'auth/userpass/users/keep')).text.replace(/"request_id":"[^"]+"/, ''), (await v('GET', 'sys/policies/acl/keep')).body.data];
      const before = await snapshot();
      await fc.assert(
        fc.asyncProperty(body, async (data) => {
          const a = await v('POST', 'auth/userpass/users/keep', { body: { ...data, token_ttl: 'not a duration' } });
          assert.equal(a.status, 400);
          const b = await v('PUT', 'sys/policies/acl/keep', { body: { policy: `path "x" { capabilities = ["${'bogus'}"] } ${JSON.stringify(data).slice(0, 10)}` } });
          assert.equal(b.status, 400);
        }),
        { numRuns: 25 },
      );
      assert.deepEqual(await snapshot(), before);
    });
  });
}
