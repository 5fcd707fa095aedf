import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { productIssues, productStatus, type Product } from '../../src/services/catalog/domain/product-rules.ts';
import { simulateDays, simulatePerformance } from '../../src/services/catalog/domain/performance-simulator.ts';
import { Random } from '../../src/services/catalog/domain/performance-simulator-random.ts';

const product = (offerId: string, extra: Partial<Product> = {}): Product => ({
  id: `online:en:US:${offerId}`, offerId, channel: 'online', contentLanguage: 'en', targetCountry: 'US', title: `Item ${offerId}`,
  description: 'd', link: `https://shop.example/${offerId}`, imageLink: `https://shop.example/${offerId}.jpg`,
  price: { value: '25.00', currency: 'USD' }, availability: 'in stock', brand: 'Acme', gtin: '4006381333931', ...extra,
});
const catalogue = Array.from({ length: 30 }, (_, i) => product(`sku-${i}`));

describe('simulatePerformance', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const options = { products: catalogue.slice(0, 5), start: '2026-01-01', end: '2026-01-10', seed: 's1' };
    assert.deepEqual(simulatePerformance(options), simulatePerformance(options));
    assert.notDeepEqual(simulatePerformance(options), simulatePerformance({ ...options, seed: 's2' }));
  });

  it('keeps a product history when other products are added', () => {
    const base = { start: '2026-01-01', end: '2026-01-05', seed: 'x' };
    const alone = simulatePerformance({ ...base, products: [catalogue[3]] });
    const together = simulatePerformance({ ...base, products: catalogue.slice(0, 8) }).filter((r) => r.offerId === 'sku-3');
    assert.deepEqual(together, alone);
  });

  it('covers the range day by day, inclusive', () => {
    const days = [...simulateDays({ products: catalogue.slice(0, 2), start: '2026-02-27', end: '2026-03-02', seed: 'd' })].map((d) => d.date);
    assert.deepEqual(days, ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    assert.throws(() => [...simulateDays({ products: [], start: '2026-02-30', end: '2026-03-01', seed: 'd' })], RangeError);
  });

  it('has realistic shapes: impressions far above clicks, conversions only where measured', () => {
    const records = simulatePerformance({ products: catalogue, start: '2026-01-01', end: '2026-03-31', seed: 'shape' });
    const impressions = records.reduce((s, r) => s + r.impressions, 0);
    const clicks = records.reduce((s, r) => s + r.clicks, 0);
    assert.ok(impressions > 20 * clicks, `${impressions} impressions, ${clicks} clicks`);
    assert.ok(clicks > 0);
    for (const r of records) {
      assert.ok(r.clicks <= r.impressions && r.conversions <= r.clicks);
      assert.equal(r.conversionValueMicros, r.conversions * 25_000_000);
      if (r.program === 'SHOPPING_ADS') assert.equal(r.conversions, 0);
    }
    assert.deepEqual([...new Set(records.map((r) => r.program))].sort(), ['FREE_PRODUCT_LISTING', 'SHOPPING_ADS']);
  });

  it('follows the weekday pattern: Saturdays see fewer impressions than Tuesdays', () => {
    const records = simulatePerformance({ products: catalogue, start: '2026-01-01', end: '2026-06-30', seed: 'week' });
    const byWeekday = new Array(7).fill(0);
    for (const r of records) byWeekday[new Date(`${r.date}T00:00:00Z`).getUTCDay()] += r.impressions;
    assert.ok(byWeekday[6] < byWeekday[2], byWeekday.join(','));
  });

  it('gives disapproved products and excluded destinations no traffic', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const products = [product('ok'), product('bad', { price: undefined }), product('free-only', { excludedDestinations: ['Shopping'] })];
    const statuses = products.map((p) => productStatus(p, productIssues(p, { now }), { now }));
    const records = simulatePerformance({ products, statuses, start: '2026-01-01', end: '2026-01-31', seed: 'z' });
    const programs = (offerId: string) => [...new Set(records.filter((r) => r.offerId === offerId).map((r) => r.program))].sort();
    assert.deepEqual(programs('ok'), ['FREE_PRODUCT_LISTING', 'SHOPPING_ADS']);
    assert.deepEqual(programs('bad'), []);
    assert.deepEqual(programs('free-only'), ['FREE_PRODUCT_LISTING']);
  });
});

describe('Random', () => {
  it('draws counts within their bounds', () => {
    fc.assert(fc.property(fc.string(), fc.nat(5000), fc.double({ min: 0, max: 1, noNaN: true }), (key, n, p) => {
      const random = new Random(key);
      const k = random.binomial(n, p);
      assert.ok(Number.isInteger(k) && k >= 0 && k <= n);
      assert.ok(random.poisson(n / 10) >= 0);
      const u = random.next();
      assert.ok(u >= 0 && u < 1);
    }), { numRuns: 300 });
  });
});
