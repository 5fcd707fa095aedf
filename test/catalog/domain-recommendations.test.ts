import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { productIssues, productStatus, type Product } from '../../src/services/catalog/domain/product-rules.ts';
import { generateRecommendations } from '../../src/services/catalog/domain/recommendations.ts';

const NOW = Date.parse('2026-03-01T00:00:00Z');
const product = (offerId: string, extra: Partial<Product> = {}): Product => ({
  id: `online:en:US:${offerId}`, offerId, channel: 'online', contentLanguage: 'en', targetCountry: 'US',
  title: `Acme trail running shoe ${offerId}`, description: 'A shoe.', link: `https://shop.example/${offerId}`,
  imageLink: `https://shop.example/${offerId}.jpg`, price: { value: '50.00', currency: 'USD' }, availability: 'in stock',
  brand: 'Acme', gtin: '4006381333931', ...extra,
});
const statusesOf = (products: Product[]) => products.map((p) => productStatus(p, productIssues(p, { now: NOW }), { now: NOW }));

describe('generateRecommendations', () => {
  it('recommends nothing for a small clean catalogue', () => {
    const products = [product('a'), product('b')];
    assert.deepEqual(generateRecommendations(products, statusesOf(products)), []);
  });

  it('derives each recommendation from the data, largest impact first', () => {
    const products = [
      product('a', { price: undefined }),
      product('b', { price: undefined, gtin: undefined }),
      product('c', { imageLink: 'ftp://x/c.jpg', title: 'SHOE' }),
      product('d', { salePrice: { value: '40.00', currency: 'USD' } }),
    ];
    const performance = [
      { offerId: 'd', clicks: 0, impressions: 80 },
      { offerId: 'd', clicks: 0, impressions: 70 },
      { offerId: 'a', clicks: 3, impressions: 500 },
    ];
    const recs = generateRecommendations(products, statusesOf(products), performance, { consoleUrl: 'http://127.0.0.1:9000/mc' });
    assert.deepEqual(recs.map((r) => [r.type, r.subType, r.numericalImpact]), [
      ['IMPROVE_UNCLICKED_PRODUCTS', undefined, 150],
      ['OPPORTUNITY_CREATE_NEW_COLLECTION', 'Acme', 4],
      ['FIX_DISAPPROVED_PRODUCTS', 'missing_price', 2],
      ['FIX_DISAPPROVED_PRODUCTS', 'invalid_image_link', 1],
      ['ADD_PRODUCT_IDENTIFIERS', undefined, 1],
      ['IMPROVE_PRODUCT_TITLES', undefined, 1],
      ['OPPORTUNITY_CREATE_EMAIL_CAMPAIGN', undefined, 1],
    ]);
    const fix = recs.find((r) => r.subType === 'missing_price')!;
    assert.equal(fix.title, '2 products disapproved: Missing value [price]');
    assert.deepEqual(fix.defaultCallToAction, { intent: 'OPEN_PRODUCT_DIAGNOSTICS', localizedText: 'Fix products', uri: 'http://127.0.0.1:9000/mc/diagnostics?issue=missing_price' });
    assert.deepEqual(fix.creative, [{ type: 'IMAGE', uri: 'https://shop.example/a.jpg' }, { type: 'IMAGE', uri: 'https://shop.example/b.jpg' }]);
    assert.equal(fix.paid, false);
    assert.ok(fix.defaultDescription!.length > 0);
  });

  it('keeps only the allowed types and leaves links empty without a console address', () => {
    const products = [product('a', { gtin: undefined }), product('b', { salePrice: { value: '1.00', currency: 'USD' } })];
    const recs = generateRecommendations(products, statusesOf(products), [], { allowedTypes: ['OPPORTUNITY_CREATE_EMAIL_CAMPAIGN'] });
    assert.deepEqual(recs.map((r) => [r.type, r.defaultCallToAction!.uri]), [['OPPORTUNITY_CREATE_EMAIL_CAMPAIGN', '']]);
  });

  it('counts every disapproved product exactly once per issue code', () => {
    const arb = fc.array(fc.record({ price: fc.boolean(), image: fc.boolean() }), { maxLength: 20 });
    fc.assert(fc.property(arb, (flags) => {
      const products = flags.map((f, i) => product(`p${i}`, { ...(f.price ? {} : { price: undefined }), ...(f.image ? {} : { imageLink: undefined }) }));
      const recs = generateRecommendations(products, statusesOf(products));
      const impact = (code: string) => recs.find((r) => r.subType === code)?.numericalImpact ?? 0;
      assert.equal(impact('missing_price'), flags.filter((f) => !f.price).length);
      assert.equal(impact('missing_image_link'), flags.filter((f) => !f.image).length);
      for (let i = 1; i < recs.length; i++) assert.ok(recs[i - 1].numericalImpact! >= recs[i].numericalImpact!);
    }), { numRuns: 100 });
  });
});
