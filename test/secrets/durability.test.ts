import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DATABASES, call } from '../helpers/runtime.ts';
import { ROOT, secretsSuite } from './helpers.ts';

for (const database of DATABASES) {
  describe(`secrets dev mode and durability (${database})`, () => {
    const suite = secretsSuite(database);
    const { v } = suite;

    it('starts initialised and unsealed with kv v2 at secret/ and prints the root token', async () => {
      const status = await v('sys/seal-status', { token: null });
      assert.deepEqual([status.body.initialized, status.body.sealed, status.body.t, status.body.n], [true, false, 1, 1]);
      const mounts = await v('sys/mounts');
      assert.deepEqual(mounts.body.data['secret/'].options, { version: '2' });
      const running = suite.t.rt.services.get('secrets')!;
      const hints = await running.manifest.credentials!(running.ctx);
      assert.ok(hints.some((h) => h.value === ROOT));
      const kept = JSON.parse(readFileSync(join(suite.t.dataDir, 'secrets-dev.json'), 'utf8'));
      assert.equal(kept.unseal_key.length, 64);
      assert.equal(statSync(join(suite.t.dataDir, 'secrets-dev.json')).mode & 0o777, 0o600);
      assert.equal((await v('sys/init', { method: 'PUT', body: { secret_shares: 1, secret_threshold: 1 }, token: null })).body.errors[0], 'Vault is already initialized');
    });

    it('unseals itself after a restart and keeps everything', async () => {
      await v('secret/data/keep', { body: { data: { a: 1 } } });
      await v('sys/namespaces/team', { body: {} });
      await v('sys/mounts/kvt', { body: { type: 'kv' }, headers: { 'x-secrets-namespace': 'team/' } });
      await v('team/kvt/x', { body: { b: 2 } });
      await suite.t.restart();
      assert.equal((await v('sys/seal-status', { token: null })).body.sealed, false);
      assert.deepEqual((await v('secret/data/keep')).body.data.data, { a: 1 });
      assert.deepEqual((await v('team/kvt/x')).body.data, { b: 2 });
    });

    it('keeps the kept dev share current across a rekey to one share', async () => {
      const before = JSON.parse(readFileSync(join(suite.t.dataDir, 'secrets-dev.json'), 'utf8')).unseal_key;
      const started = await v('sys/rekey/init', { method: 'PUT', body: { secret_shares: 1, secret_threshold: 1 }, token: null });
      const done = await v('sys/rekey/update', { method: 'PUT', body: { key: before, nonce: started.body.nonce }, token: null });
      assert.equal(done.body.complete, true);
      const after = JSON.parse(readFileSync(join(suite.t.dataDir, 'secrets-dev.json'), 'utf8')).unseal_key;
      assert.equal(after, done.body.keys[0]);
      assert.notEqual(after, before);
      await suite.t.restart();
      assert.deepEqual((await v('secret/data/keep')).body.data.data, { a: 1 });
    });

    it('seeds again after POST /reset on the admin listener', async () => {
      const res = await call(`${suite.t.adminUrl}/reset`, { body: { service: 'secrets' } });
      assert.equal(res.status, 200);
      assert.equal((await v('secret/data/keep')).status, 404);
      assert.equal((await v('sys/seal-status', { token: null })).body.sealed, false);
      assert.equal((await v('secret/data/again', { body: { data: { c: 3 } } })).status, 200);
    });

    it('seals with an audit device enabled and unseals with the kept dev share', async () => {
      const log = join(suite.t.dataDir, 'audit.log');
      assert.equal((await v('sys/audit/file', { method: 'PUT', body: { type: 'file', options: { file_path: log } } })).status, 204);
      assert.equal((await v('sys/seal', { method: 'PUT' })).status, 204);
      assert.equal((await v('secret/data/again')).status, 503);
      const kept = JSON.parse(readFileSync(join(suite.t.dataDir, 'secrets-dev.json'), 'utf8'));
      const res = await v('sys/unseal', { method: 'PUT', body: { key: kept.unseal_key }, token: null });
      assert.equal(res.body.sealed, false);
      assert.deepEqual((await v('secret/data/again')).body.data.data, { c: 3 });
      assert.match(readFileSync(log, 'utf8'), /sys\/seal/);
    });
  });
}
