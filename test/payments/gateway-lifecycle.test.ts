// After authorisation: capture, void, refund and retrieve, every wrong-state code, and racing requests.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { authRequest, describeGateway, ident, MID, moveClock } from './support.ts';

describeGateway('payments capture, void, refund, retrieve', (t, c) => {

  const sale = async (over: Record<string, unknown> = {}) => (await c.post('/v6/authorise', authRequest(over))).body.AuthResponse;
  const retrieve = async (transno: number) => (await c.post('/v6/retrieve', { merchantid: MID, transno })).body.auths[0];
  const clock = (advance: string) => moveClock(t, { advance });

  it('captures a pre-authorisation by identifier, for the original or a smaller amount', async () => {
    const pre = await sale({ pre_auth: true, amount: 5000 });
    let res = await c.post('/v6/capture', { merchantid: MID, identifier: pre.identifier });
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.code, res.body.identifier], ['001', pre.identifier]);
    let ref = await retrieve(pre.transno);
    assert.deepEqual([ref.trans_status, ref.amount_value, ref.amount, ref.authcode], ['O', 5000, '50.00', 'C12345']);

    const pre2 = await sale({ pre_auth: true, amount: 5000 });
    res = await c.post('/v6/capture', { merchantid: MID, transno: pre2.transno, amount: 4200 });
    assert.equal(res.body.code, '001');
    ref = await retrieve(pre2.transno);
    assert.equal(ref.amount_value, 4200);
  });

  it('refuses captures in the wrong state with the documented codes, changing nothing', async () => {
    const pre = await sale({ pre_auth: true, amount: 5000 });
    let res = await c.post('/v6/capture', { merchantid: MID, transno: pre.transno, amount: 5001 });
    assert.deepEqual([res.status, res.body.code], [422, 'T002']);
    assert.equal((await retrieve(pre.transno)).trans_status, 'P');
    assert.equal((await c.post('/v6/capture', { merchantid: MID, transno: pre.transno })).body.code, '001');
    res = await c.post('/v6/capture', { merchantid: MID, transno: pre.transno });
    assert.deepEqual([res.status, res.body.code], [422, 'T011']);
    const s = await sale();
    res = await c.post('/v6/capture', { merchantid: MID, transno: s.transno });
    assert.deepEqual([res.status, res.body.code], [422, 'T012']);
    const declined = await sale({ pre_auth: true, amount: 3333 });
    assert.equal((await c.post('/v6/capture', { merchantid: MID, transno: declined.transno })).body.code, 'T013');
    const voided = await sale({ pre_auth: true });
    await c.post('/v6/void', { merchantid: MID, transno: voided.transno });
    assert.equal((await c.post('/v6/capture', { merchantid: MID, transno: voided.transno })).body.code, 'T009');
    assert.equal((await c.post('/v6/capture', { merchantid: MID, transno: 999999 })).body.code, 'D022');
    assert.equal((await c.post('/v6/capture', { merchantid: MID, identifier: 'no-such-order' })).body.code, 'D023');
    assert.equal((await c.post('/v6/capture', { merchantid: MID })).body.code, 'P013');
    assert.equal((await c.post('/v6/capture', { merchantid: MID, transno: 'one' })).body.code, 'P014');
    assert.equal((await c.post('/v6/capture', { merchantid: MID, transno: 1, amount: -5 })).body.code, 'P005');
  });

  it('refuses a capture after 7 days (T003) and expires the pre-authorisation at the next close', async () => {
    const pre = await sale({ pre_auth: true });
    await clock('169h');
    const res = await c.post('/v6/capture', { merchantid: MID, transno: pre.transno });
    assert.deepEqual([res.status, res.body.code], [422, 'T003']);
    assert.equal((await retrieve(pre.transno)).trans_status, 'P');
    // The next midnight close expires it.
    await clock('12h');
    const expired = await retrieve(pre.transno);
    assert.deepEqual([expired.trans_status, expired.result], ['E', 'Expired']);
    assert.equal((await c.post('/v6/capture', { merchantid: MID, transno: pre.transno })).body.code, 'T003');
    assert.equal((await c.post('/v6/void', { merchantid: MID, transno: pre.transno })).body.code, 'T009');
  });

  it('voids a sale once', async () => {
    const s = await sale();
    let res = await c.post('/v6/void', { merchantid: MID, identifier: s.identifier });
    assert.deepEqual([res.status, res.body.code], [200, '001']);
    assert.equal((await retrieve(s.transno)).trans_status, 'C');
    res = await c.post('/v6/void', { merchantid: MID, transno: s.transno });
    assert.deepEqual([res.status, res.body.code], [422, 'T009']);
    const d = await sale({ amount: 3333 });
    assert.equal((await c.post('/v6/void', { merchantid: MID, transno: d.transno })).body.code, 'T013');
  });

  it('refunds up to what remains, as new transactions', async () => {
    const s = await sale({ amount: 1000 });
    let res = await c.post('/v6/refund', { merchantid: MID, amount: 400, identifier: ident('rf'), refund_ref: s.transno });
    assert.equal(res.status, 200);
    const r = res.body;
    assert.deepEqual([r.authorised, r.authcode, r.amount, r.trans_status], [true, 'R12345', 400, 'O']);
    assert.ok(r.transno > s.transno);
    assert.equal((await retrieve(r.transno)).trans_type, 'R');
    res = await c.post('/v6/refund', { merchantid: MID, amount: 700, identifier: ident('rf'), refund_ref: s.transno });
    assert.deepEqual([res.status, res.body.code], [422, 'R005']);
    res = await c.post('/v6/refund', { merchantid: MID, amount: 1001, identifier: ident('rf'), refund_ref: s.transno });
    assert.equal(res.body.code, 'R002');
    assert.equal((await c.post('/v6/refund', { merchantid: MID, amount: 600, identifier: ident('rf'), refund_ref: s.transno })).status, 200);
    res = await c.post('/v6/refund', { merchantid: MID, amount: 1, identifier: ident('rf'), refund_ref: s.transno });
    assert.equal(res.body.code, 'R003');
    assert.equal((await c.post('/v6/refund', { merchantid: MID, amount: 1, identifier: ident('rf'), refund_ref: r.transno })).body.code, 'R010');
    assert.equal((await c.post('/v6/refund', { merchantid: MID, amount: 1, identifier: ident('rf'), refund_ref: 999999 })).body.code, 'R001');
    const pre = await sale({ pre_auth: true });
    assert.equal((await c.post('/v6/refund', { merchantid: MID, amount: 1, identifier: ident('rf'), refund_ref: pre.transno })).body.code, 'R011');
    assert.equal((await c.post('/v6/refund', { merchantid: MID, amount: 1, identifier: ident('rf') })).status, 400);
    assert.equal((await c.post('/v6/refund', { merchantid: MID, amount: 1, identifier: ident('rf'), refund_ref: 'x' })).body.code, 'R007');
    assert.equal((await c.post('/v6/void', { merchantid: MID, transno: r.transno })).body.code, 'T004');
  });

  it('retrieves at most five matches from the last 90 days, newest first', async () => {
    const identifier = ident('many');
    for (let i = 0; i < 6; i++) await sale({ identifier, duplicate_policy: '2', amount: 100 + i });
    const res = await c.post('/v6/retrieve', { merchantid: MID, identifier });
    assert.equal(res.status, 200);
    assert.equal(res.body.auths.length, 5);
    assert.deepEqual(res.body.auths.map((a: any) => a.amount_value), [105, 104, 103, 102, 101]);
    assert.deepEqual(Object.keys(res.body.auths[0]).sort(), ['amount', 'amount_value', 'atrn', 'authcode', 'batchno', 'currency', 'datetime', 'identifier', 'maskedpan', 'merchantid', 'result', 'trans_status', 'trans_type', 'transno']);
    assert.equal(res.body.auths[0].result, 'Accepted');
    await clock('91d');
    assert.equal((await c.post('/v6/retrieve', { merchantid: MID, identifier })).body.code, 'D023');
  });

  it('retrieves by identifier and transno together: only what matches both', async () => {
    const identifier = ident('both');
    const first = await sale({ identifier, duplicate_policy: '2', amount: 301 });
    const second = await sale({ identifier, duplicate_policy: '2', amount: 302 });
    const other = await sale({ amount: 303 });
    let res = await c.post('/v6/retrieve', { merchantid: MID, identifier, transno: first.transno });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.auths.map((a: any) => [a.transno, a.amount_value]), [[first.transno, 301]]);
    res = await c.post('/v6/retrieve', { merchantid: MID, identifier, transno: second.transno });
    assert.deepEqual(res.body.auths.map((a: any) => a.transno), [second.transno]);
    // A transno whose transaction carries another identifier matches nothing.
    res = await c.post('/v6/retrieve', { merchantid: MID, identifier, transno: other.transno });
    assert.deepEqual([res.status, res.body.code], [422, 'D022']);
    // The identifier is checked even beside a transno.
    res = await c.post('/v6/retrieve', { merchantid: MID, identifier: 'ab', transno: first.transno });
    assert.deepEqual([res.status, res.body.code], [400, 'P039']);
  });

  it('keeps transactions and counters across a restart', async () => {
    const pre = await sale({ pre_auth: true });
    await t.restart();
    const res = await c.post('/v6/capture', undefined, {
      raw: `<CaptureRequest><merchantid>${MID}</merchantid><transno>${pre.transno}</transno></CaptureRequest>`,
      headers: { 'content-type': 'text/xml' },
    });
    assert.equal(res.status, 200);
    assert.match(res.text, /<Acknowledgement><code>001<\/code>/);
    assert.equal((await sale()).transno, pre.transno + 1);
  });

  it('lets only one of racing captures, voids or refunds succeed', async () => {
    const pre = await sale({ pre_auth: true });
    const captures = await Promise.all(Array.from({ length: 6 }, () => c.post('/v6/capture', { merchantid: MID, transno: pre.transno })));
    assert.equal(captures.filter((r) => r.status === 200).length, 1);
    assert.ok(captures.filter((r) => r.status !== 200).every((r) => r.body.code === 'T011'));

    const s = await sale();
    const voids = await Promise.all(Array.from({ length: 6 }, () => c.post('/v6/void', { merchantid: MID, transno: s.transno })));
    assert.equal(voids.filter((r) => r.status === 200).length, 1);

    const s2 = await sale({ amount: 1000 });
    const refunds = await Promise.all(Array.from({ length: 6 }, () => c.post('/v6/refund', { merchantid: MID, amount: 600, identifier: ident('rr'), refund_ref: s2.transno })));
    assert.equal(refunds.filter((r) => r.status === 200).length, 1);
    assert.equal((await retrieve(s2.transno)).trans_status, 'O');
  });
});
