// The API key through HTTP: missing, wrong, stale, future, replayed, alias header, foreign and unknown merchants.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { it } from 'node:test';
import { makeApiKey } from '../../src/services/payments/domain/api-key.ts';
import { call } from '../helpers/runtime.ts';
import { authRequest, caller, CLIENT, describeGateway, FOREIGN_MID, LICENCE, MID, OTHER_CLIENT, OTHER_LICENCE } from './support.ts';

const MINUTE = 60_000;

describeGateway('payments authentication', (t, c) => {

  const ping = (key: string | null, headerName = 'pay-api-key') =>
    call(`${t.url('payments')}/v6/ping`, { body: { identifier: 'ping-1' }, headers: key === null ? {} : { [headerName]: key } });

  it('answers 401 with an Error body without a key', async () => {
    const res = await ping(null);
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'S007');
    assert.equal(typeof res.body.context, 'string');
    assert.match(res.body.response_dt, /^2026-03-10T12:00:00/);
  });

  it('accepts a fresh key, and cp-api-key as an alias', async () => {
    let res = await ping(c.key());
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.code, res.body.message, res.body.identifier], ['044', 'Ping OK', 'ping-1']);
    res = await ping(c.key(), 'cp-api-key');
    assert.equal(res.status, 200);
  });

  it('refuses a replayed key', async () => {
    const key = c.key();
    assert.equal((await ping(key)).status, 200);
    const res = await ping(key);
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'S004');
    assert.match(res.body.message, /already been used/);
  });

  it('refuses a replayed key on authorisations too, also when the first use failed or raced', async () => {
    const key = c.key();
    const first = authRequest();
    assert.equal((await c.post('/v6/authorise', first, { key })).body.AuthResponse.authorised, true);
    const second = authRequest();
    let res = await c.post('/v6/authorise', second, { key });
    assert.deepEqual([res.status, res.body.code], [403, 'S004']);
    assert.equal((await c.post('/v6/retrieve', { merchantid: MID, identifier: second.identifier })).body.code, 'D023', 'nothing stored');

    const failing = c.key();
    assert.equal((await c.post('/v6/authorise', authRequest({ amount: 'x' }), { key: failing })).status, 400);
    res = await c.post('/v6/authorise', authRequest(), { key: failing });
    assert.deepEqual([res.status, res.body.code], [403, 'S004']);

    const raced = c.key();
    const results = await Promise.all(Array.from({ length: 5 }, () => c.post('/v6/authorise', authRequest(), { key: raced })));
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    assert.ok(results.filter((r) => r.status !== 200).every((r) => r.status === 403 && r.body.code === 'S004'));
  });

  it('refuses stale and future keys but accepts one within the window', async () => {
    const now = t.rt.clock.now();
    assert.equal((await ping(c.key(now - 21 * MINUTE))).status, 403);
    assert.equal((await ping(c.key(now + 3 * MINUTE))).status, 403);
    assert.equal((await ping(c.key(now - 19 * MINUTE))).status, 200);
    assert.equal((await ping(c.key(now + MINUTE))).status, 200);
  });

  it('refuses a wrong licence key, an unknown client and garbage', async () => {
    const now = t.rt.clock.now();
    let res = await ping(makeApiKey(CLIENT, 'WRONGLICENCEKEY1', randomBytes(16), now));
    assert.deepEqual([res.status, res.body.code], [403, 'S004']);
    res = await ping(makeApiKey('NOBODY', LICENCE, randomBytes(16), now));
    assert.deepEqual([res.status, res.body.code], [403, 'S001']);
    res = await ping('%%%not-a-key%%%');
    assert.deepEqual([res.status, res.body.code], [403, 'S004']);
  });

  it('refuses a merchant of another client and an unknown merchant, changing nothing', async () => {
    let res = await c.post('/v6/authorise', authRequest({ merchantid: FOREIGN_MID }));
    assert.deepEqual([res.status, res.body.code], [403, 'S002']);
    res = await c.post('/v6/authorise', authRequest({ merchantid: 999999 }));
    assert.deepEqual([res.status, res.body.code], [403, 'S002']);
    // The other client sees no transaction on its merchant.
    const other = caller(t, OTHER_CLIENT, OTHER_LICENCE);
    res = await other.post('/v6/retrieve', { merchantid: FOREIGN_MID, transno: 1 });
    assert.deepEqual([res.status, res.body.code], [422, 'D022']);
  });

  it('lists only the caller client merchants', async () => {
    let res = await c.get('/v6/merchants/default');
    assert.equal(res.status, 200);
    assert.equal(res.body.clientid, CLIENT);
    assert.deepEqual(res.body.merchants.map((m: any) => m.merchantid), [10001, 20002]);
    assert.deepEqual(res.body.merchants[0], { currency: 'GBP', merchantid: 10001, name: 'Development merchant', status: 'A', status_label: 'Active' });
    res = await c.get('/v6/merchants/default?sort=name');
    assert.deepEqual(res.body.merchants.map((m: any) => m.name), ['Development merchant', 'Strict merchant']);
    res = await c.get(`/v6/merchants/${OTHER_CLIENT}`);
    assert.equal(res.status, 403);
    res = await c.get('/v6/merchants/default?sort=size');
    assert.equal(res.status, 400);
  });

  it('reads form-encoded bodies as text fields', async () => {
    const form = (path: string, fields: Record<string, string>) =>
      c.post(path, undefined, { raw: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    let res = await form('/v6/ping', { identifier: 'form-ping' });
    assert.deepEqual([res.status, res.body.code, res.body.identifier], [200, '044', 'form-ping']);
    res = await form('/v6/authorise', { amount: '1500', cardnumber: '4000000000000002', expmonth: '12', expyear: '2030', identifier: 'form-auth-1', merchantid: '10001' });
    assert.equal(res.body.AuthResponse.authorised, true);
    res = await form('/v6/authorise', { amount: '15.00', cardnumber: '4000000000000002', expmonth: '12', expyear: '2030', identifier: 'form-auth-2', merchantid: '10001' });
    assert.deepEqual([res.status, res.body.code], [400, 'P005']);
  });

  it('makes API keys from the admin API for manual calls', async () => {
    const res = await call(`${t.adminUrl}/services/payments/clients/${CLIENT}/api-key`, { method: 'POST' });
    assert.equal(res.status, 200);
    assert.equal((await ping(res.body.value)).status, 200);
  });
});
