// 3-D Secure v2 in the sandbox: the frictionless CSC table, and a challenge completed through HTTP: the ACS page and
// form, the return to merchant_termurl, and /v6/cres completing the authorisation.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, it } from 'node:test';
import { call } from '../helpers/runtime.ts';
import { authRequest, caller, describeGateway, FOREIGN_MID, MASTERCARD, MID, OTHER_CLIENT, OTHER_LICENCE } from './support.ts';

/** The merchant's return address: records what the browser posts to it. */
async function termUrlServer(): Promise<{ url: string; posts: string[]; close(): Promise<void> }> {
  const posts: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      posts.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/return`, posts, close: () => new Promise((r) => server.close(() => r())) };
}

const hidden = (html: string, name: string): string => {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  assert.ok(m, `hidden field ${name}`);
  return m[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"');
};

const form = (url: string, fields: Record<string, string>) =>
  call(url, { method: 'POST', raw: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

describeGateway('payments 3-D Secure', (t, c) => {
  let term: Awaited<ReturnType<typeof termUrlServer>>;
  before(async () => {
    term = await termUrlServer();
  });
  after(async () => term.close());

  const tds = (csc: string, over: Record<string, unknown> = {}) =>
    c.post('/v6/authorise', authRequest({ csc, threedsecure: { merchant_termurl: term.url, browserLanguage: 'en-GB' }, ...over }));

  it('follows the frictionless CSC table', async () => {
    const expect: Array<[string, boolean, string, string]> = [
      ['750', true, 'Y', '001'],
      ['741', true, 'A', '001'],
      ['732', true, 'U', '001'],
      ['731', false, 'N', '098'],
      ['733', false, 'R', '098'],
      ['761', false, 'U', 'D047'],
    ];
    for (const [csc, authorised, authen, code] of expect) {
      const res = await tds(csc);
      assert.equal(res.status, 200);
      const a = res.body.AuthResponse;
      assert.ok(a, `${csc}: ${res.text}`);
      assert.deepEqual([a.authorised, a.authen_result, a.result_code], [authorised, authen, code], csc);
    }
    assert.equal((await tds('750')).body.AuthResponse.eci, '05');
  });

  it('skips 3-D Secure with tds_policy 2 or without threedsecure data', async () => {
    let res = await tds('123', { threedsecure: { tds_policy: '2' } });
    assert.equal(res.body.AuthResponse.authorised, true);
    res = await c.post('/v6/authorise', authRequest({ csc: '123' }));
    assert.equal(res.body.AuthResponse.authorised, true);
  });

  it('completes a challenge through the ACS page and /v6/cres', async () => {
    const res = await tds('123', { amount: 4321 });
    assert.equal(res.status, 200);
    const rc = res.body.RequestChallenged;
    assert.deepEqual(Object.keys(res.body), ['RequestChallenged']);
    assert.equal(rc.merchantid, MID);
    assert.ok(rc.transno > 0);
    assert.match(rc.acs_url, /\/3dsv2\/acs$/);

    // The browser posts creq to the ACS and sees the challenge page.
    const page = await form(rc.acs_url, { creq: rc.creq, threeDSSessionData: rc.threedserver_trans_id });
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /text\/html/);
    assert.match(page.text, /id="acs-amount">43.21 GBP</);
    assert.ok(page.text.includes('id="acs-form"'));

    // Before the cardholder answers there is nothing to complete.
    const early = await c.post('/v6/retrieve', { merchantid: MID, transno: rc.transno });
    assert.equal(early.body.auths[0].trans_status, 'H');

    // The cardholder authenticates; the ACS hands the browser an auto-submitting form to merchant_termurl.
    const done = await form(`${t.url('payments')}/3dsv2/acs/result`, {
      creq: hidden(page.text, 'creq'),
      threeDSSessionData: hidden(page.text, 'threeDSSessionData'),
      transStatus: 'Y',
    });
    assert.equal(done.status, 200);
    assert.ok(done.text.includes(`action="${term.url}"`));
    const cres = hidden(done.text, 'cres');
    assert.equal(hidden(done.text, 'threeDSSessionData'), rc.threedserver_trans_id);
    // The browser's post to the merchant.
    await form(term.url, { cres, threeDSSessionData: rc.threedserver_trans_id });
    assert.ok(term.posts.at(-1)!.includes('cres='));

    // Another client cannot complete it.
    const foreign = await caller(t, OTHER_CLIENT, OTHER_LICENCE).post('/v6/cres', { cres });
    assert.deepEqual([foreign.status, foreign.body.code], [403, 'S002']);

    const auth = await c.post('/v6/cres', { cres });
    assert.equal(auth.status, 200);
    const a = auth.body;
    assert.deepEqual([a.authorised, a.authen_result, a.authcode, a.amount, a.transno, a.eci], [true, 'Y', 'A12345', 4321, rc.transno, '05']);
    assert.equal((await c.post('/v6/retrieve', { merchantid: MID, transno: rc.transno })).body.auths[0].trans_status, 'O');

    // A second completion is refused and changes nothing.
    const again = await c.post('/v6/cres', { cres });
    assert.deepEqual([again.status, again.body.code], [422, 'P030']);
  });

  it('declines when the cardholder cancels the challenge', async () => {
    const rc = (await tds('222')).body.RequestChallenged;
    const done = await form(`${t.url('payments')}/3dsv2/acs/result`, { creq: rc.creq, threeDSSessionData: 'x', transStatus: 'N' });
    const a = (await c.post('/v6/cres', { cres: hidden(done.text, 'cres') })).body;
    assert.deepEqual([a.authorised, a.authen_result, a.result_code, a.trans_status], [false, 'N', '098', 'D']);
  });

  it('supports the JSON ACS shortcut and keeps the acquirer outcome decided at the start', async () => {
    const rc = (await tds('123', { amount: 3333 })).body.RequestChallenged;
    const acs = await call(rc.acs_url, { body: { creq: rc.creq, threeDSSessionData: 's1' } });
    assert.equal(acs.status, 200);
    const a = (await c.post('/v6/cres', { cres: acs.body.cres })).body;
    assert.deepEqual([a.authorised, a.authen_result, a.result_code], [false, 'Y', '090']);
    const gen = await call(`${t.url('payments')}/3dsv2/gen-rreq`, { body: { creq: rc.creq, transStatus: 'Y' } });
    assert.equal(gen.status, 400, 'a completed challenge cannot be answered again');
  });

  it('gives Mastercard and Maestro cards their scheme\'s ECI (02 / 01 / 00), Visa its own (05 / 06 / 07)', async () => {
    const eci = async (cardnumber: string, csc: string) => (await tds(csc, { cardnumber })).body.AuthResponse.eci;
    for (const cardnumber of [MASTERCARD, '6333110000000002']) {
      assert.deepEqual([await eci(cardnumber, '750'), await eci(cardnumber, '741'), await eci(cardnumber, '732')], ['02', '01', '00'], cardnumber);
    }
    assert.deepEqual([await eci('4000000000000002', '750'), await eci('4000000000000002', '741'), await eci('4000000000000002', '732')], ['05', '06', '07']);
    // A challenge the Mastercard holder completes.
    const rc = (await tds('123', { cardnumber: MASTERCARD })).body.RequestChallenged;
    const gen = await call(`${t.url('payments')}/3dsv2/gen-rreq`, { body: { creq: rc.creq, transStatus: 'Y' } });
    const a = (await c.post('/v6/cres', { cres: gen.body.cres })).body;
    assert.deepEqual([a.authorised, a.authen_result, a.eci], [true, 'Y', '02']);
  });

  it('refuses forged or unknown cres and creq values', async () => {
    for (const cres of ['', 'abc', Buffer.from('{"messageType":"CRes"}').toString('base64url')]) {
      const res = await c.post('/v6/cres', { cres });
      assert.ok(res.status === 400 || res.status === 422, cres);
    }
    const page = await form(`${t.url('payments')}/3dsv2/acs`, { creq: 'nonsense' });
    assert.equal(page.status, 400);
    // A merchant without 3-D Secure: the foreign merchant has it on, but is not ours.
    assert.equal((await tds('123', { merchantid: FOREIGN_MID })).status, 403);
  });
});
