// The quota counters stay within `quotaCacheBudget` however many merchants and methods call, and still count every
// call: evicted days are read again from the table, and unwritten counts are written early rather than dropped.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { catalogOf, settingsOf } from '../../src/services/catalog/catalog.ts';
import { DEFAULT_QUOTA_CACHE_BUDGET, quotaDay, type QuotaMeter } from '../../src/services/catalog/quota.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { SUB, startCatalog, type CatalogRuntime } from './helpers.ts';

const BUDGET = { entries: 16, bytes: 4096 };
const METHODS = ['products.get', 'products.list', 'regions.list'];

describe('catalog quota cache budget in the settings', () => {
  it('defaults, merges and refuses malformed budgets', () => {
    assert.deepEqual(settingsOf({}).quotaCacheBudget, DEFAULT_QUOTA_CACHE_BUDGET);
    assert.deepEqual(settingsOf({ quotaCacheBudget: { entries: 5 } }).quotaCacheBudget, { ...DEFAULT_QUOTA_CACHE_BUDGET, entries: 5 });
    assert.throws(() => settingsOf({ quotaCacheBudget: { bytes: -1 } }), /services\.catalog\.quotaCacheBudget/);
  });
});

for (const database of DATABASES) {
  describe(`catalog quota counters within a small budget (${database})`, () => {
    let c: CatalogRuntime;
    let meter: QuotaMeter;
    before(async () => {
      c = await startCatalog(database, { settings: { quotaCacheBudget: BUDGET, quota: { methods: { 'regions.list': 7 } } } });
      meter = catalogOf(c.t.rt.services.get('catalog')!.ctx).quota;
    });
    after(async () => c.close());

    it('many merchants and methods: memory within the budget, every call counted', async () => {
      const merchants = Array.from({ length: 60 }, (_, i) => `${3_000_000 + i}`);
      const expected = new Map<string, number>();
      for (let round = 0; round < 4; round++) {
        for (const merchant of merchants) {
          for (const method of METHODS.slice(0, 1 + ((Number(merchant) + round) % METHODS.length))) {
            await meter.charge(merchant, method);
            expected.set(`${merchant}|${method}`, (expected.get(`${merchant}|${method}`) ?? 0) + 1);
            const held = meter.memory();
            assert.ok(held.storedDays <= BUDGET.entries && held.storedBytes <= BUDGET.bytes, JSON.stringify(held));
            assert.ok(held.counters <= BUDGET.entries && held.counterBytes <= BUDGET.bytes, JSON.stringify(held));
          }
        }
      }
      for (const merchant of merchants) {
        const usage = await meter.usage(merchant);
        for (const method of METHODS) assert.equal(usage.get(method) ?? 0, expected.get(`${merchant}|${method}`) ?? 0, `${merchant} ${method}`);
      }
      await meter.flush();
      assert.equal(meter.memory().counters, 0);
      // After the last write the table alone holds the counts.
      const stored = await catalogOf(c.t.rt.services.get('catalog')!.ctx).store.usage(merchants[0], quotaDay(Date.now()));
      assert.equal(stored.get('products.get'), expected.get(`${merchants[0]}|products.get`));
    });

    it('the daily limit holds for a merchant whose counters were evicted between its calls', async () => {
      for (let i = 0; i < 7; i++) {
        assert.equal((await c.api(`/${SUB}/regions`)).status, 200);
        // Other merchants' calls push the sub-account's day and counters out of memory.
        for (let j = 0; j < BUDGET.entries * 2; j++) await meter.charge(`${4_000_000 + j}`, 'products.get');
      }
      const over = await c.api(`/${SUB}/regions`);
      assert.equal(over.status, 429, over.text);
      assert.match(over.body.error.message, /made 7 of 7 calls/);
    });
  });
}
