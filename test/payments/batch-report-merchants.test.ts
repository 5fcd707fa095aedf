// A batch report without merchant_id covers every merchant of the client, however many: more than one SQL statement
// binds (32,766 values on SQLite, 65,535 on PostgreSQL) once answered 500. The merchants and their batches are
// written straight into the tables (through bulkInsert): configuring that many through settings would take minutes.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { bulkInsert } from '../../src/core/db/bulk.ts';
import { CLIENT, describeGateway, MID, OTHER_CLIENT } from './support.ts';

describeGateway('payments batch report over many merchants', (t, c, database) => {
  it('reports every merchant of the client when it has more than one statement binds', async () => {
    const db = t.rt.db.kysely;
    const many = database === 'sqlite' ? 32_767 : 65_536;
    const template = await db.selectFrom('payments_merchants').selectAll().where('merchantid', '=', MID).executeTakeFirstOrThrow();
    const columns = ['merchantid', 'clientid', 'name', 'currency', 'time_zone', 'duplicate_window_s', 'policies', 'three_d_secure', 'status', 'created_at'];
    const merchant = (merchantid: number, clientid: string) => [merchantid, clientid, `Merchant ${merchantid}`, 'GBP', 'UTC', template.duplicate_window_s, template.policies, 0, template.status, template.created_at];
    const first = 1_000_000;
    const rows = Array.from({ length: many }, (_, i) => merchant(first + i, CLIENT));
    rows.push(merchant(first + many, OTHER_CLIENT));
    await bulkInsert(db, 'payments_merchants', columns, rows);
    const batch = (merchantid: number, net: number) => ({
      merchantid, batch_no: 1, batch_date: '2026-03-09', batch_closed: Date.parse('2026-03-10T00:00:30Z'), status_code: 'O', currency: 'GBP',
      credit_count: 0, credit_value: 0, debit_count: 1, debit_value: net, net_amount: net, total_count: 1,
    });
    // Batches of the first and the last of the client's merchants, and one of another client's (never reported).
    await db.insertInto('payments_batches').values([batch(first, 100), batch(first + many - 1, 200), batch(first + many, 300)]).execute();

    const res = await c.post('/v6/merchant-batch/report', { date_from: '2026-03-01', date_until: '2026-03-31', maxResults: 5 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.batches.map((b: any) => [b.merchantid, b.net_summary.net_amount]), [[first, 100], [first + many - 1, 200]]);
    assert.equal(res.body.count, 2);
  });
});
