// A refund repeated with the same identifier for the same original inside the duplicate window is a duplicate (T001),
// so a client retrying after a lost answer cannot refund twice.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { authRequest, describeGateway, ident, MID, moveClock, paymentsRowCountsBesideNonces } from './support.ts';

describeGateway('payments refund duplicates', (t, c) => {
  const sale = async (amount: number) => (await c.post('/v6/authorise', authRequest({ amount }))).body.AuthResponse;
  const refund = (refund_ref: number, amount: number, identifier: string) => c.post('/v6/refund', { merchantid: MID, amount, identifier, refund_ref });
  const refundsOf = async (identifier: string) => (await c.post('/v6/retrieve', { merchantid: MID, identifier })).body.auths ?? [];

  const assertDuplicate = (res: Awaited<ReturnType<typeof refund>>, identifier: string) => {
    assert.equal(res.status, 200);
    const r = res.body;
    assert.deepEqual([r.authorised, r.result, r.result_code, r.transno, r.identifier, r.authcode], [false, 2, 'T001', -1, identifier, '']);
  };

  it('answers a repeated refund with T001 and refunds nothing more', async () => {
    const s = await sale(1000);
    const identifier = ident('rf');
    const first = await refund(s.transno, 400, identifier);
    assert.equal(first.body.authorised, true);
    const before = await paymentsRowCountsBesideNonces(t);

    assertDuplicate(await refund(s.transno, 400, identifier), identifier);

    assert.deepEqual(await paymentsRowCountsBesideNonces(t), before);
    assert.equal((await refundsOf(identifier)).length, 1);
    // The remainder is untouched: 600 can still be refunded, and not a penny more.
    assert.equal((await refund(s.transno, 601, ident('rf'))).body.code, 'R005');
    assert.equal((await refund(s.transno, 600, ident('rf'))).body.authorised, true);
  });

  it('answers the retry of a full refund with T001 rather than R003', async () => {
    const s = await sale(900);
    const identifier = ident('rf');
    assert.equal((await refund(s.transno, 900, identifier)).body.authorised, true);
    assertDuplicate(await refund(s.transno, 900, identifier), identifier);
  });

  it('refunds once for concurrent identical requests', async () => {
    const s = await sale(1000);
    const identifier = ident('rf');
    const answers = await Promise.all(Array.from({ length: 5 }, () => refund(s.transno, 100, identifier)));
    assert.equal(answers.filter((r) => r.body.authorised === true).length, 1);
    for (const r of answers.filter((a) => a.body.authorised !== true)) assertDuplicate(r, identifier);
    assert.equal((await refundsOf(identifier)).length, 1);
  });

  it('does not hold the identifier for a refused refund', async () => {
    const s = await sale(1000);
    const identifier = ident('rf');
    assert.equal((await refund(s.transno, 1001, identifier)).body.code, 'R002');
    assert.equal((await refund(s.transno, 500, identifier)).body.authorised, true);
  });

  it('lets the identifier refund another original, or the same one after the window', async () => {
    const [a, b] = [await sale(1000), await sale(1000)];
    const identifier = ident('rf');
    assert.equal((await refund(a.transno, 100, identifier)).body.authorised, true);
    assert.equal((await refund(b.transno, 100, identifier)).body.authorised, true);
    await moveClock(t, { advance: '301s' });
    assert.equal((await refund(a.transno, 100, identifier)).body.authorised, true);
  });
});
