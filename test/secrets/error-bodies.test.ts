// Error bodies as Vault writes them: its HTTP-layer handlers refuse another verb with no text; the core wraps an
// error a backend returns without a response (unknown path, unknown operation) in go-multierror text; a mount
// without a type is refused with the system backend's message and mounts nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestRuntime } from '../helpers/runtime.ts';
import { api, DATABASES, DENIED, startSecrets, type Api } from './token-harness.ts';

const UNSUPPORTED_PATH = '1 error occurred:\n\t* unsupported path\n\n';
const UNSUPPORTED_OPERATION = '1 error occurred:\n\t* unsupported operation\n\n';

for (const database of DATABASES) {
  describe(`secrets error bodies (${database})`, () => {
    let t: TestRuntime;
    let v: Api;
    before(async () => {
      t = await startSecrets(database);
      v = api(t);
    });
    after(async () => t.close());

    it('answers another verb on the HTTP-layer sys handlers with 405 and no error text, before any token check', async () => {
      for (const [method, path, token] of [
        ['POST', 'sys/seal-status', null],
        ['DELETE', 'sys/health', null],
        ['GET', 'sys/unseal', null],
        ['PUT', 'sys/leader', null],
        ['DELETE', 'sys/init', null],
        ['GET', 'sys/seal', null],
        ['GET', 'sys/seal', undefined],
        ['GET', 'sys/step-down', undefined],
        ['DELETE', 'sys/generate-root/update', undefined],
        ['GET', 'sys/rekey/update', undefined],
      ] as const) {
        const res = await v(method, path, { token, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
        assert.deepEqual([res.status, res.body], [405, { errors: [] }], `${method} ${path}`);
      }
      const status = await v('GET', 'sys/seal-status', { token: null });
      assert.equal(status.body.sealed, false, 'GET sys/seal did not seal');
    });

    it('wraps an operation a served path lacks in go-multierror text', async () => {
      for (const [method, path] of [
        ['LIST', 'secret/data/x'],
        ['GET', 'auth/token/create'],
        ['DELETE', 'auth/token/lookup-self'],
        ['DELETE', 'sys/policies/acl'],
      ] as const) {
        const res = await v(method, path);
        assert.deepEqual([res.status, res.body], [405, { errors: [UNSUPPORTED_OPERATION] }], `${method} ${path}`);
      }
    });

    it('wraps a path no backend serves inside a mount, sys/ included, and keeps authorisation first', async () => {
      assert.equal((await v('POST', 'sys/auth/userpass', { body: { type: 'userpass' } })).status, 204);
      for (const path of ['sys/no-such-route', 'auth/token/no-such-route', 'auth/userpass/no-such-route']) {
        const res = await v('GET', path);
        assert.deepEqual([res.status, res.body], [404, { errors: [UNSUPPORTED_PATH] }], path);
      }
      const other = await v('GET', 'nomount/x');
      assert.deepEqual([other.status, other.body], [404, { errors: ['no handler for route "nomount/x". route entry not found.'] }], 'outside every mount');
      const plain = (await v('POST', 'auth/token/create', { body: { policies: ['default'] } })).body.auth.client_token;
      const denied = await v('GET', 'sys/no-such-route', { token: plain });
      assert.deepEqual([denied.status, denied.body], [403, { errors: [DENIED] }], 'a token without access learns nothing');
    });

    it('refuses a secrets engine without a type as Vault does and mounts nothing', async () => {
      for (const body of [{}, { type: '' }, { description: 'no type' }]) {
        const res = await v('POST', 'sys/mounts/untyped', { body });
        assert.deepEqual([res.status, res.body], [400, { errors: ['backend type must be specified as a string'] }], JSON.stringify(body));
      }
      const mounts = await v('GET', 'sys/mounts');
      assert.equal(mounts.body.data['untyped/'], undefined);
      assert.equal((await v('GET', 'sys/mounts/untyped')).status, 400, 'nothing was mounted');
    });
  });
}
