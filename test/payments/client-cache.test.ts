// The caches of payment clients and licence keys and of accepted nonces take their budgets from the settings; budgets
// too small to keep anything change no answer (keys still verify, a replayed key is still refused).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseSettings } from '../../src/services/payments/settings.ts';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { caller, CLIENT, LICENCE, OTHER_CLIENT, OTHER_LICENCE, startPayments } from './support.ts';

describe('payments client cache budget', () => {
  it('is validated with the settings', () => {
    assert.deepEqual(parseSettings({ client_cache_budget: { entries: 10, bytes: 1_024 } }).client_cache_budget, { entries: 10, bytes: 1_024 });
    assert.throws(() => parseSettings({ client_cache_budget: { entries: 0, bytes: 1 } }), /client_cache_budget/);
    assert.throws(() => parseSettings({ nonce_cache_budget: { bytes: 1 } }), /nonce_cache_budget/);
  });
});

for (const database of DATABASES) {
  describe(`payments with a client cache that keeps nothing (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startPayments(database, {
        dev_licence_key: LICENCE,
        clients: [{ clientid: OTHER_CLIENT, name: 'Other client', licence_key: OTHER_LICENCE }],
        client_cache_budget: { entries: 1, bytes: 1 },
        nonce_cache_budget: { entries: 1, bytes: 1 },
      });
    });
    after(async () => t.close());

    it('verifies keys of every client and refuses a wrong licence key', async () => {
      const ping = (key: string) => call(`${t.url('payments')}/v6/ping`, { body: { identifier: 'ping-1' }, headers: { 'pay-api-key': key } });
      for (let i = 0; i < 3; i++) {
        assert.equal((await ping(caller(t).key())).status, 200);
        assert.equal((await ping(caller(t, OTHER_CLIENT, OTHER_LICENCE).key())).status, 200);
      }
      assert.equal((await ping(caller(t, CLIENT, 'WRONGLICENCE0000').key())).status, 403);
    });

    it('refuses a replayed key though no nonce is remembered in memory', async () => {
      const key = caller(t).key();
      const ping = () => call(`${t.url('payments')}/v6/ping`, { body: { identifier: 'ping-2' }, headers: { 'pay-api-key': key } });
      assert.equal((await ping()).status, 200);
      const replay = await ping();
      assert.ok(replay.status === 401 || replay.status === 403, `${replay.status} ${replay.text}`);
    });
  });
}
