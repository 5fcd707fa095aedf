// /v6/authorise through HTTP: every field rule, the sandbox outcomes, policies, duplicates, pre-auth, JSON and XML.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { AMEX, authRequest, describeGateway, ident, MASTERCARD, MID, moveClock, STRICT_MID, VISA } from './support.ts';

describeGateway('payments authorise', (t, c) => {

  const authorise = async (over: Record<string, unknown> = {}) => {
    const res = await c.post('/v6/authorise', authRequest(over));
    return res;
  };
  /** Asserts a refusal and that no transaction exists under the identifier afterwards. */
  const refused = async (over: Record<string, unknown>, status: number, code: string) => {
    const identifier = typeof over.identifier === 'string' ? over.identifier : ident('bad');
    const res = await c.post('/v6/authorise', authRequest({ identifier, ...over }));
    assert.equal(res.status, status, `${JSON.stringify(over)} -> ${res.text}`);
    assert.equal(res.body.code, code, JSON.stringify(over));
    assert.equal(typeof res.body.message, 'string');
    assert.ok(res.body.response_dt);
    if (typeof identifier === 'string' && /^[\x20-\x7e]{4,50}$/.test(identifier)) {
      const after = await c.post('/v6/retrieve', { merchantid: MID, identifier });
      assert.equal(after.body.code, 'D023', 'nothing was stored');
    }
  };

  it('approves a sale with the sandbox codes, masked PAN and digest', async () => {
    const res = await authorise({ amount: 2599, trans_info: 'web order', tag: ['web', 'promo'] });
    assert.equal(res.status, 200);
    const a = res.body.AuthResponse;
    assert.deepEqual(Object.keys(res.body), ['AuthResponse']);
    assert.equal(a.authorised, true);
    assert.equal(a.result, 1);
    assert.equal(a.result_code, '001');
    assert.equal(a.authcode, 'A12345');
    assert.equal(a.maskedpan, '400000******0002');
    assert.equal(a.trans_status, 'O');
    assert.equal(a.currency, 'GBP');
    assert.equal(a.scheme, 'Visa');
    assert.equal(a.live, false);
    assert.match(a.sha256, /^[A-Za-z0-9+/]{43}=$/);
    assert.ok(!res.text.includes(VISA), 'the card number never appears');
    assert.ok(!res.text.includes('"012"'), 'the CSC never appears');
  });

  it('numbers transactions per merchant, counting up', async () => {
    const a = (await authorise()).body.AuthResponse.transno;
    const b = (await authorise()).body.AuthResponse.transno;
    const s = (await authorise({ merchantid: STRICT_MID, csc: '123', currency: 'USD', bill_to: { postcode: '10001', address1: '5 Main St' } })).body.AuthResponse;
    assert.equal(b, a + 1);
    assert.equal(s.merchantid, STRICT_MID);
    assert.ok(s.transno >= 1 && s.transno < a, 'the strict merchant has its own counter');
  });

  it('rejects every malformed field with its result code and stores nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: undefined }, 'P004'],
      [{ amount: '1500' }, 'P005'],
      [{ amount: 15.5 }, 'P005'],
      [{ amount: 0 }, 'P005'],
      [{ amount: 1234567890 }, 'P005'],
      [{ cardnumber: undefined }, 'C003'],
      [{ cardnumber: 4000000000000002 }, 'C001'],
      [{ cardnumber: 'abcd' }, 'C001'],
      [{ cardnumber: '40000000002' }, 'C004'],
      [{ cardnumber: '4'.repeat(23) }, 'C004'],
      [{ expmonth: undefined }, 'C010'],
      [{ expmonth: 13 }, 'C007'],
      [{ expmonth: '12' }, 'C007'],
      [{ expyear: 1999 }, 'C008'],
      [{ expyear: 2101 }, 'C008'],
      [{ identifier: undefined }, 'P026'],
      [{ identifier: 'abc' }, 'P039'],
      [{ identifier: 'x'.repeat(51) }, 'P016'],
      [{ identifier: 'caf\u00e9-order' }, 'P045'],
      [{ merchantid: undefined }, 'P002'],
      [{ merchantid: 'abc' }, 'P003'],
      [{ csc: 123 }, 'C012'],
      [{ csc: '12a' }, 'C012'],
      [{ csc: '12' }, 'C012'],
      [{ csc: '12345' }, 'C013'],
      [{ currency: 'POUND' }, 'P034'],
      [{ csc_policy: '4' }, 'P045'],
      [{ duplicate_policy: 1 }, 'P045'],
      [{ name_on_card: 'A' }, 'P045'],
      [{ name_on_card: 'A'.repeat(46) }, 'P045'],
      [{ trans_info: 'x'.repeat(51) }, 'P045'],
      [{ trans_type: 'AB' }, 'P023'],
      [{ tag: 'web' }, 'P045'],
      [{ tag: ['a', 'b', 'c', 'd'] }, 'P045'],
      [{ bill_to: 'somewhere' }, 'P045'],
      [{ bill_to: { postcode: 'x'.repeat(17) } }, 'P045'],
      [{ bill_to: { country: 'GBR' } }, 'P045'],
      [{ ship_to: { address1: 'x'.repeat(51) } }, 'P045'],
      [{ threedsecure: { merchant_termurl: 'javascript:alert(1)' } }, 'P045'],
    ];
    for (const [over, code] of cases) await refused(over, 400, code);
  });

  it('answers 400 for bodies that are not objects or not JSON/XML', async () => {
    for (const raw of ['[1,2]', '"text"', '{"amount":', '']) {
      const res = await c.post('/v6/authorise', undefined, { raw, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400, raw);
      assert.equal(typeof res.body.code, 'string');
    }
    const res = await c.post('/v6/authorise', undefined, { raw: 'a=b', headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(res.status, 400);
    const xml = await c.post('/v6/authorise', undefined, { raw: '<AuthRequest><amount>1', headers: { 'content-type': 'text/xml' } });
    assert.equal(xml.status, 400);
    assert.match(xml.text, /^<\?xml[^>]*\?><Error><code>D029<\/code>/);
  });

  it('refuses cards failing Luhn, expired cards, unknown BINs, wrong CSC length and other currencies (422)', async () => {
    await refused({ cardnumber: '4000000000000003' }, 422, 'C002');
    await refused({ expmonth: 2, expyear: 2026 }, 422, 'C006');
    await refused({ cardnumber: '9000000000000001' }, 422, 'C022');
    await refused({ cardnumber: AMEX, csc: '123' }, 422, 'C026');
    await refused({ csc: '1234' }, 422, 'C026');
    await refused({ currency: 'EUR' }, 422, 'D016');
  });

  it('strips non-digits from the card number and accepts the test cards', async () => {
    let res = await authorise({ cardnumber: '4000 0000-0000 0002' });
    assert.equal(res.body.AuthResponse.authorised, true);
    res = await authorise({ cardnumber: AMEX, csc: '1234' });
    assert.deepEqual([res.body.AuthResponse.authorised, res.body.AuthResponse.scheme, res.body.AuthResponse.maskedpan], [true, 'American Express', '374387*****9714']);
    res = await authorise({ cardnumber: MASTERCARD });
    assert.equal(res.body.AuthResponse.scheme, 'Mastercard');
  });

  it('declines by amount and CSC triggers with HTTP 200', async () => {
    const table: Array<[Record<string, unknown>, string, number]> = [
      [{ amount: 3333 }, '090', 0],
      [{ csc: '344' }, '095', 0],
      [{ amount: 3355 }, '096', 0],
      [{ csc: '366' }, '094', 0],
      [{ amount: 3377 }, '091', 0],
      [{ csc: '444' }, '089', 4],
      [{ amount: 6666 }, 'F006', 2],
      [{ cardnumber: AMEX, csc: '1333' }, '090', 0],
    ];
    for (const [over, code, result] of table) {
      const res = await authorise(over);
      assert.equal(res.status, 200);
      const a = res.body.AuthResponse;
      assert.deepEqual([a.authorised, a.result_code, a.result, a.authcode], [false, code, result, ''], JSON.stringify(over));
      assert.ok(a.transno > 0);
      assert.equal(a.trans_status, result === 2 ? 'R' : 'D');
    }
  });

  it('enforces AVS and CSC on the strict merchant unless the request bypasses or ignores them', async () => {
    const strict = (over: Record<string, unknown>) =>
      authorise({ merchantid: STRICT_MID, currency: 'USD', csc: '123', bill_to: { postcode: '10001', address1: '5 Main St' }, ...over });
    assert.equal((await strict({})).body.AuthResponse.authorised, true);
    assert.equal((await strict({ csc: '999' })).body.AuthResponse.result_code, '094');
    assert.equal((await strict({ csc: undefined })).body.AuthResponse.result_code, '094');
    assert.equal((await strict({ bill_to: { postcode: '99', address1: '5 Main St' } })).body.AuthResponse.result_code, '096');
    assert.equal((await strict({ bill_to: { postcode: '10001', address1: '99 Main St' } })).body.AuthResponse.result_code, '095');
    assert.equal((await strict({ amount: 5566 })).body.AuthResponse.result_code, '094');
    let a = (await strict({ csc: '999', csc_policy: '2' })).body.AuthResponse;
    assert.deepEqual([a.authorised, a.csc_result], [true, 'N']);
    a = (await strict({ csc: '999', csc_policy: '3' })).body.AuthResponse;
    assert.deepEqual([a.authorised, a.csc_result], [true, ' ']);
    a = (await strict({ bill_to: { postcode: '99', address1: '99' }, avs_postcode_policy: '2', match_avsa: '3' })).body.AuthResponse;
    assert.deepEqual([a.authorised, a.avs_result], [true, 'N']);
    // The development merchant bypasses by default: the conditional triggers do not fire.
    assert.equal((await authorise({ amount: 5566 })).body.AuthResponse.authorised, true);
  });

  it('refuses a duplicate inside the window with T001, allows it with the policy bypassed or a new identifier', async () => {
    const identifier = ident('dup');
    const first = (await authorise({ identifier })).body.AuthResponse;
    assert.equal(first.authorised, true);
    const again = (await authorise({ identifier })).body.AuthResponse;
    assert.deepEqual([again.authorised, again.result_code, again.transno], [false, 'T001', -1]);
    assert.equal((await authorise({ identifier, duplicate_policy: '2' })).body.AuthResponse.authorised, true);
    assert.equal((await authorise({ identifier, duplicate_policy: '3' })).body.AuthResponse.authorised, true);
    assert.equal((await authorise({ identifier: ident('dup') })).body.AuthResponse.authorised, true);
    // After the window (300 s) the same request is new again.
    await moveClock(t, { advance: '301s' });
    assert.equal((await authorise({ identifier })).body.AuthResponse.authorised, true);
  });

  it('a declined attempt does not block a retry with the same identifier', async () => {
    const identifier = ident('retry');
    assert.equal((await authorise({ identifier, amount: 3333 })).body.AuthResponse.authorised, false);
    assert.equal((await authorise({ identifier })).body.AuthResponse.authorised, true);
  });

  it('yields exactly one approval for concurrent requests with one identifier', async () => {
    const identifier = ident('race');
    const results = await Promise.all(Array.from({ length: 8 }, () => authorise({ identifier })));
    const approved = results.filter((r) => r.body.AuthResponse.authorised);
    assert.equal(approved.length, 1);
    assert.ok(results.every((r) => r.body.AuthResponse.authorised || r.body.AuthResponse.result_code === 'T001'));
  });

  it('pre-authorises with pre_auth or trans_type P', async () => {
    let a = (await authorise({ pre_auth: true })).body.AuthResponse;
    assert.deepEqual([a.authorised, a.authcode, a.trans_status], [true, 'B12345', 'P']);
    a = (await authorise({ trans_type: 'P' })).body.AuthResponse;
    assert.equal(a.trans_status, 'P');
  });

  it('speaks XML in and out, by Content-Type and Accept, and accepts a JSON root wrapper', async () => {
    const identifier = ident('xml');
    const body =
      `<?xml version="1.0"?><AuthRequest><amount>1200</amount><cardnumber>4000000000000002</cardnumber><expmonth>12</expmonth>` +
      `<expyear>2030</expyear><identifier>${identifier}</identifier><merchantid>${MID}</merchantid><csc>012</csc><tag>a</tag>` +
      `<bill_to><postcode>AB1 2CD</postcode></bill_to></AuthRequest>`;
    let res = await c.post('/v6/authorise', undefined, { raw: body, headers: { 'content-type': 'text/xml' } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/xml/);
    assert.match(res.text, /<Decision><AuthResponse><amount>1200<\/amount>.*<authorised>true<\/authorised>/);
    res = await c.post('/v6/authorise', undefined, { raw: body.replace(identifier, ident('xml')), headers: { 'content-type': 'text/xml', accept: 'application/json' } });
    assert.equal(res.body.AuthResponse.amount, 1200);
    res = await c.post('/v6/authorise', authRequest(), { headers: { accept: 'text/xml, application/json;q=0.5' } });
    assert.match(res.headers.get('content-type')!, /^text\/xml/);
    res = await c.post('/v6/authorise', { AuthRequest: authRequest({ amount: 1300 }) }, { headers: { accept: 'application/xml' } });
    assert.match(res.headers.get('content-type')!, /^application\/xml/);
    assert.match(res.text, /<amount>1300<\/amount>/);
    res = await c.post('/v6/authorise', undefined, { raw: body.replace('<amount>1200', '<amount>twelve'), headers: { 'content-type': 'text/xml' } });
    assert.equal(res.status, 400);
    assert.match(res.text, /<Error><code>P005<\/code>/);
  });

  it('never answers 500 and never stores anything for arbitrary bodies', async () => {
    const value = fc.oneof(fc.integer(), fc.double(), fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 3 }), fc.object({ maxDepth: 1 }));
    const field = fc.constantFrom('amount', 'cardnumber', 'expmonth', 'expyear', 'identifier', 'merchantid', 'csc', 'currency', 'bill_to', 'tag', 'threedsecure', 'csc_policy', 'trans_type');
    await fc.assert(
      fc.asyncProperty(fc.dictionary(field, value, { maxKeys: 4 }), async (over) => {
        const body = authRequest({ ...over, identifier: typeof over.identifier === 'string' ? over.identifier : ident('fz') });
        const res = await c.post('/v6/authorise', body);
        assert.ok([200, 400, 403, 422].includes(res.status), `${res.status} for ${JSON.stringify(body)}: ${res.text}`);
        if (res.status !== 200) assert.equal(typeof res.body.code, 'string');
      }),
      { numRuns: 60 },
    );
  });

  it('answers unknown operations with a 404 Error', async () => {
    const res = await c.post('/v6/nothing', {});
    assert.deepEqual([res.status, res.body.code], [404, 'D101']);
  });

  it('looks up BINs', async () => {
    let res = await c.post('/v6/bin', { bin: 485779 });
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.scheme, res.body.bin_commercial, res.body.bin_debit], ['Visa', true, true]);
    res = await c.post('/v6/bin', { bin: 37438718 });
    assert.equal(res.body.scheme, 'American Express');
    for (const bin of [12345, 1234567890123, '400000']) assert.equal((await c.post('/v6/bin', { bin })).status, 400, String(bin));
    res = await c.post('/v6/bin', { bin: 900000 });
    assert.deepEqual([res.status, res.body.code], [422, 'C022']);
  });
});
