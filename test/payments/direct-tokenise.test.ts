// The direct-post tokenisation flow through HTTP: a browser form posts the card (domain key, Origin, MAC) to
// /direct/tokenise and is redirected with a token; the merchant's server authorises it with /direct/token. 3-D
// Secure challenges complete through /direct/cres/tokenise/{id}. Tokens are single-use, expire with the clock, work
// only for their merchant, and hold the card only encrypted (never the CSC). Every refusal writes nothing.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { unbase58, base58 } from '../../src/core/ids.ts';
import { directPostMac } from '../../src/services/payments/direct/domain/mac.ts';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { caller, CLIENT, LICENCE, moveClock, OTHER_CLIENT, OTHER_LICENCE, paymentsRowCounts, startGateway } from './support.ts';

const MID = 44001;
const MID_3DS = 44002;
const OTHER_MID = 44003;
const SHOP = 'https://shop.example.com';
const SUCCESS = 'https://shop.example.com/tokenised';
const FAILURE = 'https://shop.example.com/failed';
const CARD = '4000000000000002';

for (const database of DATABASES) {
  describe(`direct-post tokenisation (${database})`, () => {
    let t: TestRuntime;
    let base: string;
    const keys: Record<number, string> = {};

    before(async () => {
      t = await startGateway(database, undefined, [
        { merchantid: MID, clientid: CLIENT, name: 'Token shop', currency: 'GBP', three_d_secure: false },
        { merchantid: MID_3DS, clientid: CLIENT, name: 'Secure shop', currency: 'GBP', three_d_secure: true },
        { merchantid: OTHER_MID, clientid: CLIENT, name: 'Sister shop', currency: 'GBP', three_d_secure: false },
      ]);
      base = t.url('payments');
      for (const mid of [MID, MID_3DS, OTHER_MID]) {
        const res = await call(`${base}/dk/gen`, { body: { domain: ['shop.example.com'], merchantid: mid }, headers: { 'pay-api-key': caller(t).key() } });
        keys[mid] = res.body.domain_key;
      }
    });
    after(async () => t.close());

    const nonce = () => randomBytes(8).toString('hex').toUpperCase();
    const post = (path: string, fields: Record<string, string | number>, headers: Record<string, string> = { origin: SHOP }) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString(),
      });
    const card = (mid = MID, over: Record<string, string | number> = {}) => {
      const n = String(over.nonce ?? nonce());
      const identifier = String(over.identifier ?? `TK-${randomBytes(4).toString('hex')}`);
      const amount = over.amount ?? 2500;
      return { 'pay-domain-key': keys[mid], amount, identifier, cardnumber: CARD, expmonth: 12, expyear: 2030, csc: '123', nonce: n, mac: directPostMac(LICENCE, n, amount, identifier), redirect_success: SUCCESS, redirect_failure: FAILURE, ...over };
    };
    const location = (res: Response) => new URL(res.headers.get('location')!);
    const tokenise = async (mid = MID, over: Record<string, string | number> = {}) => {
      const res = await post('/direct/tokenise', card(mid, over));
      assert.equal(res.status, 303);
      const url = location(res);
      assert.equal(url.pathname, '/tokenised', url.toString());
      return url.searchParams;
    };
    const authorise = (token: unknown, opts: { client?: string; licence?: string; body?: Record<string, unknown> } = {}) =>
      call(`${base}/direct/token`, { body: { token, ...(opts.body ?? {}) }, headers: { 'pay-api-key': caller(t, opts.client, opts.licence).key() } });
    /** Row counts, leaving out the API keys' own nonces (every authenticated call consumes one by design). */
    const counts = async () => {
      const { payments_nonces: _keys, ...rest } = await paymentsRowCounts(t);
      return rest;
    };
    const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&quot;/g, '"').replace(/&amp;/g, '&') ?? '';

    it('issues a token to the browser and the merchant server authorises it once', async () => {
      const n = nonce();
      const result = await tokenise(MID, { identifier: 'TK-FLOW-0001', nonce: n, mac: directPostMac(LICENCE, n, 2500, 'TK-FLOW-0001') });
      const token = result.get('token')!;
      assert.match(token, /^ct[1-9A-HJ-NP-Za-km-z]+$/);
      assert.equal(result.get('identifier'), 'TK-FLOW-0001');
      assert.match(result.get('maskedpan')!, /^400000\*+0002$/);
      assert.equal(result.get('scheme'), 'Visa');
      assert.equal(result.get('cardnumber'), null);
      assert.equal(result.get('csc'), null);
      assert.equal(result.get('authorised'), null, 'a token, not an authorisation');
      const expectedSig = base58(createHash('sha256').update(Buffer.concat([unbase58(token)!, Buffer.from(n, 'utf8')])).digest());
      assert.equal(result.get('sig_id'), expectedSig);

      const res = await authorise(token);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.authorised, true);
      assert.equal(res.body.amount, 2500);
      assert.equal(res.body.identifier, 'TK-FLOW-0001');
      assert.equal(res.body.merchantid, MID);
      assert.equal(res.body.csc_result, 'M', 'the CSC was checked when it was posted');
      assert.ok(res.body.transno > 0);

      const before = await counts();
      const again = await authorise(token);
      assert.deepEqual([again.status, again.body.code], [422, 'P052']);
      assert.equal(again.body.identifier, 'TK-FLOW-0001');
      assert.deepEqual(await counts(), before, 'a used token changes nothing');
    });

    it('keeps the card encrypted while the token lives and erases it once used; the CSC is never stored', async () => {
      const result = await tokenise(MID, { csc: '987' });
      const rows = async () => t.rt.db.kysely.selectFrom('payments_direct_tokens').selectAll().execute();
      const text = JSON.stringify(await rows());
      assert.ok(!text.includes(CARD) && !text.includes('400000000000'), 'no card number in clear');
      assert.ok(!/"csc"/.test(text));
      assert.equal((await authorise(result.get('token'))).status, 200);
      const used = (await rows()).find((r) => r.identifier === result.get('identifier'))!;
      assert.equal(used.state, 'used');
      assert.equal(used.payment_enc, null);
    });

    it('decides CSC-driven outcomes at tokenisation: the later authorisation is declined without the CSC', async () => {
      const declined = await tokenise(MID, { csc: '333' });
      const res = await authorise(declined.get('token'));
      assert.equal(res.status, 200);
      assert.deepEqual([res.body.authorised, res.body.result_code], [false, '090']);
      const byAmount = await tokenise(MID, { amount: 3366 });
      const res2 = await authorise(byAmount.get('token'));
      assert.deepEqual([res2.body.authorised, res2.body.result_code, res2.body.csc_result], [false, '094', 'N']);
    });

    it('answers redirect addresses on /direct/token: 303 to success or failure', async () => {
      const result = await tokenise();
      const res = await fetch(`${base}/direct/token`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'pay-api-key': caller(t).key() },
        body: new URLSearchParams({ token: result.get('token')!, nonce: nonce(), redirect_success: SUCCESS, redirect_failure: FAILURE }).toString(),
      });
      assert.equal(res.status, 303);
      assert.equal(location(res).searchParams.get('authorised'), 'true');
      const again = await post('/direct/token', { token: result.get('token')!, redirect_success: SUCCESS, redirect_failure: FAILURE }, { 'pay-api-key': caller(t).key() });
      assert.equal(location(again).pathname, '/failed');
      assert.equal(location(again).searchParams.get('code'), 'P052');
    });

    it('expires tokens by the clock', async () => {
      const result = await tokenise();
      await moveClock(t, { advance: '11m' });
      const before = await counts();
      const res = await authorise(result.get('token'));
      assert.deepEqual([res.status, res.body.code], [422, 'P051']);
      assert.deepEqual(await counts(), before);
    });

    it('binds a token to its merchant', async () => {
      const result = await tokenise(MID);
      const token = result.get('token')!;
      const before = await counts();
      let res = await authorise(token, { client: OTHER_CLIENT, licence: OTHER_LICENCE });
      assert.deepEqual([res.status, res.body.code], [403, 'S002'], 'another client');
      const scopedKey = (await call(`${base}/v6/authenticate`, { body: { clientid: CLIENT, licencekey: LICENCE, subject: String(OTHER_MID) } })).body.key;
      res = await call(`${base}/direct/token`, { body: { token }, headers: { 'pay-api-key': scopedKey } });
      assert.deepEqual([res.status, res.body.code], [403, 'S002'], 'a key issued for another merchant');
      const viaOtherDomain = await post('/direct/token', { token, 'pay-domain-key': keys[OTHER_MID], redirect_success: SUCCESS, redirect_failure: FAILURE });
      assert.equal(viaOtherDomain.status, 303);
      assert.equal(location(viaOtherDomain).searchParams.get('code'), 'S002', "another merchant's domain key");
      const { payments_key_subjects: _s, ...after } = await counts();
      const { payments_key_subjects: _b, ...beforeRest } = before;
      assert.deepEqual(after, beforeRest);
      const own = await post('/direct/token', { token, 'pay-domain-key': keys[MID], redirect_success: SUCCESS, redirect_failure: FAILURE });
      assert.equal(location(own).searchParams.get('authorised'), 'true', 'still usable by its own merchant');
    });

    it('refuses bad tokenisation posts and writes nothing', async () => {
      const before = await counts();
      const refusals: Array<[Record<string, string | number>, string]> = [
        [{ ...card(), mac: 'AB'.repeat(32) }, 'S010'],
        [{ ...card(), amount: 1 }, 'S010'],
        [{ ...card(), nonce: '' }, 'P044'],
        [{ ...card(), nonce: 'not-hex!' }, 'P045'],
        [card(MID, { cardnumber: '4000000000000003' }), 'C002'],
        [card(MID, { expyear: 2020 }), 'C006'],
        [card(MID, { expmonth: 13 }), 'C007'],
        [card(MID, { amount: 'abc' }), 'P005'],
        [card(MID, { identifier: 'x'.repeat(51) }), 'P016'],
        [card(MID, { csc: '12345' }), 'C013'],
        [card(MID, { currency: 'USD' }), 'D016'],
      ];
      for (const [fields, code] of refusals) {
        const res = await post('/direct/tokenise', fields);
        assert.equal(res.status, 303, JSON.stringify(fields));
        assert.equal(location(res).pathname, '/failed');
        assert.equal(location(res).searchParams.get('code'), code, JSON.stringify(fields));
        assert.equal(location(res).searchParams.get('token'), null);
      }
      const direct: Array<[Record<string, string | number>, Record<string, string>, number, string]> = [
        [{ ...card(), 'pay-domain-key': '' }, { origin: SHOP }, 401, 'S007'],
        [card(), { origin: 'https://evil.example.net' }, 403, 'S005'],
        [{ ...card(), 'pay-domain-key': 'k'.repeat(64) }, { origin: SHOP }, 403, 'S004'],
        [{ ...card(), redirect_failure: '' }, { origin: SHOP }, 400, 'P044'],
        [{ ...card(), redirect_success: 'javascript:alert(1)' }, { origin: SHOP }, 400, 'P045'],
      ];
      for (const [fields, headers, status, code] of direct) {
        const res = await post('/direct/tokenise', fields, headers);
        const body = await res.json();
        assert.deepEqual([res.status, body.code], [status, code], JSON.stringify(fields));
        assert.equal(typeof body.message, 'string');
        assert.match(body.response_dt, /^2026-/);
      }
      assert.deepEqual(await counts(), before);
      // A replayed nonce: the first post issues a token, the replay is refused and adds nothing.
      const fields = card();
      assert.equal((await post('/direct/tokenise', fields)).status, 303);
      const afterFirst = await counts();
      const replay = await post('/direct/tokenise', fields);
      assert.equal(location(replay).searchParams.get('code'), 'S010');
      assert.deepEqual(await counts(), afterFirst);
    });

    it('refuses bad token authorisations and writes nothing', async () => {
      const good = (await tokenise()).get('token')!;
      const before = await counts();
      const cases: Array<[unknown, Record<string, unknown>, number, string]> = [
        [undefined, {}, 400, 'P044'],
        ['', {}, 400, 'P044'],
        [42, {}, 422, 'P052'],
        ['ct' + 'x'.repeat(40), {}, 422, 'P052'],
        [good.slice(0, -2) + (good.endsWith('11') ? '22' : '11'), {}, 422, 'P052'],
        [good, { nonce: 'zz' }, 400, 'P045'],
        [good, { nonce: 12345678 }, 400, 'P045'],
        [good, { redirect_success: 'ftp://x', redirect_failure: FAILURE }, 400, 'P045'],
      ];
      for (const [token, body, status, code] of cases) {
        const res = await authorise(token, { body });
        assert.deepEqual([res.status, res.body.code], [status, code], JSON.stringify({ token, body }));
      }
      let res = await call(`${base}/direct/token`, { body: { token: good } });
      assert.deepEqual([res.status, res.body.code], [401, 'S007']);
      res = await call(`${base}/direct/token`, { body: { token: good }, headers: { 'pay-api-key': 'bad-key' } });
      assert.deepEqual([res.status, res.body.code], [403, 'S004']);
      assert.deepEqual(await counts(), before);
      // A nonce, when sent, is accepted once per merchant.
      const n = nonce();
      assert.equal((await authorise(good, { body: { nonce: n } })).status, 200);
      const other = (await tokenise()).get('token')!;
      res = await authorise(other, { body: { nonce: n } });
      assert.deepEqual([res.status, res.body.code], [403, 'S010']);
      assert.equal((await authorise(other)).status, 200, 'the refused call left the token usable');
    });

    it('authorises a token exactly once under concurrent use', async () => {
      const token = (await tokenise()).get('token')!;
      const results = await Promise.all(Array.from({ length: 5 }, () => authorise(token)));
      assert.equal(results.filter((r) => r.status === 200).length, 1);
      assert.ok(results.filter((r) => r.status !== 200).every((r) => r.status === 422 && r.body.code === 'P052'));
    });

    it('completes a 3-D Secure challenge through /direct/cres/tokenise and carries the authentication into the authorisation', async () => {
      const res = await post('/direct/tokenise', card(MID_3DS, { 'threedsecure.browserLanguage': 'en-GB' }));
      assert.equal(res.status, 200);
      const hop = await res.text();
      assert.match(/action="([^"]+)"/.exec(hop)![1], /\/3dsv2\/acs$/);
      const acs = await post('/3dsv2/acs/result', { creq: field(hop, 'creq'), threeDSSessionData: field(hop, 'threeDSSessionData'), transStatus: 'Y' }, {});
      const back = await acs.text();
      const termUrl = /action="([^"]+)"/.exec(back)![1];
      assert.match(termUrl, /\/direct\/cres\/tokenise\/[0-9a-f-]{36}$/);
      const cres = { cres: field(back, 'cres'), threeDSSessionData: field(back, 'threeDSSessionData') };
      const done = await post(new URL(termUrl).pathname, cres, {});
      assert.equal(done.status, 303);
      const result = location(done).searchParams;
      assert.equal(location(done).pathname, '/tokenised');
      assert.deepEqual([result.get('authen_result'), result.get('eci')], ['Y', '05']);
      const before = await counts();
      const again = await post(new URL(termUrl).pathname, cres, {});
      assert.equal(again.status, 422, 'the return address works once');
      assert.deepEqual(await counts(), before);
      const auth = await authorise(result.get('token'));
      assert.equal(auth.status, 200);
      assert.deepEqual([auth.body.authorised, auth.body.authen_result, auth.body.eci], [true, 'Y', '05']);
      assert.ok(auth.body.cavv);
    });

    it('sends a failed challenge to redirect_failure without a token', async () => {
      const res = await post('/direct/tokenise', card(MID_3DS, { 'threedsecure.browserLanguage': 'en-GB' }));
      const hop = await res.text();
      const acs = await post('/3dsv2/acs/result', { creq: field(hop, 'creq'), threeDSSessionData: field(hop, 'threeDSSessionData'), transStatus: 'N' }, {});
      const back = await acs.text();
      const done = await post(new URL(/action="([^"]+)"/.exec(back)![1]).pathname, { cres: field(back, 'cres'), threeDSSessionData: field(back, 'threeDSSessionData') }, {});
      assert.equal(done.status, 303);
      assert.equal(location(done).pathname, '/failed');
      assert.equal(location(done).searchParams.get('code'), '098');
      assert.equal(location(done).searchParams.get('token'), null);
    });

    it('decides frictionless 3-D Secure at tokenisation', async () => {
      const ok = await tokenise(MID_3DS, { csc: '750', 'threedsecure.browserLanguage': 'en-GB' });
      assert.deepEqual([ok.get('authen_result'), ok.get('eci')], ['Y', '05']);
      const before = await counts();
      for (const [csc, code] of [['731', '098'], ['733', '098'], ['761', 'D047']]) {
        const res = await post('/direct/tokenise', card(MID_3DS, { csc, 'threedsecure.browserLanguage': 'en-GB' }));
        assert.equal(location(res).searchParams.get('code'), code, csc);
      }
      assert.deepEqual(await counts(), before);
    });

    it('gives an XHR post the challenge as JSON and accepts the forwarded cres', async () => {
      const n = nonce();
      const body = { merchantid: MID_3DS, amount: 1800, identifier: 'TK-XHR-0001', cardnumber: CARD, expmonth: 12, expyear: 2030, csc: '123', nonce: n, mac: directPostMac(LICENCE, n, 1800, 'TK-XHR-0001'), threedsecure: { browserLanguage: 'en-GB' } };
      const res = await call(`${base}/direct/tokenise`, { body, headers: { 'pay-api-key': caller(t).key() } });
      assert.equal(res.status, 200, res.text);
      const challenge = res.body.RequestChallenged;
      assert.equal(challenge.merchantid, MID_3DS);
      const rreq = await call(`${base}/3dsv2/gen-rreq`, { body: { creq: challenge.creq, transStatus: 'A' } });
      const cresPath = `/direct/cres/tokenise/${challenge.threedserver_trans_id}`;
      let done = await call(`${base}${cresPath}`, { body: {} });
      assert.deepEqual([done.status, done.body.code], [400, 'P044']);
      done = await call(`${base}/direct/cres/tokenise/${crypto.randomUUID()}`, { body: { cres: rreq.body.cres } });
      assert.deepEqual([done.status, done.body.code], [422, 'D101']);
      done = await call(`${base}${cresPath}`, { body: { cres: 'bm90IGEgY3Jlcw' } });
      assert.deepEqual([done.status, done.body.code], [422, 'P030']);
      done = await call(`${base}${cresPath}`, { body: { cres: rreq.body.cres } });
      assert.equal(done.status, 200, done.text);
      assert.deepEqual([done.body.identifier, done.body.authen_result, done.body.eci], ['TK-XHR-0001', 'A', '06']);
      const auth = await authorise(done.body.token);
      assert.deepEqual([auth.body.authorised, auth.body.amount, auth.body.authen_result], [true, 1800, 'A']);
    });

    it('gives a challenged Mastercard the Mastercard ECI', async () => {
      const n = nonce();
      const body = { merchantid: MID_3DS, amount: 1900, identifier: 'TK-XHR-MC-01', cardnumber: '5100000000000008', expmonth: 12, expyear: 2030, csc: '123', nonce: n, mac: directPostMac(LICENCE, n, 1900, 'TK-XHR-MC-01'), threedsecure: { browserLanguage: 'en-GB' } };
      const challenge = (await call(`${base}/direct/tokenise`, { body, headers: { 'pay-api-key': caller(t).key() } })).body.RequestChallenged;
      const rreq = await call(`${base}/3dsv2/gen-rreq`, { body: { creq: challenge.creq, transStatus: 'Y' } });
      const done = await call(`${base}/direct/cres/tokenise/${challenge.threedserver_trans_id}`, { body: { cres: rreq.body.cres } });
      assert.equal(done.status, 200, done.text);
      assert.deepEqual([done.body.scheme, done.body.authen_result, done.body.eci], ['Mastercard', 'Y', '02']);
      assert.equal((await authorise(done.body.token)).body.eci, '02');
    });
  });
}
