// POST /v6/authenticate through HTTP, sent exactly as the official JS client (1.3.x) and the TS client send it: the
// key it answers works on the processing, account and Paylink routes; `subject` limits the key to one merchant;
// wrong credentials and bad input are refused with the Error model and write nothing. Also: body-less Paylink
// actions accept `Content-Type: application/json` with an empty body, as many HTTP clients send them.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { authRequest, CLIENT, describeGateway, FOREIGN_MID, LICENCE, MID, OTHER_CLIENT, OTHER_LICENCE, paymentsRowCounts, STRICT_MID } from './support.ts';

describeGateway('payments /v6/authenticate', (t, c) => {
  const base = () => t.url('payments');

  /** The JS client's generateApiKey: a JSON POST with clientid and licencekey (and subject when set), no other header. */
  const jsClientKey = async (clientid: string, licencekey: string, subject?: string) => {
    const data: Record<string, string> = { clientid, licencekey };
    if (subject) data.subject = subject;
    return fetch(`${base()}/v6/authenticate`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(data) });
  };
  const post = (path: string, key: string, body: unknown) =>
    fetch(`${base()}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'cp-api-key': key }, body: JSON.stringify(body) });

  it('issues a key the JS client reads from `key`, and the key works on processing, accounts and Paylink', async () => {
    const res = await jsClientKey(CLIENT, LICENCE);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /application\/json/);
    const answer = await res.json();
    assert.equal(typeof answer.key, 'string');
    assert.equal(answer.clientid, CLIENT);
    assert.equal(answer.expires, '2026-03-10T12:20:00.000Z', 'the sandbox TTL of 20 minutes');
    assert.equal(Buffer.from(answer.key, 'base64').subarray(0, CLIENT.length + 1).toString(), `${CLIENT}:`);

    const ping = await post('/v6/ping', answer.key, { identifier: 'auth-ping' });
    assert.equal(ping.status, 200);
    assert.equal((await ping.json()).code, '044');
    // Each key works once, as every key does.
    const again = await post('/v6/ping', answer.key, { identifier: 'auth-ping' });
    assert.equal(again.status, 403);
    assert.equal((await again.json()).code, 'S004');

    const key2 = (await (await jsClientKey(CLIENT, LICENCE)).json()).key;
    const auth = await post('/v6/authorise', key2, authRequest({ merchantid: STRICT_MID, currency: 'USD', csc: '123', bill_to: { postcode: '12', address1: '1 Street' } }));
    assert.equal(auth.status, 200);
    assert.equal((await auth.json()).AuthResponse.authorised, true);

    const key3 = (await (await jsClientKey(CLIENT, LICENCE)).json()).key;
    const account = await post('/v6/account/create', key3, { account_id: `auth-acct-${Date.now()}` });
    assert.equal(account.status, 200);
  });

  it('accepts the TS client body (nonce and timestamp besides the credentials)', async () => {
    const res = await fetch(`${base()}/v6/authenticate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ clientid: CLIENT, licencekey: LICENCE, nonce: '0123456789ABCDEF', timestamp: new Date().toISOString() }),
    });
    assert.equal(res.status, 200);
    const { key } = await res.json();
    assert.equal((await post('/v6/ping', key, {})).status, 200);
  });

  it('honours subject: the key acts for that merchant only', async () => {
    const res = await jsClientKey(CLIENT, LICENCE, String(MID));
    assert.equal(res.status, 200);
    const answer = await res.json();
    assert.equal(answer.subject, String(MID));
    const ok = await post('/v6/authorise', answer.key, authRequest());
    assert.equal(ok.status, 200);

    const scoped = (await (await jsClientKey(CLIENT, LICENCE, String(MID))).json()).key;
    const refused = await post('/v6/authorise', scoped, authRequest({ merchantid: STRICT_MID, currency: 'USD' }));
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).code, 'S002');

    const listing = (await (await jsClientKey(CLIENT, LICENCE, String(MID))).json()).key;
    const merchants = await fetch(`${base()}/v6/merchants/default`, { headers: { 'cp-api-key': listing } });
    assert.deepEqual((await merchants.json()).merchants.map((m: { merchantid: number }) => m.merchantid), [MID]);

    // Without a subject the same client reaches every merchant it owns.
    const open = (await (await jsClientKey(CLIENT, LICENCE)).json()).key;
    assert.equal((await post('/v6/authorise', open, authRequest({ merchantid: STRICT_MID, currency: 'USD', csc: '123', bill_to: { postcode: '12', address1: '1 Street' } }))).status, 200);
  });

  it('refuses wrong credentials and bad input with the Error model, writing nothing', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ clientid: CLIENT, licencekey: 'WRONGLICENCEKEY1' }, 403, 'S003'],
      [{ clientid: 'NOSUCHCLIENT', licencekey: LICENCE }, 403, 'S003'],
      [{ clientid: CLIENT, licencekey: OTHER_LICENCE }, 403, 'S003'],
      [{ clientid: OTHER_CLIENT, licencekey: OTHER_LICENCE, subject: String(MID) }, 403, 'S002'],
      [{ clientid: CLIENT, licencekey: LICENCE, subject: String(FOREIGN_MID) }, 403, 'S002'],
      [{ clientid: CLIENT, licencekey: LICENCE, subject: '99999' }, 403, 'S002'],
      [{ clientid: CLIENT, licencekey: LICENCE, subject: 'shop' }, 400, 'P045'],
      [{ clientid: CLIENT, licencekey: LICENCE, subject: { id: MID } }, 400, 'P045'],
      [{ licencekey: LICENCE }, 400, 'D027'],
      [{ clientid: CLIENT }, 400, 'P035'],
      [{ clientid: CLIENT, licencekey: '' }, 400, 'P035'],
      [{ clientid: 42, licencekey: LICENCE }, 400, 'P045'],
      [{ clientid: CLIENT, licencekey: ['x'] }, 400, 'P045'],
      [{ clientid: 'C'.repeat(51), licencekey: LICENCE }, 400, 'P045'],
      [{ clientid: CLIENT, licencekey: 'L'.repeat(256) }, 400, 'P045'],
      [[CLIENT, LICENCE], 400, 'D029'],
    ];
    const before = await paymentsRowCounts(t);
    for (const [body, status, code] of cases) {
      const res = await fetch(`${base()}/v6/authenticate`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const answer = await res.json();
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(answer.code, code, JSON.stringify(body));
      assert.equal(typeof answer.message, 'string');
      assert.equal(typeof answer.context, 'string');
      assert.match(answer.response_dt, /^2026-03-10T/);
      assert.equal(answer.key, undefined);
    }
    assert.deepEqual(await paymentsRowCounts(t), before);
    // The licence key is never echoed.
    const res = await jsClientKey(CLIENT, 'WRONGLICENCEKEY1');
    assert.ok(!(await res.text()).includes('WRONGLICENCEKEY1'));
  });

  it('answers XML when asked', async () => {
    const res = await fetch(`${base()}/v6/authenticate`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml' },
      body: `<AuthenticateRequest><clientid>${CLIENT}</clientid><licencekey>${LICENCE}</licencekey></AuthenticateRequest>`,
    });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<AuthenticateResponse>.*<key>[A-Za-z0-9+/=]+<\/key>/s);
  });

  it('accepts PUT close and reopen with Content-Type application/json and an empty body', async () => {
    const created = await c.post('/paylink/create', { merchantid: MID, amount: 1200, identifier: `empty-body-${Date.now()}` });
    assert.equal(created.status, 200, created.text);
    const put = (path: string) => fetch(`${base()}${path}`, { method: 'PUT', headers: { 'Content-Type': 'application/json', 'cp-api-key': c.key() } });
    for (const action of ['close', 'reopen']) {
      const res = await put(`/paylink/${created.body.token}/${action}`);
      const answer = await res.json();
      assert.equal(res.status, 200, JSON.stringify(answer));
      assert.equal(answer.code, '001');
    }
    const status = await c.get(`/paylink/${created.body.token}/status`);
    assert.equal(status.status, 200);
    assert.equal(status.body.is_closed, false);
  });
});
