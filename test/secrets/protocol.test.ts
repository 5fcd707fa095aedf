import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import nodeVault from 'node-vault';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { ROOT, startSecrets, vault } from './helpers.ts';

/** Sends raw bytes on one connection and collects what comes back until `responses` status lines arrived. */
function rawExchange(url: string, bytes: string, responses: number): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.on('data', (d) => {
      text += d.toString('latin1');
      if ((text.match(/HTTP\/1\.1 \d{3}/g) ?? []).length >= responses && /\r\n\r\n/.test(text)) {
        setTimeout(() => {
          socket.destroy();
          resolve(text);
        }, 50);
      }
    });
    socket.on('error', reject);
    socket.write(bytes);
  });
}

for (const database of DATABASES) {
  describe(`secrets protocol: verbs, envelope, mounts, namespaces, help (${database})`, () => {
    let t: TestRuntime;
    let v: ReturnType<typeof vault>;
    before(async () => {
      t = await startSecrets(database);
      v = vault(t);
      await v('secret/data/a/b', { body: { data: { x: 1 } } });
    });
    after(async () => t.close());

    it('decodes escaped paths, refuses segments ending in a dot and non-printable characters', async () => {
      const get = (path: string) => call(`${t.url('secrets')}/v1/${path}`, { headers: { 'x-secrets-token': ROOT } });
      const escaped = await get('secret/data/a%2Fb');
      assert.equal(escaped.status, 200, escaped.text);
      assert.equal(escaped.body.data.data.x, 1, 'a%2Fb names a/b');
      assert.equal((await get('secret/data/a/b?')).body.data.data.x, 1, 'an empty query is no query');
      for (const path of ['secret/data/x.', 'secret/data/x%2E', 'secret/data/a./b']) {
        const res = await get(path);
        assert.equal(res.status, 404, path);
        assert.deepEqual(res.body, { errors: ['unsupported path'] }, path);
      }
      const dotted = await get('secret/data/a.b');
      assert.equal(dotted.status, 404, 'a dot inside a segment is a path like any other');
      assert.deepEqual(dotted.body, { errors: [] });
      const control = await get('secret/data/a%01');
      assert.equal(control.status, 400);
      assert.deepEqual(control.body, { errors: ['path cannot contain non-printable characters'] });
    });

    it('accepts LIST, HELP and pipelined requests on one keep-alive connection', async () => {
      // Pipelined requests are parsed together and may run concurrently, so the write replaces a key both lists
      // show either way instead of adding one.
      const body = JSON.stringify({ data: { y: 'LIST /v1/secret/metadata/ HTTP/1.1\r\n\r\n' } });
      const text = await rawExchange(
        t.url('secrets'),
        `LIST /v1/secret/metadata/ HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${ROOT}\r\n\r\n` +
          `POST /v1/secret/data/a/b HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${ROOT}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` +
          `LIST /v1/secret/metadata/a HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${ROOT}\r\n\r\n`,
        3,
      );
      const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
      assert.deepEqual(statuses, ['200', '200', '200']);
      assert.match(text, /"keys":\["a\/"\]/);
      assert.match(text, /"keys":\["b"\]/);
      const help = await rawExchange(t.url('secrets'), `HELP /v1/secret/data/a HTTP/1.1\r\nHost: x\r\nX-Vault-Token: ${ROOT}\r\n\r\n`, 1);
      assert.match(help, /^HTTP\/1\.1 200/);
      assert.match(help, /"openapi"/);
    });

    it('sets Vault response headers and renders the envelope with nulls; 204 without a body', async () => {
      let res = await v('secret/data/a/b');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      assert.deepEqual(Object.keys(res.body).sort(), ['auth', 'data', 'lease_duration', 'lease_id', 'mount_type', 'renewable', 'request_id', 'warnings', 'wrap_info']);
      assert.equal(res.body.auth, null);
      assert.equal(res.body.warnings, null);
      res = await v('secret/metadata/a/b', { body: { max_versions: 3 } });
      assert.equal(res.status, 204);
      assert.equal(res.text, '');
      res = await v('secret/data/a/b', { token: 'wrong' });
      assert.equal(res.status, 403);
      assert.match(res.body.errors[0], /\* permission denied\n/);
      res = await call(`${t.url('secrets')}/v2/secret`);
      assert.equal(res.status, 404);
      assert.deepEqual(res.body, { errors: [] });
      res = await v('secret/data/a/b?list=maybe');
      assert.equal(res.status, 400);
      res = await v('secret/data/a/b', { headers: { authorization: `Bearer ${ROOT}` }, token: null });
      assert.equal(res.status, 200, 'Authorization: Bearer works');
      res = await v('sys/seal-status', { method: 'POST', body: {} });
      assert.deepEqual([res.status, res.body.errors], [405, []], 'an HTTP-layer handler refuses other verbs without text');
      res = await v('secret/data/a/b', { method: 'OPTIONS' });
      assert.equal(res.status, 405, 'OPTIONS without CORS enabled');
      res = await v('secret/data/a/b', { method: 'HEAD' });
      assert.equal(res.status, 200);
      assert.equal(res.text, '');
      res = await v('secret/data/a/b', { method: 'PUT', raw: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(res.status, 400, 'form fields reach the engine (KV v2 wants data)');
      assert.deepEqual(res.body.errors, ['no data provided']);
      res = await v('secret/data/a/b?data=ignored', { method: 'POST', body: { data: { from: 'body' } } });
      assert.equal(res.status, 200, 'POST reads the body only');
    });

    it('enables, tunes, remounts and disables engines; conflicts and bad types are refused', async () => {
      let res = await v('sys/mounts/team', { body: { type: 'kv-v2', description: 'team', config: { default_lease_ttl: '1h' } } });
      assert.equal(res.status, 204);
      res = await v('sys/mounts');
      assert.deepEqual(res.body.data['team/'].options, { version: '2' });
      assert.equal(res.body.data['team/'].config.default_lease_ttl, 3600);
      res = await v('sys/mounts/team', { body: { type: 'kv' } });
      assert.equal(res.status, 409);
      assert.deepEqual(res.body, { errors: ['path is already in use at team/'] });
      res = await v('sys/mounts/team/sub', { body: { type: 'kv' } });
      assert.equal(res.status, 409);
      res = await v('sys/mounts/other', { body: { type: 'nosuch' } });
      assert.equal(res.status, 400);
      res = await v('sys/mounts/other', { body: {} });
      assert.equal(res.status, 400);
      res = await v('sys/mounts/sys', { body: { type: 'kv' } });
      assert.equal(res.status, 400);
      assert.equal((await v('sys/mounts/other')).status, 400, 'nothing was mounted by rejected calls');

      await v('team/data/k', { body: { data: { a: 1 } } });
      res = await v('sys/mounts/team/tune', { body: { max_lease_ttl: '2h', description: 'tuned' } });
      assert.equal(res.status, 204);
      res = await v('sys/mounts/team/tune');
      assert.equal(res.body.data.max_lease_ttl, 7200);
      assert.equal(res.body.data.description, 'tuned');
      res = await v('sys/remount', { body: { from: 'team', to: 'squad' } });
      assert.equal(res.status, 200);
      res = await v(`sys/remount/status/${res.body.data.migration_id}`);
      assert.equal(res.body.data.migration_info.status, 'success');
      assert.equal(res.body.data.migration_info.target_mount, 'squad/');
      assert.deepEqual((await v('squad/data/k')).body.data.data, { a: 1 });
      assert.equal((await v('team/data/k')).status, 404);

      await v('sys/mounts/legacy', { body: { type: 'kv' } });
      await v('legacy/x', { body: { a: 1 } });
      res = await v('sys/mounts/legacy/tune', { body: { options: { version: '2' } } });
      assert.equal(res.status, 204);
      res = await v('sys/internal/ui/mounts/legacy/x');
      assert.equal(res.body.data.options.version, '2');
      assert.equal(res.body.data.path, 'legacy/');

      assert.equal((await v('sys/mounts/squad', { method: 'DELETE' })).status, 204);
      assert.equal((await v('squad/data/k')).status, 404);
      assert.equal((await v('sys/mounts/squad', { method: 'DELETE' })).status, 204);
    });

    it('works with node-vault sys commands (mounts, mount, remount, unmount, health, help, list without LIST)', async () => {
      const client = nodeVault({ endpoint: t.url('secrets'), token: ROOT });
      await client.mount({ mount_point: 'nv', type: 'kv', description: 'from node-vault' });
      const mounts = await client.mounts();
      assert.equal(mounts['nv/'].description, 'from node-vault');
      await client.write('nv/one', { a: 1 });
      await client.remount({ from: 'nv', to: 'nv2' });
      assert.deepEqual((await client.read('nv2/one')).data, { a: 1 });
      const plain = nodeVault({ endpoint: t.url('secrets'), token: ROOT, noCustomHTTPVerbs: true });
      assert.deepEqual((await plain.list('nv2/')).data.keys, ['one']);
      await client.unmount({ mount_point: 'nv2' });
      await assert.rejects(client.read('nv2/one'), (err: any) => err.response.statusCode === 404);
      const health = await client.health({ sealedcode: 299 });
      assert.equal(health.sealed, false);
      const help = await client.help('secret/data/x');
      assert.equal(typeof help.help, 'string');
    });

    it('serves sys/internal/ui/mounts the way vault kv detects versions', async () => {
      let res = await v('sys/internal/ui/mounts/secret/app/x');
      assert.equal(res.status, 200);
      assert.equal(res.body.data.path, 'secret/');
      assert.equal(res.body.data.options.version, '2');
      assert.equal(res.body.data.type, 'kv');
      res = await v('sys/internal/ui/mounts/nothing/here');
      assert.equal(res.status, 403);
      assert.match(res.body.errors[0], /^preflight capability check returned 403/);
      res = await v('sys/internal/ui/mounts/secret/x', { token: null });
      assert.equal(res.status, 403);
      res = await v('sys/internal/ui/mounts', { token: null });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data.secret, {});
    });

    it('lets a policy-bound token detect the KV version of a path it may read; denies what it may not', async () => {
      await v('sys/policies/acl/reader', { method: 'PUT', body: { policy: 'path "secret/data/app/*" { capabilities = ["read"] }' } });
      const token = (await v('auth/token/create', { body: { policies: ['reader'] } })).body.auth.client_token;
      await v('secret/data/app/one', { body: { data: { a: 1 } } });
      let res = await v('sys/internal/ui/mounts/secret/app/one', { token });
      assert.equal(res.status, 200);
      assert.equal(res.body.data.options.version, '2');
      await v('sys/mounts/private', { body: { type: 'kv' } });
      res = await v('sys/internal/ui/mounts/private/x', { token });
      assert.equal(res.status, 403, 'no capability anywhere under the mount');
      res = await v('sys/internal/ui/mounts/nothing/x', { token });
      assert.equal(res.status, 403);
      assert.deepEqual((await v('secret/data/app/one', { token })).body.data.data, { a: 1 });
      res = await v('secret/data/app/one', { token, body: { data: { a: 2 } } });
      assert.equal(res.status, 403);
      res = await v('nothing/mounted/here', { token });
      assert.equal(res.status, 403, 'a non-root token learns nothing about unmounted paths');
    });

    it('answers lease calls as Vault does for unknown leases (no engine issues leases)', async () => {
      let res = await v('sys/leases/renew', { method: 'PUT', body: { lease_id: 'secret/x/abc' } });
      assert.deepEqual([res.status, res.body.errors], [400, ['lease not found']]);
      res = await v('sys/leases/lookup', { method: 'PUT', body: { lease_id: 'secret/x/abc' } });
      assert.deepEqual([res.status, res.body.errors], [400, ['invalid lease']]);
      res = await v('sys/leases/revoke', { method: 'PUT', body: {} });
      assert.deepEqual([res.status, res.body.errors], [400, ['missing lease ID']]);
      assert.equal((await v('sys/leases/revoke', { method: 'PUT', body: { lease_id: 'x' } })).status, 204);
    });

    it('serves sys/tools random and hash', async () => {
      let res = await v('sys/tools/random/16', { body: { format: 'hex' } });
      assert.match(res.body.data.random_bytes, /^[0-9a-f]{32}$/);
      res = await v('sys/tools/hash/sha2-256', { body: { input: Buffer.from('abc').toString('base64') } });
      assert.equal(res.body.data.sum, 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      res = await v('sys/tools/hash', { body: { input: 'abc', format: 'base32' } });
      assert.equal(res.status, 400);
      res = await v('sys/tools/random', { body: { bytes: 0 } });
      assert.equal(res.status, 400);
    });

    it('answers ?help=1 with markdown and an OpenAPI document relative to the path', async () => {
      const res = await v('secret/?help=1');
      assert.equal(res.status, 200);
      assert.equal(typeof res.body.help, 'string');
      assert.equal(res.body.openapi.openapi, '3.0.2');
      assert.ok(res.body.openapi.paths['/data/{path}']);
      const below = await v('secret/data?help=1');
      assert.ok(below.body.openapi.paths['/{path}']);
      assert.equal((await v('secret/?help=1', { token: null })).status, 403);
      const spec = await v('sys/internal/specs/openapi', { token: null });
      assert.equal(spec.status, 200);
      assert.ok(spec.body.data.paths['/secret/data/{path}']);
      assert.ok(spec.body.data.paths['/sys/seal-status']);
    });

    it('scopes everything by namespace, by header or path prefix equally, nested', async () => {
      let res = await v('sys/namespaces/ns1', { body: { custom_metadata: { team: 'a' } } });
      assert.equal(res.status, 200);
      assert.equal(res.body.data.path, 'ns1/');
      assert.equal(res.body.data.id.length, 5);
      res = await v('sys/namespaces/ns2', { body: {}, headers: { 'x-secrets-namespace': 'ns1/' } });
      assert.equal(res.body.data.path, 'ns2/');
      res = await v('sys/namespaces/bad name', { body: {} });
      assert.equal(res.status, 400);
      res = await v('sys/namespaces/sys', { body: {} });
      assert.equal(res.status, 400);
      res = await v('sys/namespaces?list=true');
      assert.deepEqual(res.body.data.keys, ['ns1/']);
      assert.equal(res.body.data.key_info['ns1/'].custom_metadata.team, 'a');

      res = await v('sys/mounts/kvn', { body: { type: 'kv', options: { version: 2 } }, headers: { 'x-vault-namespace': 'ns1/ns2' } });
      assert.equal(res.status, 204);
      res = await v('ns1/ns2/kvn/data/k', { body: { data: { where: 'nested' } } });
      assert.equal(res.status, 200);
      res = await v('ns2/kvn/data/k', { headers: { 'x-secrets-namespace': 'ns1/' } });
      assert.deepEqual(res.body.data.data, { where: 'nested' });
      assert.equal(res.headers.get('x-secrets-namespace'), 'ns1/');
      res = await v('kvn/data/k', { headers: { 'x-secrets-namespace': 'ns1/ns2/' } });
      assert.deepEqual(res.body.data.data, { where: 'nested' });
      assert.equal((await v('kvn/data/k')).status, 404, 'not visible from the root namespace');
      res = await v('sys/internal/ui/mounts/kvn/k', { headers: { 'x-secrets-namespace': 'ns1/ns2/' } });
      assert.equal(res.body.data.path, 'ns1/ns2/kvn/');
      res = await v('sys/health', { headers: { 'x-secrets-namespace': 'ns1/' } });
      assert.deepEqual(res.body, { errors: ['operation unavailable in namespaces'] });

      res = await v('sys/namespaces/ns1', { method: 'DELETE' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.body.errors, ['unable to delete namespace containing child namespaces']);
      res = await v('sys/namespaces/ns2', { method: 'DELETE', headers: { 'x-secrets-namespace': 'ns1/' } });
      assert.equal(res.status, 200);
      assert.equal(res.body.data.status, 'in-progress');
      assert.equal((await v('ns1/ns2/kvn/data/k')).status, 404);
      res = await v('sys/namespaces/ghost', { method: 'DELETE' });
      assert.deepEqual(res.body.warnings, ['requested namespace does not exist']);
    });
  });
}
