// Settlement batches: the midnight job in each merchant's time zone, batch reports with paging, ordering and dates.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { call } from '../helpers/runtime.ts';
import { authRequest, CLIENT, describeGateway, FOREIGN_MID, ident, LICENCE, MID, moveClock, STRICT_MID } from './support.ts';

describeGateway('payments batches', (t, c) => {

  const setClock = (iso: string) => moveClock(t, { set: iso });
  const sale = async (over: Record<string, unknown> = {}) => (await c.post('/v6/authorise', authRequest(over))).body.AuthResponse;
  const strictSale = (amount: number) =>
    sale({ merchantid: STRICT_MID, currency: 'USD', amount, csc: '123', bill_to: { postcode: '10001', address1: '5 Main St' } });

  it('closes the day at midnight in each merchant time zone', async () => {
    const sales = [];
    for (const amount of [100, 200, 300, 400, 500, 600, 700]) sales.push(await sale({ amount }));
    const refund = await c.post('/v6/refund', { merchantid: MID, amount: 50, identifier: ident('rf'), refund_ref: sales[0].transno });
    assert.equal(refund.status, 200);
    const voided = await sale({ amount: 999 });
    await c.post('/v6/void', { merchantid: MID, transno: voided.transno });
    await sale({ amount: 3333 }); // declined
    const pre = await sale({ amount: 800, pre_auth: true }); // not captured: stays out of the batch
    await strictSale(1234);

    assert.equal((await c.get(`/v6/merchant-batch/${MID}/1`)).body.code, 'B002');
    await setClock('2026-03-11T00:00:30Z');
    let res = await c.get(`/v6/merchant-batch/${MID}/1`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      batch_closed: '2026-03-11T00:00:30.000Z',
      batch_date: '2026-03-10',
      batch_no: '1',
      batch_status: 'Open for settlement',
      batch_status_code: 'O',
      currency: 'GBP',
      merchantid: MID,
      net_summary: {
        credit_items_amount: '£0.50',
        credit_items_count: 1,
        credit_items_value: 50,
        debit_items_amount: '£28.00',
        debit_items_count: 7,
        debit_items_value: 2800,
        net_amount: 2750,
        total_count: 8,
      },
    });
    // Batched sales can no longer be voided, only refunded; the pre-auth is still open.
    assert.equal((await c.post('/v6/void', { merchantid: MID, transno: sales[1].transno })).body.code, 'T004');
    assert.equal((await c.post('/v6/refund', { merchantid: MID, amount: 10, identifier: ident('rf'), refund_ref: sales[1].transno })).status, 200);
    assert.equal((await c.post('/v6/retrieve', { merchantid: MID, transno: pre.transno })).body.auths[0].trans_status, 'P');
    assert.equal((await c.post('/v6/retrieve', { merchantid: MID, transno: sales[1].transno })).body.auths[0].batchno, '1');

    // New York's midnight comes four hours later.
    assert.equal((await c.get(`/v6/merchant-batch/${STRICT_MID}/1`)).body.code, 'B002');
    await setClock('2026-03-11T04:00:30Z');
    res = await c.get(`/v6/merchant-batch/${STRICT_MID}/1`);
    assert.deepEqual([res.body.batch_date, res.body.currency, res.body.net_summary.net_amount, res.body.net_summary.debit_items_amount], ['2026-03-10', 'USD', 1234, '$12.34']);

    // The next close settles the previous batch.
    await sale({ amount: 10 });
    await setClock('2026-03-12T00:00:30Z');
    assert.equal((await c.get(`/v6/merchant-batch/${MID}/1`)).body.batch_status_code, 'S');
    res = await c.get(`/v6/merchant-batch/${MID}/2`);
    assert.deepEqual([res.body.batch_date, res.body.net_summary.net_amount], ['2026-03-11', 0]);
    assert.equal((await c.post('/v6/retrieve', { merchantid: MID, transno: sales[1].transno })).body.auths[0].trans_status, 'S');
  });

  it('pages through a batch in the requested order', async () => {
    const page = (body: Record<string, unknown>) => c.post(`/v6/merchant-batch/${MID}/1/transactions`, body);
    let res = await page({});
    assert.equal(res.status, 200);
    assert.equal(res.body.count, 8);
    const transnos = res.body.data.map((d: any) => d.transno);
    assert.deepEqual(transnos, [...transnos].sort((a: number, b: number) => a - b));
    res = await page({ maxResults: 5, orderBy: '-amount' });
    assert.deepEqual(res.body.data.map((d: any) => d.amount_value), [700, 600, 500, 400, 300]);
    assert.equal(typeof res.body.nextToken, 'string');
    const second = await page({ maxResults: 5, orderBy: '-amount', nextToken: res.body.nextToken });
    assert.deepEqual(second.body.data.map((d: any) => d.amount_value), [200, 100, 50]);
    assert.equal(second.body.nextToken, undefined);
    assert.equal((await page({ maxResults: 5, orderBy: 'amount DESC' })).body.data[0].amount_value, 700);
    assert.equal((await page({ maxResults: 6, nextToken: res.body.nextToken })).status, 400, 'a token from another query');
    for (const bad of [{ maxResults: 4 }, { maxResults: 251 }, { orderBy: 'identifier' }, { nextToken: 'zzz' }, { maxResults: '10' }]) {
      assert.equal((await page(bad)).status, 400, JSON.stringify(bad));
    }
    assert.equal((await c.post(`/v6/merchant-batch/${MID}/99/transactions`, {})).body.code, 'B002');
    assert.equal((await c.post(`/v6/merchant-batch/${FOREIGN_MID}/1/transactions`, {})).status, 403);
    assert.equal((await c.get(`/v6/merchant-batch/${MID}/x1`)).status, 400);
  });

  it('reports batches with merchant and date filters, ordering and paging', async () => {
    // Four more days of trade for the development merchant.
    for (const day of ['12', '13', '14', '15']) {
      await sale({ amount: 100 * Number(day) });
      await setClock(`2026-03-${Number(day) + 1}T00:00:30Z`);
    }
    const report = (body: Record<string, unknown>) => c.post('/v6/merchant-batch/report', body);
    let res = await report({ date_from: '2026-03-01', date_until: '2026-03-31' });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.batches.map((b: any) => [b.merchantid, b.batch_no]),
      [[MID, '1'], [MID, '2'], [MID, '3'], [MID, '4'], [MID, '5'], [MID, '6'], [STRICT_MID, '1']],
    );
    assert.equal(res.body.count, 7);
    res = await report({ merchant_id: [STRICT_MID] });
    assert.deepEqual(res.body.batches.map((b: any) => b.merchantid), [STRICT_MID]);
    res = await report({ date_from: '2026-03-12', date_until: '2026-03-13', merchant_id: [MID] });
    assert.deepEqual(res.body.batches.map((b: any) => b.batch_date), ['2026-03-12', '2026-03-13']);
    res = await report({ orderBy: '-net_amount', maxResults: 5 });
    assert.deepEqual(res.body.batches.map((b: any) => b.net_summary.net_amount), [2750, 1500, 1400, 1300, 1234]);
    const next = await report({ orderBy: '-net_amount', maxResults: 5, nextToken: res.body.nextToken });
    assert.deepEqual(next.body.batches.map((b: any) => b.net_summary.net_amount), [1200, 0]);

    assert.equal((await report({ merchant_id: [FOREIGN_MID] })).status, 403);
    assert.equal((await report({ date_from: '2023-03-01' })).status, 400, 'older than 3 years');
    assert.equal((await report({ date_from: '2026-03-10', date_until: '2026-03-09' })).status, 400);
    assert.equal((await report({ date_from: '2026-02-30' })).status, 400);
    // A month or day out of range is no date at all (found by the route fuzzer: it answered 500).
    for (const date_until of ['2026-13-01', '0752-93-85']) {
      const bad = await report({ date_until });
      assert.equal(bad.status, 400, date_until);
      assert.equal(bad.body.code, 'P045');
    }
    assert.equal((await report({ date_from: '10/03/2026' })).status, 400);
    assert.equal((await report({ orderBy: 'currency' })).status, 400);
    assert.equal((await report({ merchant_id: 'all' })).status, 400);
    const xml = await c.post('/v6/merchant-batch/report', undefined, {
      raw: `<MerchantBatchReportRequest><merchant_id>${STRICT_MID}</merchant_id></MerchantBatchReportRequest>`,
      headers: { 'content-type': 'text/xml' },
    });
    assert.match(xml.text, /<MerchantBatchReportResponse><batches><batch_closed>/);
  });

  it('reports only the merchant a key issued for a subject acts for', async () => {
    const scopedKey = async () => (await call(`${t.url('payments')}/v6/authenticate`, { body: { clientid: CLIENT, licencekey: LICENCE, subject: String(STRICT_MID) } })).body.key as string;
    const all = await c.post('/v6/merchant-batch/report', {});
    assert.deepEqual([...new Set(all.body.batches.map((b: any) => b.merchantid))], [MID, STRICT_MID], 'the client has batches of both merchants');

    const scoped = await c.post('/v6/merchant-batch/report', {}, { key: await scopedKey() });
    assert.equal(scoped.status, 200);
    assert.deepEqual(scoped.body.batches.map((b: any) => [b.merchantid, b.batch_no]), [[STRICT_MID, '1']]);
    assert.equal(scoped.body.count, 1);
    const refused = await c.post('/v6/merchant-batch/report', { merchant_id: [MID] }, { key: await scopedKey() });
    assert.deepEqual([refused.status, refused.body.code], [403, 'S002']);
  });

  it('closes a batch on demand from the admin API', async () => {
    await sale({ amount: 42 });
    const res = await call(`${t.adminUrl}/services/payments/merchants/${MID}/close-batch`, { method: 'POST' });
    assert.equal(res.status, 200);
    assert.equal(res.body.batch.net_summary.net_amount, 42);
  });
});
