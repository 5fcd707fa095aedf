import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DATABASES } from '../helpers/runtime.ts';
import { secretsSuite } from './helpers.ts';

const segment = fc.oneof(
  fc.constantFrom('secret', 'data', 'metadata', 'delete', 'undelete', 'destroy', 'subkeys', 'config', 'sys', 'mounts', 'tune', 'remount', 'namespaces', 'auth', 'token', 'cubbyhole', 'internal', 'ui', 'seal', 'unseal', 'init', 'health', 'key-status', 'rotate', 'cors'),
  fc.stringMatching(/^[a-z0-9._-]{1,8}$/),
);
const jsonValue = fc.jsonValue({ maxDepth: 3 });
const body = fc.oneof(
  fc.dictionary(fc.constantFrom('data', 'options', 'versions', 'type', 'config', 'max_versions', 'cas_required', 'delete_version_after', 'custom_metadata', 'from', 'to', 'key', 'reset', 'secret_shares', 'secret_threshold', 'allowed_origins'), jsonValue),
  jsonValue,
);

for (const database of DATABASES) {
  describe(`secrets never answers 500 to bad input (${database})`, () => {
    const suite = secretsSuite(database);
    const { v } = suite;

    it('answers every generated request with a Vault-format status below 500', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(segment, { minLength: 1, maxLength: 5 }),
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'LIST'),
          body,
          fc.boolean(),
          async (segments, method, payload, merge) => {
            const path = segments.join('/');
            if (/^sys\/(seal|rotate)$/.test(path) || path.startsWith('sys/mounts/secret')) return; // keep the store usable
            const res = await v(path, {
              method: method === 'LIST' ? 'GET' : method,
              raw: method === 'GET' || method === 'LIST' ? undefined : JSON.stringify(payload),
              headers: merge ? { 'content-type': 'application/merge-patch+json' } : {},
            });
            assert.ok(res.status < 500, `${method} ${path} ${JSON.stringify(payload)} -> ${res.status} ${res.text}`);
            if (res.status >= 400) assert.ok(Array.isArray(res.body?.errors), `${method} ${path}: ${res.text}`);
          },
        ),
        { numRuns: 250 },
      );
      assert.equal((await v('sys/seal-status', { token: null })).body.sealed, false);
    });
  });
}
