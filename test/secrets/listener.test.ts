import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { ROOT, startSecrets, vault } from './helpers.ts';

/** A throwaway self-signed certificate, or undefined when openssl is not installed. */
function selfSigned(): { cert: string; key: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'secrets-tls-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem'), '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
    return { cert: readFileSync(join(dir, 'c.pem'), 'utf8'), key: readFileSync(join(dir, 'k.pem'), 'utf8') };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const database of DATABASES) {
  describe(`secrets listener options and data at rest (${database})`, () => {
    let t: TestRuntime;
    let v: ReturnType<typeof vault>;
    before(async () => {
      t = await startSecrets(database, { maxRequestSize: 4096, requireRequestHeader: true });
      v = vault(t);
    });
    after(async () => t.close());
    const withHeader = { 'x-secrets-request': 'true' };

    it('requires X-Secrets-Request (or X-Vault-Request) when configured', async () => {
      let res = await v('secret/data/a');
      assert.equal(res.status, 412);
      assert.deepEqual(res.body, { errors: ['missing "X-Secrets-Request" header'] });
      res = await v('secret/data/a', { body: { data: { a: 1 } }, headers: { 'x-vault-request': 'true' } });
      assert.equal(res.status, 200);
    });

    it('refuses bodies over the configured size with 413 and stores nothing', async () => {
      const res = await v('secret/data/big', { body: { data: { blob: 'x'.repeat(5000) } }, headers: withHeader });
      assert.equal(res.status, 413);
      assert.deepEqual(res.body, { errors: ['http: request body too large'] });
      assert.equal((await v('secret/data/big', { headers: withHeader })).status, 404);
    });

    it('applies CORS from sys/config/cors', async () => {
      let res = await v('sys/config/cors', { headers: withHeader });
      assert.equal(res.body.data.enabled, false);
      res = await v('sys/config/cors', { body: {}, headers: withHeader });
      assert.equal(res.status, 400);
      res = await v('sys/config/cors', { body: { allowed_origins: 'https://a.example, https://b.example', allowed_headers: 'X-Custom' }, headers: withHeader });
      assert.equal(res.status, 204);
      res = await v('sys/config/cors', { headers: withHeader });
      assert.deepEqual(res.body.data.allowed_origins, ['https://a.example', 'https://b.example']);
      assert.ok(res.body.allowed_headers.includes('X-Custom'));
      res = await v('secret/data/a', { headers: { ...withHeader, origin: 'https://evil.example' } });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, { errors: ['origin not allowed'] });
      res = await v('secret/data/a', { headers: { ...withHeader, origin: 'https://a.example' } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('access-control-allow-origin'), 'https://a.example');
      res = await v('secret/data/a', { method: 'OPTIONS', token: null, headers: { ...withHeader, origin: 'https://b.example', 'access-control-request-method': 'LIST' } });
      assert.equal(res.status, 204);
      assert.match(res.headers.get('access-control-allow-methods') ?? '', /LIST/);
      assert.equal((await v('sys/config/cors', { method: 'DELETE', headers: withHeader })).status, 204);
      res = await v('secret/data/a', { headers: { ...withHeader, origin: 'https://evil.example' } });
      assert.equal(res.status, 200);
    });

    it('keeps no secret value or token in clear in the database', async () => {
      const marker = 'plaintext-marker-7f3c9a';
      await v('secret/data/hidden', { body: { data: { password: marker } }, headers: withHeader });
      await v('secret/metadata/hidden', { body: { custom_metadata: { note: marker } }, headers: withHeader });
      let dump: Buffer;
      if (database === 'sqlite') {
        const files = readdirSync(t.dataDir).filter((f) => f.startsWith('test.db'));
        dump = Buffer.concat(files.map((f) => readFileSync(join(t.dataDir, f))));
      } else {
        const schema = new URL(t.rt.options.databaseUrl).searchParams.get('schema')!;
        const client = new pg.Client({ connectionString: process.env.TWINSTACK_TEST_DATABASE_URL });
        await client.connect();
        const rows = await client.query(`SELECT path, encode(value, 'escape') AS value FROM ${schema}.secrets_entries`);
        await client.end();
        dump = Buffer.from(JSON.stringify(rows.rows));
      }
      assert.ok(dump.length > 0);
      assert.equal(dump.includes(marker), false, 'secret value in clear');
      assert.equal(dump.includes(ROOT), false, 'root token in clear');
    });
  });
}

describe('secrets listener over TLS', () => {
  const tls = selfSigned();
  let t: TestRuntime | undefined;
  before(async () => {
    if (tls) t = await startSecrets('sqlite', { tls });
  });
  after(async () => t?.close());

  it('serves HTTPS with the configured certificate, LIST included', { skip: !tls && 'openssl is not installed' }, async () => {
    const url = new URL(t!.url('secrets'));
    assert.equal(url.protocol, 'https:', 'the runtime reports the scheme the listener really serves');
    const get = (method: string, path: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, method, path, rejectUnauthorized: false, headers: { 'x-vault-token': ROOT } }, (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
        });
        req.on('error', reject);
        req.end();
      });
    assert.equal((await get('GET', '/v1/sys/health')).status, 200);
    const res = await get('LIST', '/v1/sys/namespaces');
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { errors: [] });
  });
});
