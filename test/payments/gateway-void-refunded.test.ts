// A sale that has been refunded, even in part, cannot be voided: the cardholder would get the refund and keep the sale.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { authRequest, describeGateway, ident, MID, paymentsRowCountsBesideNonces } from './support.ts';

describeGateway('payments void of a refunded sale', (t, c) => {
  const sale = async (over: Record<string, unknown> = {}) => (await c.post('/v6/authorise', authRequest(over))).body.AuthResponse;
  const retrieve = async (transno: number) => (await c.post('/v6/retrieve', { merchantid: MID, transno })).body.auths[0];
  const refund = (transno: number, amount: number) => c.post('/v6/refund', { merchantid: MID, amount, identifier: ident('rf'), refund_ref: transno });

  it('refuses to void a partly refunded sale with T004, changing nothing', async () => {
    const s = await sale({ amount: 1000 });
    const r = (await refund(s.transno, 400)).body;
    assert.equal(r.authorised, true);
    const before = await paymentsRowCountsBesideNonces(t);

    for (const ref of [{ transno: s.transno }, { identifier: s.identifier }]) {
      const res = await c.post('/v6/void', { merchantid: MID, ...ref });
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'T004');
      assert.equal(res.body.identifier, s.identifier);
      assert.match(res.body.message, /refunded/);
    }

    assert.deepEqual(await paymentsRowCountsBesideNonces(t), before);
    assert.equal((await retrieve(s.transno)).trans_status, 'O');
    assert.equal((await retrieve(r.transno)).trans_status, 'O');
    // The rest can still be refunded.
    assert.equal((await refund(s.transno, 600)).status, 200);
  });

  it('refuses to void a fully refunded sale', async () => {
    const s = await sale({ amount: 700 });
    assert.equal((await refund(s.transno, 700)).status, 200);
    const res = await c.post('/v6/void', { merchantid: MID, transno: s.transno });
    assert.deepEqual([res.status, res.body.code], [422, 'T004']);
    assert.equal((await retrieve(s.transno)).trans_status, 'O');
  });

  it('refuses to void a captured pre-authorisation once part of it is refunded', async () => {
    const pre = await sale({ pre_auth: true, amount: 2000 });
    assert.equal((await c.post('/v6/capture', { merchantid: MID, transno: pre.transno })).body.code, '001');
    assert.equal((await refund(pre.transno, 1)).status, 200);
    const res = await c.post('/v6/void', { merchantid: MID, transno: pre.transno });
    assert.deepEqual([res.status, res.body.code], [422, 'T004']);
    assert.equal((await retrieve(pre.transno)).trans_status, 'O');
  });

  it('lets a racing void and refund not both succeed', async () => {
    const s = await sale({ amount: 1000 });
    const [voided, refunded] = await Promise.all([c.post('/v6/void', { merchantid: MID, transno: s.transno }), refund(s.transno, 300)]);
    assert.equal([voided.status, refunded.status].filter((status) => status === 200).length, 1);
    const after = await retrieve(s.transno);
    assert.equal(after.trans_status, voided.status === 200 ? 'C' : 'O');
  });
});
