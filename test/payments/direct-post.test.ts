// Direct post through HTTP: domain keys, form posts checked against Origin/Referer and the MAC, 303 redirects with
// the result as query parameters, replayed nonces, and the JSON (XHR) form.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { directPostMac } from '../../src/services/payments/direct/domain/mac.ts';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { caller, CLIENT, LICENCE, MID as SECURE_MID, OTHER_CLIENT, OTHER_LICENCE, startGateway } from './support.ts';

const MID = 43001;
const SHOP = 'https://shop.example.com';
const SUCCESS = 'https://shop.example.com/paid';
const FAILURE = 'https://shop.example.com/failed';

for (const database of DATABASES) {
  describe(`direct post (${database})`, () => {
    let t: TestRuntime;
    let base: string;
    let domainKey: string;

    before(async () => {
      t = await startGateway(database, undefined, [{ merchantid: MID, clientid: CLIENT, name: 'Shop', currency: 'GBP', three_d_secure: false }]);
      base = t.url('payments');
    });
    after(async () => t.close());

    const key = () => caller(t).key();
    const nonce = () => randomBytes(16).toString('hex').toUpperCase();
    const form = (fields: Record<string, string | number>, headers: Record<string, string> = { origin: SHOP }) =>
      fetch(`${base}/direct/auth`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString(),
      });
    const payment = (overrides: Record<string, string | number> = {}) => {
      const n = nonce();
      const identifier = String(overrides.identifier ?? `DP-${randomBytes(4).toString('hex')}`);
      const amount = overrides.amount ?? 2500;
      return {
        'pay-domain-key': domainKey,
        amount,
        identifier,
        cardnumber: '4000 0000 0000 0002',
        expmonth: 12,
        expyear: 2030,
        csc: '123',
        nonce: n,
        mac: directPostMac(LICENCE, n, amount, identifier),
        redirect_success: SUCCESS,
        redirect_failure: FAILURE,
        ...overrides,
      };
    };
    const location = (res: Response) => new URL(res.headers.get('location')!);

    it('generates and checks domain keys for a merchant', async () => {
      let res = await call(`${base}/dk/gen`, { body: { domain: ['Shop.Example.com', '*.cdn.example.com'], merchantid: MID }, headers: { 'pay-api-key': key() } });
      assert.equal(res.status, 200, res.text);
      domainKey = res.body.domain_key;
      assert.ok(domainKey.length >= 64 && domainKey.length <= 512);
      assert.deepEqual(res.body.domain, ['shop.example.com', '*.cdn.example.com']);
      assert.equal(res.body.merchantid, MID);
      assert.equal(res.body.live, false);
      res = await call(`${base}/dk/check`, { body: { domain_key: domainKey }, headers: { 'pay-api-key': key() } });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.domain, ['shop.example.com', '*.cdn.example.com']);
      res = await call(`${base}/dk/check`, { body: { domain_key: domainKey }, headers: { 'pay-api-key': caller(t, OTHER_CLIENT, OTHER_LICENCE).key() } });
      assert.equal(res.status, 422, "another client cannot inspect the key");
      for (const body of [{ domain: [], merchantid: MID }, { domain: ['not a host'], merchantid: MID }, { domain: ['a.example.com'], merchantid: MID, live: 'maybe' }]) {
        res = await call(`${base}/dk/gen`, { body, headers: { 'pay-api-key': key() } });
        assert.equal(res.status, 400, JSON.stringify(body));
      }
      res = await call(`${base}/dk/gen`, { body: { domain: ['a.example.com'], merchantid: MID } });
      assert.equal(res.status, 401);
    });

    it('authorises a form post from a registered page and redirects with 303 to redirect_success', async () => {
      const fields = payment({ identifier: 'DP-OK-0001' });
      const res = await form(fields);
      assert.equal(res.status, 303);
      const url = location(res);
      assert.equal(`${url.origin}${url.pathname}`, SUCCESS);
      assert.equal(url.searchParams.get('authorised'), 'true');
      assert.equal(url.searchParams.get('identifier'), 'DP-OK-0001');
      assert.equal(url.searchParams.get('amount'), '2500');
      assert.match(url.searchParams.get('maskedpan')!, /^400000\*+0002$/);
      assert.equal(url.searchParams.get('cardnumber'), null);
      assert.equal(url.searchParams.get('csc'), null);
      assert.ok(url.searchParams.get('sha256'));
      const replay = await form(fields);
      assert.equal(replay.status, 303);
      assert.equal(location(replay).pathname, '/failed');
      assert.equal(location(replay).searchParams.get('code'), 'S010', 'a nonce is accepted once');
    });

    it('sends declines and refusals to redirect_failure', async () => {
      let res = await form(payment({ amount: 3333 }));
      assert.equal(res.status, 303);
      assert.equal(location(res).pathname, '/failed');
      assert.equal(location(res).searchParams.get('authorised'), 'false');
      assert.equal(location(res).searchParams.get('result_code'), '090');

      res = await form({ ...payment(), mac: 'AB'.repeat(32) });
      assert.equal(location(res).pathname, '/failed');
      assert.equal(location(res).searchParams.get('code'), 'S010');
      const tampered = payment();
      res = await form({ ...tampered, amount: 1 });
      assert.equal(location(res).searchParams.get('code'), 'S010', 'changing the amount breaks the mac');
      res = await form(payment({ cardnumber: '4000000000000003' }));
      assert.equal(location(res).pathname, '/failed');
      assert.ok(location(res).searchParams.get('code'));
    });

    it('checks the domain key against Origin or Referer', async () => {
      let res = await form(payment(), { origin: 'https://evil.example.net' });
      assert.equal(res.status, 403);
      res = await form(payment(), {});
      assert.equal(res.status, 403, 'no Origin and no Referer');
      res = await form(payment(), { referer: `${SHOP}/checkout` });
      assert.equal(res.status, 303);
      assert.equal(location(res).pathname, '/paid');
      res = await form(payment(), { origin: 'https://img.cdn.example.com' });
      assert.equal(location(res).pathname, '/paid', 'wildcard domain');
      res = await form({ ...payment(), 'pay-domain-key': 'x'.repeat(64) });
      assert.equal(res.status, 403);
      const { 'pay-domain-key': _omit, ...withoutKey } = payment();
      res = await form(withoutKey);
      assert.equal(res.status, 401);
      const { redirect_failure: _f, ...noFailure } = payment();
      res = await form(noFailure);
      assert.equal(res.status, 400, 'a form post must say where failures go');
    });

    it('routes a 3-D Secure challenge through the ACS and back to redirect_success', async () => {
      const gen = await call(`${base}/dk/gen`, { body: { domain: ['shop.example.com'], merchantid: SECURE_MID }, headers: { 'pay-api-key': key() } });
      const n = nonce();
      const res = await form({ ...payment({ identifier: 'DP-3DS-0001' }), 'pay-domain-key': gen.body.domain_key, nonce: n, mac: directPostMac(LICENCE, n, 2500, 'DP-3DS-0001') });
      assert.equal(res.status, 200);
      const hop = await res.text();
      const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&quot;/g, '"').replace(/&amp;/g, '&') ?? '';
      const acsUrl = /action="([^"]+)"/.exec(hop)![1];
      assert.match(acsUrl, /\/3dsv2\/acs$/);
      const acs = await fetch(`${base}/3dsv2/acs/result`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ creq: field(hop, 'creq'), threeDSSessionData: field(hop, 'threeDSSessionData'), transStatus: 'Y' }).toString(),
      });
      const back = await acs.text();
      const termUrl = /action="([^"]+)"/.exec(back)![1];
      assert.match(termUrl, /\/direct\/cres\/auth\//);
      const cresForm = new URLSearchParams({ cres: field(back, 'cres'), threeDSSessionData: field(back, 'threeDSSessionData') }).toString();
      const done = await fetch(termUrl, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: cresForm });
      assert.equal(done.status, 303);
      assert.equal(location(done).pathname, '/paid');
      assert.equal(location(done).searchParams.get('authorised'), 'true');
      assert.equal(location(done).searchParams.get('authen_result'), 'Y');
      const again = await fetch(termUrl, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: cresForm });
      assert.equal(again.status, 422, 'a return address works once');
    });

    it('accepts an XML post', async () => {
      const { redirect_success: _s, redirect_failure: _f, 'pay-domain-key': _k, ...fields } = payment({ identifier: 'DP-XML-01' });
      const xml = `<DirectPostRequest>${Object.entries({ ...fields, merchantid: MID }).map(([k, v]) => `<${k}>${v}</${k}>`).join('')}</DirectPostRequest>`;
      const res = await call(`${base}/direct/auth`, { method: 'POST', raw: xml, headers: { 'pay-api-key': key(), 'content-type': 'text/xml' } });
      assert.equal(res.status, 200, res.text);
      assert.match(res.text, /<AuthResponse>[\s\S]*<authorised>true<\/authorised>/);
    });

    it('answers any form post with a redirect or an Error, never a 500', async () => {
      const text = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', '12', '2030', '4000000000000002', 'DP-FUZZ-01', SUCCESS, 'javascript:alert(1)'));
      await fc.assert(
        fc.asyncProperty(
          fc.record({ amount: text, cardnumber: text, expmonth: text, expyear: text, identifier: text, nonce: text, mac: text, csc: text, merchantid: text, redirect_success: text, redirect_failure: text, 'bill_to.postcode': text }, { requiredKeys: [] }),
          fc.boolean(),
          async (fields, withKey) => {
            const res = await form(withKey ? { ...fields, 'pay-domain-key': domainKey } : fields);
            assert.ok([200, 303, 400, 401, 403, 422].includes(res.status), `${res.status} for ${JSON.stringify(fields)}`);
            if (res.status === 303) assert.ok([SUCCESS, FAILURE].some((u) => res.headers.get('location')!.startsWith(u)));
            await res.arrayBuffer();
          },
        ),
        { numRuns: 60 },
      );
    });

    it('answers a JSON post without redirects with the AuthResponse', async () => {
      const { redirect_success: _s, redirect_failure: _f, 'pay-domain-key': _k, ...fields } = payment({ identifier: 'DP-JSON-01' });
      const res = await call(`${base}/direct/auth`, { body: { ...fields, merchantid: MID }, headers: { 'pay-api-key': key() } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.authorised, true);
      assert.equal(res.body.identifier, 'DP-JSON-01');
      const bad = await call(`${base}/direct/auth`, { body: { ...fields, identifier: 'DP-JSON-02', merchantid: MID }, headers: { 'pay-api-key': key() } });
      assert.equal(bad.status, 403);
      assert.equal(bad.body.code, 'S010');
    });
  });
}
