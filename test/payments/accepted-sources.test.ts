// A client's accepted sources (IP allow-list) through HTTP: set on the admin API or in the configuration, checked on
// every request made with the client's API key (the tests connect from 127.0.0.1), refused with 403 P007 without
// spending the key's nonce or writing anything; X-Forwarded-For is not honoured; browser flows are not subject to it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { directPostMac } from '../../src/services/payments/direct/domain/mac.ts';
import { acceptedSourcesProblem, sourceAccepted } from '../../src/services/payments/domain/accepted-sources.ts';
import { parseSettings } from '../../src/services/payments/settings.ts';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { authRequest, caller, describeGateway, paymentsRowCounts, startPayments } from './support.ts';

const CLIENT = 'SOURCES01';
const LICENCE = 'SOURCESLICENCE01';
const MID = 61001;
const SHOP = 'https://shop.example.com';
const REFUSED = { code: 'P007', message: 'Request is not from an accepted source' };

describe('accepted sources (matching)', () => {
  it('matches IPv4-mapped IPv6 peers against IPv4 entries and IPv6 peers against IPv6 ranges', () => {
    assert.equal(sourceAccepted(['127.0.0.0/8'], '::ffff:127.0.0.1'), true);
    assert.equal(sourceAccepted(['::ffff:127.0.0.1'], '127.0.0.1'), true);
    assert.equal(sourceAccepted(['10.0.0.0/8'], '::ffff:127.0.0.1'), false);
    assert.equal(sourceAccepted(['::1'], '::1'), true);
    assert.equal(sourceAccepted(['2001:db8::/32'], '2001:DB8:0:1::5'), true);
    assert.equal(sourceAccepted(['2001:db8::/32'], '2001:db9::5'), false);
    assert.equal(sourceAccepted(['fe80::/10'], 'fe80::1%eth0'), true);
    assert.equal(sourceAccepted(['10.0.0.0/8'], undefined), false);
    assert.equal(sourceAccepted([], undefined), true);
  });

  it('names the first entry that is no address or range', () => {
    assert.equal(acceptedSourcesProblem(['10.0.0.0/8', '::1', '203.0.113.7', '2001:db8::/128', '0.0.0.0/0']), undefined);
    for (const [entry, index] of [['10.0.0.0/33', 1], ['not-an-ip', 1], [' 10.0.0.1', 1], ['fe80::1%eth0', 1], ['10.0.0.0/08', 1], ['::/129', 1], ['10.0.0/8', 1]] as const) {
      assert.match(acceptedSourcesProblem(['::1', entry]) ?? '', new RegExp(`^accepted_sources/${index}: .* is not an IPv4 or IPv6 address or CIDR range`), entry);
    }
  });

  it('is validated with the settings', () => {
    assert.throws(() => parseSettings({ clients: [{ clientid: 'C1', licence_key: 'LICENCEKEY000001', accepted_sources: ['10.0.0.0/99'] }] }), /client C1: accepted_sources\/0/);
    assert.throws(() => parseSettings({ clients: [{ clientid: 'C1', licence_key: 'LICENCEKEY000001', accepted_sources: '10.0.0.0/8' }] }), /accepted_sources/);
  });
});

describeGateway('payments accepted sources', (t) => {
  const admin = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${t.adminUrl}/services/payments${path}`, init);
  const setSources = async (accepted_sources: string[]) => {
    const res = await admin('/clients', { body: { clientid: CLIENT, accepted_sources } });
    assert.equal(res.status, 200, res.text);
    return res;
  };
  const mine = () => caller(t, CLIENT, LICENCE);
  const listed = async () => (await admin('/clients')).body.clients.find((c: any) => c.clientid === CLIENT);
  const assertRefused = (res: Awaited<ReturnType<typeof call>>, what: string) => {
    assert.deepEqual([res.status, res.body?.code, res.body?.message], [403, REFUSED.code, REFUSED.message], `${what}: ${res.text}`);
    assert.equal(typeof res.body.context, 'string');
    assert.match(res.body.response_dt, /^2026-03-10T/);
  };

  before(async () => {
    let res = await admin('/clients', { body: { clientid: CLIENT, name: 'Sourced client', licence_key: LICENCE } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.accepted_sources, [], 'a new client accepts every source');
    res = await admin('/merchants', { body: { merchantid: MID, clientid: CLIENT, three_d_secure: false } });
    assert.equal(res.status, 201, res.text);
  });

  it('is set on the admin API, shown in the client list, and refuses requests from elsewhere with 403 P007', async () => {
    const res = await setSources(['10.0.0.0/8', '2001:db8::/32']);
    assert.deepEqual(res.body, { clientid: CLIENT, name: 'Sourced client', accepted_sources: ['10.0.0.0/8', '2001:db8::/32'] });
    assert.deepEqual((await listed()).accepted_sources, ['10.0.0.0/8', '2001:db8::/32']);
    assert.equal((await listed()).licence_key, undefined, 'the list never shows the licence key');
    assertRefused(await mine().post('/v6/ping', { identifier: 'ping-1' }), 'ping');
    // Another client is not affected.
    assert.equal((await caller(t).post('/v6/ping', { identifier: 'ping-1' })).status, 200);
  });

  it('refuses without writing anything or spending the nonce; the same key works once the source is accepted', async () => {
    await setSources(['10.0.0.0/8']);
    const key = mine().key();
    const before = await paymentsRowCounts(t);
    assertRefused(await mine().post('/v6/authorise', authRequest({ merchantid: MID }), { key }), 'authorise');
    assertRefused(await mine().post('/v6/ping', { identifier: 'ping-2' }, { key }), 'ping with the same key');
    assert.deepEqual(await paymentsRowCounts(t), before, 'no transaction, no nonce recorded');

    await setSources(['127.0.0.0/8']);
    let res = await mine().post('/v6/authorise', authRequest({ merchantid: MID }), { key });
    assert.equal(res.body.AuthResponse?.authorised, true, res.text);
    res = await mine().post('/v6/ping', { identifier: 'ping-3' }, { key });
    assert.deepEqual([res.status, res.body.code], [403, 'S004'], 'spent once accepted');
  });

  it('accepts a loopback entry written as an address or an IPv4-mapped IPv6 address', async () => {
    for (const sources of [['127.0.0.1'], ['::ffff:127.0.0.1'], ['::ffff:127.0.0.0/104'], ['10.0.0.0/8', '127.0.0.0/8']]) {
      await setSources(sources);
      assert.equal((await mine().post('/v6/ping', { identifier: 'ping-4' })).status, 200, sources.join());
    }
    // ::1 is another address than 127.0.0.1, the address these requests come from.
    await setSources(['::1']);
    assertRefused(await mine().post('/v6/ping', { identifier: 'ping-4' }), '::1 only');
  });

  it('does not honour X-Forwarded-For', async () => {
    await setSources(['10.0.0.0/8']);
    const res = await mine().post('/v6/ping', { identifier: 'ping-5' }, { headers: { 'x-forwarded-for': '10.1.2.3', forwarded: 'for=10.1.2.3', 'x-real-ip': '10.1.2.3' } });
    assertRefused(res, 'forwarded headers');
  });

  it('applies to every operation made with the key: accounts, batches, direct post, domain keys and Paylink', async () => {
    await setSources(['10.0.0.0/8']);
    const c = mine();
    const before = await paymentsRowCounts(t);
    assertRefused(await c.post('/v6/account/create', { account_id: 'acct-sources-1' }), 'account create');
    assertRefused(await c.post('/v6/merchant-batch/report', {}), 'batch report');
    assertRefused(await c.post('/dk/gen', { domain: ['shop.example.com'], merchantid: MID }), 'dk/gen');
    assertRefused(await c.post('/paylink/create', { amount: 1000, identifier: 'PAY-SOURCES-1', merchantid: MID }), 'paylink create');
    const n = randomBytes(16).toString('hex').toUpperCase();
    const direct = { merchantid: MID, amount: 1000, identifier: 'DP-SOURCES-1', cardnumber: '4000000000000002', expmonth: 12, expyear: 2030, csc: '123', nonce: n, mac: directPostMac(LICENCE, n, 1000, 'DP-SOURCES-1') };
    assertRefused(await c.post('/direct/auth', direct), 'direct post with an API key');
    assert.deepEqual(await paymentsRowCounts(t), before);
  });

  it('refuses /v6/authenticate from elsewhere, after checking the credentials', async () => {
    await setSources(['10.0.0.0/8']);
    const url = `${t.url('payments')}/v6/authenticate`;
    const before = await paymentsRowCounts(t);
    assertRefused(await call(url, { body: { clientid: CLIENT, licencekey: LICENCE, subject: MID } }), 'authenticate');
    assert.deepEqual(await paymentsRowCounts(t), before, 'no key subject recorded');
    const wrong = await call(url, { body: { clientid: CLIENT, licencekey: 'WRONGLICENCE0000' } });
    assert.deepEqual([wrong.status, wrong.body.code], [403, 'S003'], 'the source is not revealed to a wrong licence key');
    await setSources(['127.0.0.0/8']);
    assert.equal((await call(url, { body: { clientid: CLIENT, licencekey: LICENCE } })).status, 200);
  });

  it('leaves the payer-facing flows open: a domain-key direct post and the hosted Paylink page', async () => {
    await setSources([]);
    const dk = await mine().post('/dk/gen', { domain: ['shop.example.com'], merchantid: MID });
    assert.equal(dk.status, 200, dk.text);
    const link = await mine().post('/paylink/create', { amount: 1999, identifier: `PAY-${randomBytes(4).toString('hex')}`, merchantid: MID });
    assert.equal(link.status, 200, link.text);
    await setSources(['10.0.0.0/8']);

    const n = randomBytes(16).toString('hex').toUpperCase();
    const identifier = `DP-${randomBytes(4).toString('hex')}`;
    const res = await call(`${t.url('payments')}/direct/auth`, {
      body: { 'pay-domain-key': dk.body.domain_key, amount: 2500, identifier, cardnumber: '4000000000000002', expmonth: 12, expyear: 2030, csc: '123', nonce: n, mac: directPostMac(LICENCE, n, 2500, identifier) },
      headers: { origin: SHOP },
    });
    assert.deepEqual([res.status, res.body.authorised], [200, true], res.text);

    const page = await fetch(link.body.url);
    assert.equal(page.status, 200);
    const paid = await fetch(link.body.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name_on_card: 'Z Smith', cardnumber: '4000 0000 0000 0002', expmonth: '12', expyear: '30', csc: '123' }).toString(),
    });
    assert.match(await paid.text(), /Payment complete/);
  });

  it('keeps the list when a client is updated without it, clears it with an empty list, and keeps it across a restart', async () => {
    await setSources(['10.0.0.0/8']);
    let res = await admin('/clients', { body: { clientid: CLIENT, name: 'Renamed client' } });
    assert.deepEqual([res.status, res.body.name, res.body.accepted_sources], [200, 'Renamed client', ['10.0.0.0/8']]);
    assertRefused(await mine().post('/v6/ping', { identifier: 'ping-6' }), 'after a rename');

    await t.restart();
    assert.deepEqual((await listed()).accepted_sources, ['10.0.0.0/8']);
    assertRefused(await mine().post('/v6/ping', { identifier: 'ping-6' }), 'after a restart');

    res = await setSources([]);
    assert.deepEqual(res.body.accepted_sources, []);
    assert.equal((await mine().post('/v6/ping', { identifier: 'ping-6' })).status, 200);
  });

  it('refuses a malformed list with 400 naming the entry, and changes nothing', async () => {
    await setSources(['127.0.0.0/8']);
    const bad: Array<[unknown, RegExp]> = [
      [['127.0.0.1', '10.0.0.0/33'], /^accepted_sources\/1: "10\.0\.0\.0\/33" is not an IPv4 or IPv6 address or CIDR range/],
      [['localhost'], /^accepted_sources\/0: "localhost" is not/],
      [['10.0.0.1 '], /^accepted_sources\/0: "10\.0\.0\.1 " is not/],
      [['fe80::1%eth0'], /^accepted_sources\/0: "fe80::1%eth0" is not/],
      [[42], /accepted_sources\/0/],
      ['127.0.0.0/8', /accepted_sources/],
      [Array.from({ length: 101 }, (_, i) => `10.0.0.${i % 250}`), /accepted_sources/],
    ];
    for (const [accepted_sources, message] of bad) {
      const res = await admin('/clients', { body: { clientid: CLIENT, name: 'Changed name', accepted_sources } });
      assert.equal(res.status, 400, JSON.stringify(accepted_sources));
      assert.equal(res.body.error.code, 400);
      assert.match(res.body.error.message, message);
    }
    const now = await listed();
    assert.deepEqual([now.name, now.accepted_sources], ['Renamed client', ['127.0.0.0/8']], 'nothing changed');
    assert.equal((await mine().post('/v6/ping', { identifier: 'ping-7' })).status, 200);
    // A new client refused for its list is not created.
    const res = await admin('/clients', { body: { clientid: 'NEWSOURCES', accepted_sources: ['nope'] } });
    assert.equal(res.status, 400);
    assert.equal((await admin('/clients')).body.clients.some((c: any) => c.clientid === 'NEWSOURCES'), false);
  });
});

for (const database of DATABASES) {
  describe(`payments accepted sources from the configuration (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startPayments(database, {
        dev_licence_key: 'DEVLICENCEKEY001',
        clients: [
          { clientid: 'FENCED', licence_key: 'FENCEDLICENCE001', accepted_sources: ['10.0.0.0/8'] },
          { clientid: 'LOCAL', licence_key: 'LOCALLICENCE0001', accepted_sources: ['127.0.0.0/8', '::1'] },
        ],
      });
    });
    after(async () => t.close());

    it('seeds each client with its list', async () => {
      const clients = (await call(`${t.adminUrl}/services/payments/clients`)).body.clients;
      assert.deepEqual(
        clients.map((c: any) => [c.clientid, c.accepted_sources]),
        [['DEV001', []], ['FENCED', ['10.0.0.0/8']], ['LOCAL', ['127.0.0.0/8', '::1']]],
      );
      const ping = (client: string, licence: string) => caller(t, client, licence).post('/v6/ping', { identifier: 'ping-1' });
      const fenced = await ping('FENCED', 'FENCEDLICENCE001');
      assert.deepEqual([fenced.status, fenced.body.code], [403, 'P007']);
      assert.equal((await ping('LOCAL', 'LOCALLICENCE0001')).status, 200);
      assert.equal((await ping('DEV001', 'DEVLICENCEKEY001')).status, 200);
    });
  });
}
