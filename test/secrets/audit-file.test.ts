// The file audit device: one JSON line per request and per response, sensitive values HMAC'd (never in clear),
// audit-hash agreeing with the log, and requests refused with 500 when the device cannot write.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import nodeVault from 'node-vault';
import type { TestRuntime } from '../helpers/runtime.ts';
import { api, DATABASES, DENIED, ROOT_TOKEN, startSecrets, type Api } from './token-harness.ts';

const SECRET = 'correct-horse-battery-staple';

for (const database of DATABASES) {
  describe(`file audit device (${database})`, () => {
    let t: TestRuntime;
    let v: Api;
    let file: string;
    const lines = () =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    before(async () => {
      t = await startSecrets(database);
      v = api(t);
      file = join(t.dataDir, 'audit.log');
    });
    after(async () => t.close());

    it('refuses bad device definitions and non-sudo callers', async () => {
      for (const [body, error] of [
        [{}, /type is required/],
        [{ type: 'syslog' }, /unknown backend type: "syslog"/],
        [{ type: 'file' }, /file_path is required/],
        [{ type: 'file', options: { file_path: join(t.dataDir, 'no/such/dir/a.log') } }, /failed to enable audit device/],
        [{ type: 'file', options: 'x' }, /invalid map for options/],
      ] as const) {
        const res = await v('PUT', 'sys/audit/file', { body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.match(res.body.errors[0], error);
      }
      const plain = (await v('POST', 'auth/token/create', { body: { policies: ['default'] } })).body.auth.client_token;
      const res = await v('PUT', 'sys/audit/file', { token: plain, body: { type: 'file', options: { file_path: file } } });
      assert.deepEqual(res.body, { errors: [DENIED] });
      assert.deepEqual((await v('GET', 'sys/audit')).body.data, {}, 'nothing was enabled');
    });

    it('enables a device through node-vault and lists it', async () => {
      const client = nodeVault({ endpoint: t.url('secrets'), token: ROOT_TOKEN });
      await client.enableAudit({ name: 'file', type: 'file', options: { file_path: file }, description: 'to disk' });
      const audits = await client.audits();
      assert.deepEqual(audits['file/'], { type: 'file', description: 'to disk', options: { file_path: file }, local: false, path: 'file/' });
      assert.equal(statSync(file).mode & 0o777, 0o600);
    });

    it('writes a request and a response line per call with secrets hashed', async () => {
      const before = lines().length;
      await v('POST', 'secret/data/db', { body: { data: { password: SECRET } } });
      const read = await v('GET', 'secret/data/db');
      assert.equal(read.body.data.data.password, SECRET);
      await v('POST', 'sys/auth/userpass', { body: { type: 'userpass' } });
      await v('POST', 'auth/userpass/users/ann', { body: { password: SECRET } });
      const login = await v('POST', 'auth/userpass/login/ann', { token: null, body: { password: SECRET } });
      const clientToken = login.body.auth.client_token;
      const entries = lines().slice(before);
      assert.equal(entries.length, 10);
      assert.deepEqual(entries.map((e) => e.type), Array(5).fill(['request', 'response']).flat());
      const text = readFileSync(file, 'utf8');
      for (const clear of [SECRET, ROOT_TOKEN, clientToken, login.body.auth.accessor]) assert.ok(!text.includes(clear), `${clear} must not appear`);

      const write = entries[0];
      assert.equal(write.request.path, 'secret/data/db');
      assert.equal(write.request.operation, 'create');
      assert.equal(write.request.mount_type, 'kv');
      assert.match(write.request.client_token, /^hmac-sha256:[0-9a-f]{64}$/);
      assert.match(write.request.data.data.password, /^hmac-sha256:/);
      assert.deepEqual(write.auth.policies, ['root']);
      const readResponse = entries[3];
      assert.equal(readResponse.type, 'response');
      assert.match(readResponse.response.data.data.password, /^hmac-sha256:/);
      assert.match(entries[9].response.auth.client_token, /^hmac-sha256:/);
      assert.deepEqual(entries[9].response.auth.metadata, { username: 'ann' });

      const hash = await v('POST', 'sys/audit-hash/file', { body: { input: SECRET } });
      assert.equal(hash.body.data.hash, write.request.data.data.password, 'audit-hash gives what the log holds');
    });

    it('logs refused requests with their error', async () => {
      const before = lines().length;
      const res = await v('GET', 'secret/data/db', { token: 'hvs.nonsense' });
      assert.equal(res.status, 403);
      const entries = lines().slice(before);
      assert.deepEqual(entries.map((e) => e.type), ['request', 'response']);
      assert.equal(entries[1].request.path, 'secret/data/db');
      assert.match(entries[1].error, /permission denied/);
      assert.match(entries[1].request.client_token, /^hmac-sha256:/);
      assert.ok(!readFileSync(file, 'utf8').includes('hvs.nonsense'));
    });

    it('fails requests with 500 when the device cannot write, and changes nothing', async () => {
      rmSync(file);
      mkdirSync(file); // appending to a directory fails
      const res = await v('POST', 'secret/data/db', { body: { data: { password: 'changed' } } });
      assert.equal(res.status, 500);
      assert.deepEqual(res.body, { errors: ['internal error'] });
      rmSync(file, { recursive: true });
      const read = await v('GET', 'secret/data/db');
      assert.equal(read.status, 200);
      assert.equal(read.body.data.data.password, SECRET, 'the unaudited write never happened');
      assert.equal(lines().length, 2, 'the device writes again once the path works');
    });

    it('disables the device', async () => {
      assert.equal((await v('DELETE', 'sys/audit/file')).status, 204);
      const size = readFileSync(file, 'utf8').length;
      await v('GET', 'secret/data/db');
      assert.equal(readFileSync(file, 'utf8').length, size);
      assert.deepEqual((await v('GET', 'sys/audit')).body.data, {});
    });
  });
}
