// What is stored: no card number or CSC in clear anywhere in the database, and the operator's admin routes.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { sql } from 'kysely';
import { call } from '../helpers/runtime.ts';
import { authRequest, caller, CLIENT, describeGateway, ident, MID } from './support.ts';

// Numbers and a CSC used nowhere else, so any occurrence comes from these requests.
const PAN = '5573470000000001';
const ACCOUNT_PAN = '4659010000000005';
const CSC = '487';

describeGateway('payments data at rest', (t, c, database) => {

  it('never stores a card number or CSC in clear', async () => {
    assert.equal((await c.post('/v6/authorise', authRequest({ cardnumber: PAN, csc: CSC }))).body.AuthResponse.authorised, true);
    const challenged = await c.post('/v6/authorise', authRequest({ cardnumber: PAN, csc: CSC, threedsecure: { merchant_termurl: 'https://shop.example/r' } }));
    assert.ok(challenged.body.RequestChallenged);
    const account = `acct-${ident('r').slice(-10)}`;
    await c.post('/v6/account/create', { account_id: account });
    const view = await c.post(`/v6/account/${account}/register`, { cardnumber: ACCOUNT_PAN, expmonth: 12, expyear: 2030 });
    assert.equal(view.status, 200);
    await c.post('/v6/charge', { token: view.body.cards[0].token, amount: 100, identifier: ident('c'), merchantid: MID, csc: CSC });

    if (database === 'sqlite') {
      await t.rt.db.kysely.executeQuery(sql`PRAGMA wal_checkpoint(FULL)`.compile(t.rt.db.kysely));
      const files = readdirSync(t.dataDir).filter((f) => f.startsWith('test.db'));
      assert.ok(files.length > 0);
      for (const f of files) {
        const bytes = readFileSync(join(t.dataDir, f)).toString('latin1');
        assert.ok(!bytes.includes(PAN), `${f} holds the card number`);
        assert.ok(!bytes.includes(ACCOUNT_PAN), `${f} holds the stored card number`);
      }
    }
    // Every row of every payments table, as text.
    const tables = (await t.rt.db.kysely.introspection.getTables()).map((x) => x.name).filter((n) => n.startsWith('payments_') || n.startsWith('core_'));
    for (const table of tables) {
      const rows = await t.rt.db.kysely.selectFrom(table).selectAll().execute();
      const text = JSON.stringify(rows);
      assert.ok(!text.includes(PAN) && !text.includes(ACCOUNT_PAN), `${table} holds a card number`);
      if (table.startsWith('payments_')) assert.ok(!new RegExp(`"${CSC}"`).test(text), `${table} holds the CSC`);
    }
  });

  it('manages clients and merchants from the admin API', async () => {
    const admin = (path: string, init: Parameters<typeof call>[1] = {}) => call(`${t.adminUrl}/services/payments${path}`, init);
    let res = await admin('/clients', { body: { clientid: 'NEWCLIENT', name: 'New client' } });
    assert.equal(res.status, 201);
    assert.match(res.body.licence_key, /^[A-Z2-9]{16}$/);
    const licence = res.body.licence_key;
    res = await admin('/merchants', { body: { merchantid: 555, clientid: 'NEWCLIENT', currency: 'EUR', time_zone: 'Europe/Paris', csc_policy: '1' } });
    assert.equal(res.status, 201);
    assert.deepEqual([res.body.currency, res.body.time_zone, res.body.csc_policy, res.body.duplicate_policy], ['EUR', 'Europe/Paris', '1', '1']);
    res = await admin('/merchants', { body: { merchantid: 555, clientid: 'NEWCLIENT', name: 'Renamed' } });
    assert.deepEqual([res.status, res.body.name, res.body.currency], [200, 'Renamed', 'EUR']);
    for (const bad of [{ merchantid: 'x', clientid: 'NEWCLIENT' }, { merchantid: 556, clientid: 'NOBODY' }, { merchantid: 557, clientid: 'NEWCLIENT', time_zone: 'Mars/Base' }, { merchantid: 558, clientid: 'NEWCLIENT', csc_policy: '9' }]) {
      assert.equal((await admin('/merchants', { body: bad })).status, 400, JSON.stringify(bad));
    }
    const mine = caller(t, 'NEWCLIENT', licence);
    res = await mine.post('/v6/authorise', authRequest({ merchantid: 555, currency: 'EUR', csc: '999' }));
    assert.equal(res.body.AuthResponse.result_code, '094');
    // A suspended merchant cannot process.
    assert.equal((await admin('/merchants', { body: { merchantid: 555, clientid: 'NEWCLIENT', status: 'S' } })).status, 200);
    res = await mine.post('/v6/authorise', authRequest({ merchantid: 555, currency: 'EUR' }));
    assert.deepEqual([res.status, res.body.code], [403, 'Z002']);
    assert.equal((await admin('/clients/NEWCLIENT', { method: 'DELETE' })).status, 409);
    assert.equal((await admin('/merchants/555', { method: 'DELETE' })).status, 204);
    assert.equal((await admin('/clients/NEWCLIENT', { method: 'DELETE' })).status, 204);
    assert.equal((await mine.post('/v6/ping', {})).status, 403);
    res = await admin('/merchants');
    assert.deepEqual(res.body.merchants.map((m: any) => m.merchantid), [10001, 20002, 30003]);
  });

  it('resets to the seeded clients and merchants, with the batch jobs armed again', async () => {
    const a = (await c.post('/v6/authorise', authRequest())).body.AuthResponse;
    // A merchant in use before the reset (so read, and on SQLite remembered) is gone after it.
    assert.equal((await call(`${t.adminUrl}/services/payments/merchants`, { body: { merchantid: 777, clientid: CLIENT } })).status, 201);
    assert.equal((await c.post('/v6/authorise', authRequest({ merchantid: 777 }))).body.AuthResponse.authorised, true);
    assert.equal((await call(`${t.adminUrl}/reset`, { body: { service: 'payments' } })).status, 200);
    assert.deepEqual((await c.post('/v6/authorise', authRequest({ merchantid: 777 }))).body.code, 'S002');
    assert.equal((await c.post('/v6/retrieve', { merchantid: MID, transno: a.transno })).body.code, 'D022');
    assert.equal((await c.post('/v6/authorise', authRequest())).body.AuthResponse.transno, 1);
    const jobs = await t.rt.jobs.list('payments');
    assert.deepEqual(jobs.map((j) => j.key).sort(), ['payments-batch-10001', 'payments-batch-20002', 'payments-batch-30003']);
  });

  it('lists the development client in the start table, and how to get an API key', async () => {
    const s = t.rt.services.get('payments')!;
    const hints = await s.manifest.credentials!(s.ctx);
    assert.deepEqual(hints.map((h) => h.label), ['client id', 'licence key', 'merchant id', 'API key (pay-api-key, one per request)']);
    assert.equal(hints[1].value, 'TESTLICENCEKEY01');
    assert.match(hints[3].value, /twinstack payments api-key/);
  });
});
