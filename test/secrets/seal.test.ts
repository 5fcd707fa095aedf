import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import nodeVault from 'node-vault';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { startSecrets, vault } from './helpers.ts';

for (const database of DATABASES) {
  describe(`secrets seal, init and health in production mode (${database})`, () => {
    let t: TestRuntime;
    let v: ReturnType<typeof vault>;
    let keys: string[] = [];
    let keysB64: string[] = [];
    let root = '';
    before(async () => {
      t = await startSecrets(database, { dev: false });
      v = vault(t);
    });
    after(async () => t.close());

    it('starts uninitialised: health 501, seal-status t=n=0, logical requests 503', async () => {
      let res = await v('sys/health', { token: null });
      assert.equal(res.status, 501);
      assert.equal(res.body.initialized, false);
      assert.equal(res.body.sealed, true);
      res = await v('sys/health?uninitcode=299', { token: null });
      assert.equal(res.status, 299);
      res = await v('sys/health?uninitcode=abc', { token: null });
      assert.equal(res.status, 400);
      res = await v('sys/seal-status', { token: null });
      assert.deepEqual([res.body.initialized, res.body.sealed, res.body.t, res.body.n], [false, true, 0, 0]);
      res = await v('secret/data/x');
      assert.equal(res.status, 503);
      assert.deepEqual(res.body, { errors: ['Vault is sealed'] });
      res = await v('sys/init', { token: null });
      assert.deepEqual(res.body, { initialized: false });
      res = await v('sys/seal-status', { token: null, headers: { 'x-vault-namespace': 'ns1/' } });
      assert.equal(res.status, 200, 'seal-status answers under a namespace header too');
      res = await v('sys/init', { token: null, headers: { 'x-vault-namespace': 'ns1/' } });
      assert.deepEqual(res.body, { errors: ['operation unavailable in namespaces'] });
      res = await v('secret/data/x', { headers: { 'x-vault-namespace': 'ns1/' } });
      assert.equal(res.status, 503);
    });

    it('rejects bad init parameters and stays uninitialised', async () => {
      for (const body of [
        { secret_shares: 0, secret_threshold: 0 },
        { secret_shares: 3, secret_threshold: 4 },
        { secret_shares: 3, secret_threshold: 1 },
        { secret_shares: 256, secret_threshold: 2 },
        { secret_shares: 'x', secret_threshold: 2 },
        { secret_shares: 3, secret_threshold: 2, recovery_shares: 1 },
      ]) {
        const res = await v('sys/init', { method: 'PUT', body, token: null });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(typeof res.body.errors[0], 'string');
      }
      assert.equal((await v('sys/init', { token: null })).body.initialized, false);
    });

    it('initialises through node-vault and stays sealed', async () => {
      const client = nodeVault({ endpoint: t.url('secrets') });
      const result = await client.init({ secret_shares: 5, secret_threshold: 3 });
      keys = result.keys;
      keysB64 = result.keys_base64;
      root = result.root_token;
      assert.equal(keys.length, 5);
      assert.equal(keys[0]!.length, 66);
      assert.equal(keysB64[0]!.length, 44);
      assert.match(root, /^hvs\./);
      const status = await client.status();
      assert.deepEqual([status.sealed, status.t, status.n, status.progress], [true, 3, 5, 0]);
      await assert.rejects(client.init({ secret_shares: 1, secret_threshold: 1 }), (err: Error) => err.message === 'Vault is already initialized');
      assert.equal((await v('sys/health', { token: null })).status, 503);
    });

    it('unseals with hex and base64 shares; duplicates and bad keys do not count', async () => {
      let res = await v('sys/unseal', { method: 'PUT', body: {}, token: null });
      assert.equal(res.status, 400);
      assert.equal(res.body.errors[0], "'key' must be specified in request body as JSON, or 'reset' set to true");
      res = await v('sys/unseal', { method: 'PUT', body: { key: 'not a key!' }, token: null });
      assert.equal(res.body.errors[0], "'key' must be a valid hex or base64 string");
      res = await v('sys/unseal', { method: 'PUT', body: { key: keys[0] }, token: null });
      assert.deepEqual([res.body.sealed, res.body.progress], [true, 1]);
      const nonce = res.body.nonce;
      assert.match(nonce, /^[0-9a-f-]{36}$/);
      res = await v('sys/unseal', { method: 'PUT', body: { key: keysB64[0] }, token: null });
      assert.equal(res.body.progress, 1, 'the same share in base64 is a duplicate');
      res = await v('sys/unseal', { method: 'PUT', body: { reset: true }, token: null });
      assert.deepEqual([res.body.progress, res.body.nonce], [0, '']);
      await v('sys/unseal', { method: 'PUT', body: { key: keys[1] }, token: null });
      await v('sys/unseal', { method: 'PUT', body: { Key: keysB64[2] }, token: null });
      res = await v('sys/unseal', { method: 'PUT', body: { key: keys[4] }, token: null });
      assert.deepEqual([res.body.sealed, res.body.progress], [false, 0]);
      assert.equal(typeof res.body.cluster_id, 'string');
      res = await v('sys/unseal', { method: 'PUT', body: { reset: true }, token: null });
      assert.equal(res.body.errors[0], 'vault is unsealed');
      assert.equal((await v('sys/health', { token: null })).status, 200);
    });

    it('serves the store with the root token; a fresh server mounts no secret/', async () => {
      let res = await v('sys/mounts', { token: root });
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body.data).sort(), ['cubbyhole/', 'identity/', 'sys/']);
      assert.ok(res.body['sys/'], 'sys listings copy data to the top level');
      res = await v('sys/mounts/kv', { body: { type: 'kv', options: { version: '2' } }, token: root });
      assert.equal(res.status, 204);
      res = await v('kv/data/a', { body: { data: { k: 'v' } }, token: root });
      assert.equal(res.status, 200);
    });

    it('seals (sudo) and a wrong share combination is refused', async () => {
      let res = await v('sys/seal', { method: 'PUT', token: 'nope' });
      assert.equal(res.status, 403);
      res = await v('sys/seal', { method: 'PUT', token: root });
      assert.equal(res.status, 204);
      assert.equal((await v('kv/data/a', { token: root })).status, 503);
      const forged = Buffer.from(keys[0]!, 'hex');
      forged[0] ^= 1;
      await v('sys/unseal', { method: 'PUT', body: { key: keys[1] }, token: null });
      await v('sys/unseal', { method: 'PUT', body: { key: keys[2] }, token: null });
      res = await v('sys/unseal', { method: 'PUT', body: { key: forged.toString('hex') }, token: null });
      assert.equal(res.status, 400);
      assert.equal((await v('sys/seal-status', { token: null })).body.sealed, true);
    });

    it('after a restart it is sealed and reads back everything once unsealed', async () => {
      await t.restart();
      assert.equal((await v('sys/seal-status', { token: null })).body.sealed, true);
      for (const k of keys.slice(0, 3)) await v('sys/unseal', { method: 'PUT', body: { key: k }, token: null });
      const res = await v('kv/data/a', { token: root });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data.data, { k: 'v' });
    });

    it('rotates the keyring; older values stay readable', async () => {
      let res = await v('sys/key-status', { token: root });
      assert.equal(res.body.data.term, 1);
      assert.equal(res.body.term, 1);
      assert.equal((await v('sys/rotate', { method: 'PUT', token: root })).status, 204);
      res = await v('sys/key-status', { token: root });
      assert.equal(res.body.data.term, 2);
      assert.deepEqual((await v('kv/data/a', { token: root })).body.data.data, { k: 'v' });
      await v('kv/data/b', { body: { data: { n: 2 } }, token: root });
      await t.restart();
      for (const k of keys.slice(2, 5)) await v('sys/unseal', { method: 'PUT', body: { key: k }, token: null });
      assert.deepEqual((await v('kv/data/a', { token: root })).body.data.data, { k: 'v' });
      assert.deepEqual((await v('kv/data/b', { token: root })).body.data.data, { n: 2 });
    });

    it('generates a new root token from shares with a one-time pad (node-vault)', async () => {
      const client: any = nodeVault({ endpoint: t.url('secrets') });
      const started = await client.generateRootInit({});
      assert.equal(started.started, true);
      assert.equal(started.otp.length, started.otp_length);
      let res = await v('sys/generate-root/update', { method: 'PUT', body: { key: keys[0], nonce: 'wrong' }, token: null });
      assert.equal(res.status, 400);
      let status = await client.generateRootUpdate({ key: keys[0], nonce: started.nonce });
      assert.deepEqual([status.progress, status.complete], [1, false]);
      await client.generateRootUpdate({ key: keys[1], nonce: started.nonce });
      status = await client.generateRootUpdate({ key: keys[3], nonce: started.nonce });
      assert.equal(status.complete, true);
      const encoded = Buffer.from(status.encoded_token, 'base64');
      const token = Buffer.from(encoded.map((b, i) => b ^ started.otp.charCodeAt(i))).toString('utf8');
      assert.match(token, /^hvs\./);
      assert.equal((await v('sys/mounts', { token })).status, 200, 'the generated token is a root token');
      res = await v('sys/generate-root/attempt', { token: null });
      assert.equal(res.body.started, false);
      await client.generateRootInit({});
      assert.equal((await v('sys/generate-root/attempt', { method: 'DELETE', token: null })).status, 204);
    });

    it('rekeys to new shares; the old ones stop working', async () => {
      let res = await v('sys/rekey/init', { method: 'PUT', body: { secret_shares: 3, secret_threshold: 1 }, token: null });
      assert.equal(res.status, 400);
      res = await v('sys/rekey/init', { method: 'PUT', body: { secret_shares: 3, secret_threshold: 2 }, token: null });
      assert.deepEqual([res.body.started, res.body.n, res.body.t, res.body.required], [true, 3, 2, 3]);
      const nonce = res.body.nonce;
      await v('sys/rekey/update', { method: 'PUT', body: { key: keys[0], nonce }, token: null });
      await v('sys/rekey/update', { method: 'PUT', body: { key: keys[1], nonce }, token: null });
      res = await v('sys/rekey/update', { method: 'PUT', body: { key: keys[2], nonce }, token: null });
      assert.equal(res.body.complete, true);
      const fresh: string[] = res.body.keys;
      assert.equal(fresh.length, 3);
      assert.equal((await v('sys/seal', { method: 'PUT', token: root })).status, 204);
      assert.deepEqual((await v('sys/seal-status', { token: null })).body.t, 2);
      await v('sys/unseal', { method: 'PUT', body: { key: keys[0] }, token: null });
      res = await v('sys/unseal', { method: 'PUT', body: { key: keys[1] }, token: null });
      assert.equal(res.status, 400, 'old shares no longer combine to the unseal key');
      await v('sys/unseal', { method: 'PUT', body: { key: fresh[0] }, token: null });
      res = await v('sys/unseal', { method: 'PUT', body: { key: fresh[2] }, token: null });
      assert.equal(res.body.sealed, false);
      assert.deepEqual((await v('kv/data/a', { token: root })).body.data.data, { k: 'v' });
    });

    it('answers HEAD health without a body, and sys/leader as a bare object', async () => {
      const res = await fetch(`${t.url('secrets')}/v1/sys/health`, { method: 'HEAD' });
      assert.equal(res.status, 200);
      assert.equal(await res.text(), '');
      const leader = await v('sys/leader', { token: null });
      assert.equal(leader.body.ha_enabled, false);
      assert.equal((await v('sys/step-down', { method: 'PUT', token: root })).status, 204);
      assert.equal((await v('sys/ha-status', { token: root })).body.nodes[0].active_node, true);
    });
  });
}
