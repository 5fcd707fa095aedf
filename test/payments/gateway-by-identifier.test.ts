// Capture and void by identifier act on the newest approved transaction with it: a later declined attempt with the
// same identifier (another card, so not a duplicate) is not the order's payment. Retrieve lists every attempt.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { authRequest, describeGateway, ident, MASTERCARD, MID, paymentsRowCountsBesideNonces } from './support.ts';

const DECLINE_AMOUNT = 3333;

describeGateway('payments capture and void by identifier', (t, c) => {
  const authorise = async (over: Record<string, unknown>) => {
    const res = await c.post('/v6/authorise', authRequest(over));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.AuthResponse;
  };
  /** An approved transaction, then a declined attempt with the same identifier on another card. */
  const approvedThenDeclined = async (over: Record<string, unknown> = {}) => {
    const identifier = ident();
    const approved = await authorise({ identifier, ...over });
    assert.equal(approved.authorised, true);
    const declined = await authorise({ identifier, cardnumber: MASTERCARD, amount: DECLINE_AMOUNT, ...over });
    assert.equal(declined.authorised, false);
    assert.ok(declined.transno > approved.transno);
    return { identifier, approved, declined };
  };
  const statusOf = async (transno: number) => (await c.post('/v6/retrieve', { merchantid: MID, transno })).body.auths[0].trans_status;

  it('captures the approved pre-authorisation, not a newer declined attempt', async () => {
    const { identifier, approved, declined } = await approvedThenDeclined({ pre_auth: true });
    const res = await c.post('/v6/capture', { merchantid: MID, identifier, amount: 1000 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.code, '001');
    assert.equal(await statusOf(approved.transno), 'O');
    assert.equal(await statusOf(declined.transno), 'D');
  });

  it('voids the approved sale, not a newer declined attempt', async () => {
    const { identifier, approved, declined } = await approvedThenDeclined();
    const res = await c.post('/v6/void', { merchantid: MID, identifier });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.code, '001');
    assert.equal(await statusOf(approved.transno), 'C');
    assert.equal(await statusOf(declined.transno), 'D');
  });

  it('takes the newest of several approved transactions', async () => {
    const { identifier, approved: older } = await approvedThenDeclined();
    const newer = await authorise({ identifier, cardnumber: MASTERCARD });
    assert.equal(newer.authorised, true);
    assert.equal((await c.post('/v6/void', { merchantid: MID, identifier })).body.code, '001');
    assert.equal(await statusOf(newer.transno), 'C');
    assert.equal(await statusOf(older.transno), 'O');
  });

  it('refuses with T013 when every transaction with the identifier was declined, changing nothing', async () => {
    const identifier = ident();
    const declined = await authorise({ identifier, amount: DECLINE_AMOUNT, pre_auth: true });
    assert.equal(declined.authorised, false);
    const before = await paymentsRowCountsBesideNonces(t);
    for (const path of ['/v6/capture', '/v6/void']) {
      const res = await c.post(path, { merchantid: MID, identifier });
      assert.equal(res.status, 422, path);
      assert.deepEqual([res.body.code, res.body.identifier, res.body.message], ['T013', identifier, 'The original transaction was not authorised']);
      assert.equal(typeof res.body.context, 'string');
    }
    assert.deepEqual(await paymentsRowCountsBesideNonces(t), before);
    assert.equal(await statusOf(declined.transno), 'D');
  });

  it('retrieves every attempt with the identifier, declined ones too, newest first', async () => {
    const { identifier, approved, declined } = await approvedThenDeclined();
    const res = await c.post('/v6/retrieve', { merchantid: MID, identifier });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.auths.map((a: any) => [a.transno, a.trans_status]),
      [
        [declined.transno, 'D'],
        [approved.transno, 'O'],
      ],
    );
  });
});
