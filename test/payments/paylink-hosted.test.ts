// The hosted payment page through plain HTTP: field guards (denials, lockout, access cookie per merchant), paying
// with a card, declines, the postback webhook with the final result, and refusing a second payment.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { DATABASES, call, type TestRuntime } from '../helpers/runtime.ts';
import { caller, CLIENT, startGateway } from './support.ts';

const MID = 44001;
const MID2 = 44002;
const START = Date.parse('2026-03-10T12:00:00Z');

for (const database of DATABASES) {
  describe(`paylink hosted page (${database})`, () => {
    let t: TestRuntime;
    let base: string;
    let hook: Server;
    let hookUrl: string;
    const postbacks: any[] = [];

    before(async () => {
      hook = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          postbacks.push({ headers: req.headers, body: /xml/.test(String(req.headers['content-type'])) ? { xml: body } : JSON.parse(body) });
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
      hookUrl = `http://127.0.0.1:${(hook.address() as any).port}/postback`;
      t = await startGateway(database, START, [
        { merchantid: MID, clientid: CLIENT, name: 'Acme Water', currency: 'GBP', three_d_secure: false },
        { merchantid: MID2, clientid: CLIENT, name: 'Acme Gas', currency: 'GBP', three_d_secure: false },
      ]);
      base = t.url('payments');
    });
    after(async () => {
      await t.close();
      await new Promise((r) => hook.close(r));
    });

    const api = (method: string, path: string, body?: unknown) => call(`${base}${path}`, { method, body, headers: { 'pay-api-key': caller(t).key() } });
    const create = async (body: Record<string, unknown>) => {
      const res = await api('POST', '/paylink/create', { amount: 1999, identifier: `PAY-${randomBytes(4).toString('hex')}`, merchantid: MID, ...body });
      assert.equal(res.status, 200, res.text);
      return res.body as { token: string; url: string; identifier: string };
    };
    const post = (url: string, fields: Record<string, string>, cookie?: string) =>
      fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams(fields).toString(),
      });
    const card = { name_on_card: 'Z Smith', cardnumber: '4000 0000 0000 0002', expmonth: '12', expyear: '30', csc: '123' };
    const status = async (token: string) => (await api('GET', `/paylink/${token}/status`)).body;

    it('pays through the card form, posts back the final result and refuses a second payment', async () => {
      const { token, url, identifier } = await create({ email: 'merchant@acme.example', cardholder: { email: 'payer@example.com' }, config: { postback: hookUrl, pass_through_data: { order: 77 } } });
      const page = await fetch(url);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /id="payment-form"/);
      assert.match(html, /19\.99 GBP/);
      assert.equal(page.headers.get('cache-control'), 'no-store');

      const res = await post(url, card);
      assert.equal(res.status, 200);
      const done = await res.text();
      assert.match(done, /Payment complete/);
      assert.doesNotMatch(done, /4000 0000 0000 0002|4000000000000002/);

      const s = await status(token);
      assert.equal(s.is_paid, true);
      assert.equal(s.is_form_viewed, true);
      assert.equal(s.is_payment_attempted, true);
      assert.equal(s.amount_paid, 1999);
      assert.equal(s.payment_attempts_count, 1);
      assert.ok(s.auth_code);
      assert.match(s.card, /0002$/);
      assert.equal(s.is_open_for_payment, false);
      assert.deepEqual(s.state_history.map((e: any) => e.state).filter((x: string) => x.startsWith('Payment') || x === 'FormViewed'), ['FormViewed', 'PaymentAuthorised']);

      await call(`${t.adminUrl}/outbox/deliver`, { method: 'POST' });
      const pb = postbacks.find((p) => p.body.identifier === identifier);
      assert.ok(pb, 'the postback reached the merchant');
      assert.equal(pb.body.authorised, 'true');
      assert.equal(pb.body.amount, 1999);
      assert.deepEqual(pb.body.passThroughData, { order: 77 });
      assert.equal(typeof pb.body.sha256, 'string');
      const delivered = await status(token);
      assert.equal(delivered.is_postback_ok, true);
      assert.equal(delivered.is_merchant_notification_email_sent, true);
      assert.equal(delivered.is_customer_receipt_email_sent, true);

      const again = await post(url, card);
      assert.match(await again.text(), /already been paid/);
      assert.equal((await status(token)).payment_attempts_count, 1);
    });

    it('lets only one of two simultaneous payments through', async () => {
      const { token, url } = await create({});
      const pages = await Promise.all([post(url, card), post(url, card), post(url, card)]);
      const texts = await Promise.all(pages.map((p) => p.text()));
      // One authorises; the others see it in progress or already paid.
      assert.equal(texts.filter((x) => /has been authorised/.test(x)).length, 1, texts.map((x) => /<p[^>]*(error|message)[^>]*>([^<]*)/.exec(x)?.[2]).join(' | '));
      const s = await status(token);
      assert.equal(s.is_paid, true);
      assert.equal(s.payment_attempts_count, 1);
    });

    it('delivers a sync postback before answering the payer', async () => {
      const { url, identifier } = await create({ config: { postback: hookUrl, postback_policy: 'sync' } });
      assert.match(await (await post(url, card)).text(), /Payment complete/);
      assert.ok(postbacks.some((p) => p.body.identifier === identifier), 'already delivered when the page came back');
    });

    it('authorises only with ENFORCE_PREAUTH (capture comes later), unless BYPASS_PREAUTH is also set', async () => {
      const pre = await create({ config: { postback: hookUrl, postback_policy: 'sync', options: ['ENFORCE_PREAUTH'] } });
      assert.match(await (await post(pre.url, card)).text(), /Payment complete/);
      assert.equal(postbacks.find((p) => p.body.identifier === pre.identifier)?.body.status, 'P', 'the postback names a pre-authorisation');
      const [auth] = (await api('POST', '/v6/retrieve', { merchantid: MID, identifier: pre.identifier })).body.auths;
      assert.deepEqual([auth.trans_type, auth.trans_status, auth.authcode], ['P', 'P', 'B12345']);
      const captured = await api('POST', '/v6/capture', { merchantid: MID, identifier: pre.identifier });
      assert.deepEqual([captured.status, captured.body.code], [200, '001']);

      const sale = await create({ config: { postback: hookUrl, postback_policy: 'sync', options: ['ENFORCE_PREAUTH', 'BYPASS_PREAUTH'] } });
      assert.match(await (await post(sale.url, card)).text(), /Payment complete/);
      assert.equal(postbacks.find((p) => p.body.identifier === sale.identifier)?.body.status, 'O');
      const [saleAuth] = (await api('POST', '/v6/retrieve', { merchantid: MID, identifier: sale.identifier })).body.auths;
      assert.deepEqual([saleAuth.trans_type, saleAuth.trans_status, saleAuth.authcode], ['S', 'O', 'A12345']);
    });

    it('takes tx_type as the transaction type: P pre-authorises, unless BYPASS_PREAUTH is set; others are sales', async () => {
      const outcome = async (body: Record<string, unknown>) => {
        const made = await create(body);
        assert.match(await (await post(made.url, card)).text(), /Payment complete/);
        const [auth] = (await api('POST', '/v6/retrieve', { merchantid: MID, identifier: made.identifier })).body.auths;
        return [auth.trans_type, auth.trans_status];
      };
      assert.deepEqual(await outcome({ tx_type: 'P' }), ['P', 'P']);
      assert.deepEqual(await outcome({ tx_type: 'P', config: { options: ['BYPASS_PREAUTH'] } }), ['S', 'O']);
      assert.deepEqual(await outcome({ tx_type: 'A' }), ['S', 'O']);
      // Longer than the one character the AuthRequest's trans_type allows: refused at create.
      const refused = await api('POST', '/paylink/create', { amount: 100, identifier: 'TXTYPE-LONG', merchantid: MID, tx_type: 'PP' });
      assert.deepEqual([refused.status, refused.body.code], [400, 'P045'], refused.text);
    });

    it('posts back in XML when the token was created in XML', async () => {
      const created = await call(`${base}/paylink/create`, {
        method: 'POST',
        raw: `<PaylinkTokenRequestModel><amount>1500</amount><identifier>XML-POSTBACK-1</identifier><merchantid>${MID}</merchantid><config><postback>${hookUrl}</postback></config></PaylinkTokenRequestModel>`,
        headers: { 'pay-api-key': caller(t).key(), 'content-type': 'text/xml', accept: 'application/json' },
      });
      assert.equal(created.status, 200, created.text);
      assert.match(await (await post(created.body.url, card)).text(), /Payment complete/);
      await call(`${t.adminUrl}/outbox/deliver`, { method: 'POST' });
      const pb = postbacks.find((p) => p.body.xml?.includes('<identifier>XML-POSTBACK-1</identifier>'));
      assert.ok(pb, 'an XML postback arrived');
      assert.match(pb.headers['content-type'], /^text\/xml/);
      assert.match(pb.body.xml, /^<\?xml[^>]*\?><paylinkTransactionResult>.*<authorised>true<\/authorised>.*<\/paylinkTransactionResult>$/s);
    });

    it('asks for custom parameters and posts their values back', async () => {
      const { url, identifier } = await create({
        config: {
          postback: hookUrl,
          custom_params: [
            { name: 'account', label: 'Account number', required: true, pattern: '[0-9]{6}', order: 2 },
            { name: 'plan', label: 'Plan', field_type: 'select', value: 'm:Monthly|y:Yearly', required: true, order: 1 },
            { name: 'campaign', field_type: 'hidden', value: 'spring' },
          ],
        },
      });
      const html = await (await fetch(url)).text();
      assert.ok(html.indexOf('id="custom_plan"') < html.indexOf('id="custom_account"'), 'shown in order');
      assert.match(html, /<option value="y">Yearly<\/option>/);
      assert.doesNotMatch(html, /spring/, 'hidden parameters stay on the server');
      let res = await post(url, { ...card, custom_plan: 'y' });
      assert.equal(res.status, 422);
      assert.match(await res.text(), /Account number is required/);
      res = await post(url, { ...card, custom_plan: 'y', custom_account: '12-456' });
      assert.match(await res.text(), /Account number is not in the expected format/);
      res = await post(url, { ...card, custom_plan: 'y', custom_account: '123456', custom_campaign: 'forged' });
      assert.match(await res.text(), /Payment complete/);
      await call(`${t.adminUrl}/outbox/deliver`, { method: 'POST' });
      const pb = postbacks.find((p) => p.body.identifier === identifier);
      assert.deepEqual(pb.body.custom_params, { plan: 'y', account: '123456', campaign: 'spring' });
    });

    it('keeps guards and custom parameters named like Object.prototype members as ordinary names', async () => {
      const { url, identifier } = await create({
        config: {
          expire_in: '1d',
          postback: hookUrl,
          field_guard: [{ name: '__proto__' }, { name: 'constructor', value: 'Acme 42' }],
          custom_params: [
            { name: '__proto__', field_type: 'hidden', value: 'Ref 7' },
            { name: 'constructor', label: 'Building', required: true },
          ],
        },
      });
      let res = await post(`${url}/guard`, { ['__proto__']: 'ref 8', constructor: 'acme42' });
      assert.equal(res.status, 403);
      assert.match(await res.text(), /do not match/);
      res = await post(`${url}/guard`, { ['__proto__']: 'REF-7', constructor: 'acme42' });
      assert.equal(res.status, 303, 'both guards pass with their values');
      const jar = res.headers.get('set-cookie')!.split(';')[0];
      res = await post(url, card, jar);
      assert.equal(res.status, 422);
      assert.match(await res.text(), /Building is required/);
      res = await post(url, { ...card, custom_constructor: 'North wing' }, jar);
      assert.match(await res.text(), /Payment complete/);
      await call(`${t.adminUrl}/outbox/deliver`, { method: 'POST' });
      const pb = postbacks.find((p) => p.body.identifier === identifier);
      assert.deepEqual(pb.body.custom_params, { ['__proto__']: 'Ref 7', constructor: 'North wing' });
    });

    it('shows a decline on the form and lets the payer try again', async () => {
      const { token, url } = await create({});
      let res = await post(url, { ...card, csc: '333' });
      assert.match(await res.text(), /Payment declined/);
      let s = await status(token);
      assert.equal(s.is_paid, false);
      assert.equal(s.is_open_for_payment, true);
      assert.equal(s.last_payment_result.result_code, '090');
      res = await post(url, { ...card, cardnumber: '4000000000000003' });
      assert.equal(res.status, 422, 'a Luhn failure never reaches the acquirer');
      s = await status(token);
      assert.equal(s.payment_attempts_count, 1);
      res = await post(url, card);
      assert.match(await res.text(), /Payment complete/);
      s = await status(token);
      assert.equal(s.is_paid, true);
      assert.equal(s.payment_attempts_count, 2);
    });

    it('posts back the last decline as the final result when the token expires unpaid', async () => {
      const { token, url, identifier } = await create({ config: { postback: hookUrl, expire_in: '10m' } });
      await post(url, { ...card, csc: '333' });
      await call(`${t.adminUrl}/outbox/deliver`, { method: 'POST' });
      assert.equal(postbacks.filter((p) => p.body.identifier === identifier).length, 0, 'a decline is not final while the token is open');
      await call(`${t.adminUrl}/clock`, { body: { advance: '11m' } });
      await call(`${t.adminUrl}/outbox/deliver`, { method: 'POST' });
      const pb = postbacks.filter((p) => p.body.identifier === identifier);
      assert.equal(pb.length, 1);
      assert.equal(pb[0].body.authorised, 'false');
      assert.equal(pb[0].body.errorcode, '090');
      assert.equal(pb[0].body.token, token);
    });

    it('keeps a token locked to the browser session the merchant gave', async () => {
      const { url } = await create({ cardholder: { remote_addr: '127.0.0.1', user_agent: 'ShopBrowser/1.0' } });
      assert.equal((await fetch(url, { headers: { 'user-agent': 'ShopBrowser/1.0' } })).status, 200);
      const other = await fetch(url, { headers: { 'user-agent': 'OtherBrowser/2.0' } });
      assert.equal(other.status, 403);
      assert.match(await other.text(), /locked to another browser/);
      const elsewhere = await create({ cardholder: { remote_addr: '203.0.113.9' } });
      assert.equal((await fetch(elsewhere.url)).status, 403);
    });

    it('locks a token for good after more than 20 denials', async () => {
      const { url, identifier } = await create({ config: { expire_in: '30d', field_guard: [{ name: 'identifier' }] } });
      // Five denials every 31 minutes never trip the hourly lock, but the 21st denial in total locks for good.
      for (let round = 0; round < 5; round++) {
        for (let i = 0; i < 5 && round * 5 + i < 21; i++) assert.equal((await post(`${url}/guard`, { identifier: 'wrong' })).status, 403);
        await call(`${t.adminUrl}/clock`, { body: { advance: '31m' } });
      }
      let res = await post(`${url}/guard`, { identifier: 'wrong' });
      assert.match(await res.text(), /Too many incorrect attempts\. Please contact the merchant/);
      await call(`${t.adminUrl}/clock`, { body: { advance: '7d' } });
      res = await post(`${url}/guard`, { identifier });
      assert.equal(res.status, 403, 'the right answer no longer opens it');
      assert.match(await res.text(), /contact the merchant/);
    });

    it('refuses cancelled and expired tokens', async () => {
      const a = await create({});
      await api('PUT', `/paylink/${a.token}/cancel`);
      let res = await fetch(a.url);
      assert.equal(res.status, 410);
      assert.match(await res.text(), /cancelled/);
      res = await post(a.url, card);
      assert.equal(res.status, 410);
      assert.equal((await status(a.token)).is_paid, false);
      const b = await create({ config: { expire_in: '10m' } });
      await call(`${t.adminUrl}/clock`, { body: { advance: '11m' } });
      res = await fetch(b.url);
      assert.equal(res.status, 410);
      assert.equal((await status(b.token)).is_expired, true);
      assert.equal((await fetch(`${base}/pay/unknown-token`)).status, 404);
    });

    it('guards the form: denials are recorded, six in 30 minutes lock for an hour, success sets a per-merchant cookie', async () => {
      const { token, url } = await create({ config: { expire_in: '1d', field_guard: [{ name: 'lastname', label: 'Surname' }, { name: 'postcode' }] }, cardholder: { lastname: "O'Brien-Müller", address: { postcode: 'SW1A 1AA' } } });
      let res = await fetch(url);
      let html = await res.text();
      assert.match(html, /id="guard-form"/);
      assert.doesNotMatch(html, /Brien|SW1A/, 'expected values never reach the page');
      res = await post(url, card);
      assert.match(await res.text(), /id="guard-form"/, 'cannot pay without passing the guards');
      assert.equal((await status(token)).payment_attempts_count, 0);

      for (let i = 0; i < 5; i++) {
        res = await post(`${url}/guard`, { lastname: 'Smith', postcode: 'SW1A 1AA' });
        assert.equal(res.status, 403);
        assert.match(await res.text(), /do not match/);
      }
      res = await post(`${url}/guard`, { lastname: 'obrienmuller', postcode: 'sw1a1aa' });
      assert.equal(res.status, 303, 'five denials do not lock');
      const cookie = res.headers.get('set-cookie')!;
      assert.match(cookie, new RegExp(`^paylink_access_${MID}=`));
      assert.match(cookie, /Max-Age=86400; HttpOnly; SameSite=Lax/);
      const jar = cookie.split(';')[0];
      res = await fetch(url, { headers: { cookie: jar } });
      html = await res.text();
      assert.match(html, /id="payment-form"/);
      // The cookie does not open another merchant's token, nor a forged one this token.
      const other = await create({ merchantid: MID2, config: { field_guard: [{ name: 'identifier' }] } });
      assert.match(await (await fetch(other.url, { headers: { cookie: jar.replace(`${MID}`, `${MID2}`) } })).text(), /id="guard-form"/);
      assert.match(await (await fetch(url, { headers: { cookie: `${jar.slice(0, -4)}0000` } })).text(), /id="guard-form"/);

      const s = await status(token);
      assert.equal(s.is_validated, true);
      assert.equal(s.state_history.filter((e: any) => e.state === 'FieldGuardDenied').length, 5);

      const locked = await create({ config: { expire_in: '1d', field_guard: [{ name: 'identifier' }] } });
      for (let i = 0; i < 6; i++) await post(`${locked.url}/guard`, { identifier: 'wrong' });
      res = await post(`${locked.url}/guard`, { identifier: locked.identifier });
      assert.equal(res.status, 403);
      assert.match(await res.text(), /Too many incorrect attempts/);
      let ls = await status(locked.token);
      assert.equal(ls.state_history.filter((e: any) => e.state === 'FieldGuardDenied').length, 6, 'refusals while locked are not denials');
      assert.ok(ls.state_history.some((e: any) => e.state === 'FieldGuardLocked'));
      await call(`${t.adminUrl}/clock`, { body: { advance: '61m' } });
      res = await post(`${locked.url}/guard`, { identifier: locked.identifier.toLowerCase() });
      assert.equal(res.status, 303, 'the lock lifts after an hour');
      ls = await status(locked.token);
      assert.equal(ls.is_validated, true);
    });
  });
}
