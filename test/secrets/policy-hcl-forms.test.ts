// Policy text as Vault's HCL 1 parser reads it, through HTTP: parameter maps written as blocks mean what the attribute
// form means, a path given twice in one policy merges, and the reserved policy names cannot be written or deleted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestRuntime } from '../helpers/runtime.ts';
import { api, DATABASES, DENIED, startSecrets, type Api } from './token-harness.ts';

const BLOCK_FORM = `
path "kv/block/*" {
  capabilities = ["create", "update"]
  allowed_parameters {
    "foo" = []
    "bar" = ["zip", "zap"]
  }
}
path "kv/block-deny/*" {
  capabilities = ["create", "update"]
  denied_parameters { "secret" = [] }
}
`;

const ATTRIBUTE_FORM = `
path "kv/attr/*" {
  capabilities = ["create", "update"]
  allowed_parameters = {
    "foo" = []
    "bar" = ["zip", "zap"]
  }
}
path "kv/attr-deny/*" {
  capabilities = ["create", "update"]
  denied_parameters = { "secret" = [] }
}
`;

const TWICE = `
path "kv/twice/*" { capabilities = ["read"] }
path "kv/twice/*" {
  capabilities = ["create"]
  denied_parameters {
    "secret" = []
  }
}
`;

for (const database of DATABASES) {
  describe(`policy HCL forms (${database})`, () => {
    let t: TestRuntime;
    let v: Api;
    const tokenWith = async (policy: string) => (await v('POST', 'auth/token/create', { body: { policies: [policy] } })).body.auth.client_token as string;
    before(async () => {
      t = await startSecrets(database);
      v = api(t);
      assert.equal((await v('POST', 'sys/mounts/kv', { body: { type: 'kv', options: { version: '1' } } })).status, 204);
    });
    after(async () => t.close());

    it('reads parameter maps written as blocks as it reads them written as attributes', async () => {
      assert.equal((await v('PUT', 'sys/policies/acl/blocks', { body: { policy: BLOCK_FORM } })).status, 204);
      assert.equal((await v('PUT', 'sys/policy/attributes', { body: { policy: ATTRIBUTE_FORM } })).status, 204);
      assert.equal((await v('GET', 'sys/policies/acl/blocks')).body.data.policy, BLOCK_FORM, 'the text reads back as written');
      const tokens = { block: await tokenWith('blocks'), attr: await tokenWith('attributes') };
      const cases: Array<[string, Record<string, unknown>, number]> = [
        ['', { foo: 'anything' }, 204],
        ['', { bar: 'zap' }, 204],
        ['', { foo: 1, bar: 'zip' }, 204],
        ['', { bar: 'other' }, 403],
        ['', { baz: 'x' }, 403],
        ['-deny', { ok: 'x' }, 204],
        ['-deny', { ok: 'x', secret: 'y' }, 403],
      ];
      for (const form of ['block', 'attr'] as const) {
        for (const [suffix, body, status] of cases) {
          const res = await v('POST', `kv/${form}${suffix}/k`, { token: tokens[form], body });
          assert.equal(res.status, status, `${form}${suffix} ${JSON.stringify(body)}`);
          if (status === 403) assert.deepEqual(res.body, { errors: [DENIED] });
        }
      }
      assert.equal((await v('GET', 'kv/block/k')).body.data.foo, 1, 'the last allowed write is the one kept');
    });

    it('merges a path given twice in one policy, as Vault merges rules for one path', async () => {
      assert.equal((await v('PUT', 'sys/policies/acl/twice', { body: { policy: TWICE } })).status, 204);
      const token = await tokenWith('twice');
      assert.equal((await v('POST', 'kv/twice/k', { token, body: { a: 'b' } })).status, 204);
      assert.deepEqual((await v('GET', 'kv/twice/k', { token })).body.data, { a: 'b' });
      const denied = await v('POST', 'kv/twice/other', { token, body: { secret: 'x' } });
      assert.deepEqual([denied.status, denied.body], [403, { errors: [DENIED] }]);
      assert.equal((await v('GET', 'kv/twice/other')).status, 404, 'the refused write wrote nothing');
    });

    it('refuses a bad parameter block with the parser error and keeps the policy as it was', async () => {
      assert.equal((await v('PUT', 'sys/policies/acl/kept', { body: { policy: BLOCK_FORM } })).status, 204);
      const cases: Array<[string, string]> = [
        ['path "kv/x/*" {\n  allowed_parameters { "foo" = "bar" }\n}', 'failed to parse policy: path "kv/x/*": allowed_parameters.foo must be a list'],
        ['path "kv/x/*" {\n  denied_parameters {\n    "foo" = [] "bar"\n  }\n}', 'failed to parse policy: [policy.hcl:3,16-17: Missing attribute separator; Expected a newline or comma to mark the beginning of the next attribute.]'],
      ];
      for (const [policy, error] of cases) {
        const res = await v('PUT', 'sys/policies/acl/kept', { body: { policy } });
        assert.deepEqual([res.status, res.body], [400, { errors: [error] }], policy);
      }
      assert.equal((await v('GET', 'sys/policies/acl/kept')).body.data.policy, BLOCK_FORM);
    });

    it('refuses to write or delete the response-wrapping policy, as it refuses root', async () => {
      const before = (await v('GET', 'sys/policy/response-wrapping')).body.data.rules;
      for (const path of ['sys/policy/response-wrapping', 'sys/policies/acl/response-wrapping', 'sys/policies/acl/Response-Wrapping']) {
        const res = await v('PUT', path, { body: { policy: 'path "secret/*" { capabilities = ["read"] }' } });
        assert.deepEqual([res.status, res.body], [400, { errors: ['cannot update "response-wrapping" policy'] }], path);
      }
      const deleted = await v('DELETE', 'sys/policies/acl/response-wrapping');
      assert.deepEqual([deleted.status, deleted.body], [400, { errors: ['cannot delete "response-wrapping" policy'] }]);
      assert.equal((await v('GET', 'sys/policy/response-wrapping')).body.data.rules, before, 'the fixed policy is unchanged');
      assert.ok(!(await v('LIST', 'sys/policies/acl')).body.data.keys.includes('response-wrapping'), 'nothing was stored');
    });
  });
}
