import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  gtinCheckDigit, isValidGtin, productIssues, productStatus, type Product,
} from '../../src/services/catalog/domain/product-rules.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');

const valid = (extra: Partial<Product> = {}): Product => ({
  id: 'online:en:US:sku1',
  offerId: 'sku1',
  channel: 'online',
  contentLanguage: 'en',
  targetCountry: 'US',
  title: 'Trail running shoe',
  description: 'Light trail shoe with a grippy sole.',
  link: 'https://shop.example/p/sku1',
  imageLink: 'https://shop.example/i/sku1.jpg',
  price: { value: '59.99', currency: 'USD' },
  availability: 'in stock',
  condition: 'new',
  brand: 'Acme',
  gtin: '4006381333931',
  ...extra,
});

const codes = (p: Product) => productIssues(p, { now: NOW }).map((i) => i.code);

function flags(extra: Partial<Product>, code: string) {
  assert.ok(codes(valid(extra)).includes(code), `${JSON.stringify(extra)} should raise ${code}, got ${codes(valid(extra))}`);
}

describe('productIssues', () => {
  it('finds nothing wrong with a complete product', () => {
    assert.deepEqual(codes(valid()), []);
  });

  it('fills every field of an issue', () => {
    const [issue] = productIssues(valid({ title: '' }), { now: NOW });
    assert.deepEqual(issue, {
      code: 'missing_title',
      servability: 'disapproved',
      resolution: 'merchant_action',
      attributeName: 'title',
      description: 'Missing value [title]',
      detail: 'Add a title',
      documentation: 'https://support.google.com/merchants/answer/6324415',
      applicableCountries: ['US'],
    });
  });

  it('checks title and description', () => {
    flags({ title: undefined }, 'missing_title');
    flags({ title: '   ' }, 'missing_title');
    flags({ title: 'x'.repeat(151) }, 'title_too_long');
    assert.deepEqual(codes(valid({ title: 'x'.repeat(150) })), []);
    flags({ description: null }, 'missing_description');
    flags({ description: 'd'.repeat(5001) }, 'description_too_long');
    assert.deepEqual(codes(valid({ description: 'd'.repeat(5000) })), []);
  });

  it('checks the landing page and images are http(s) URLs', () => {
    flags({ link: undefined }, 'missing_link');
    flags({ link: 'ftp://shop.example/p' }, 'invalid_link');
    flags({ link: 'shop.example/p' }, 'invalid_link');
    flags({ link: `https://shop.example/${'a'.repeat(2000)}` }, 'invalid_link');
    assert.deepEqual(codes(valid({ link: 'http://shop.example/p' })), []);
    assert.deepEqual(codes(valid({ channel: 'local', link: undefined, id: 'local:en:US:sku1' })), []);
    flags({ imageLink: '' }, 'missing_image_link');
    flags({ imageLink: 'javascript:alert(1)' }, 'invalid_image_link');
    flags({ additionalImageLinks: ['https://ok.example/a.jpg', 'nope'] }, 'invalid_additional_image_link');
  });

  it('checks price, currency and sale price', () => {
    flags({ price: undefined }, 'missing_price');
    flags({ price: { value: '0', currency: 'USD' } }, 'invalid_price');
    flags({ price: { value: '-3.00', currency: 'USD' } }, 'invalid_price');
    flags({ price: { value: 'ten', currency: 'USD' } }, 'invalid_price');
    flags({ price: { value: '10.00' } }, 'invalid_price');
    flags({ price: { value: '10.00', currency: 'EUR' } }, 'price_currency_mismatch');
    assert.deepEqual(codes(valid({ targetCountry: 'DE', price: { value: '10.00', currency: 'EUR' } })), []);
    // An unknown country has no currency rule.
    assert.deepEqual(codes(valid({ targetCountry: undefined, feedLabel: 'SUMMER-SALE' })), []);
    flags({ salePrice: { value: '70.00', currency: 'USD' } }, 'sale_price_higher_than_price');
    flags({ salePrice: { value: '0', currency: 'USD' } }, 'invalid_sale_price');
    flags({ salePrice: { value: '10', currency: 'CAD' } }, 'invalid_sale_price');
    assert.deepEqual(codes(valid({ salePrice: { value: '49.99', currency: 'USD' } })), []);
    flags({ salePriceEffectiveDate: '2026-03-10T00:00Z/2026-03-01T00:00Z' }, 'invalid_sale_price_effective_date');
    flags({ salePriceEffectiveDate: 'soon' }, 'invalid_sale_price_effective_date');
    assert.deepEqual(codes(valid({ salePriceEffectiveDate: '2026-03-01T00:00-08:00/2026-03-10T00:00-08:00' })), []);
  });

  it('checks GTIN format, length and check digit, and brand without GTIN', () => {
    flags({ gtin: '40063813339A1' }, 'invalid_gtin');
    flags({ gtin: '1234567' }, 'invalid_gtin');
    flags({ gtin: '4006381333932' }, 'invalid_gtin');
    for (const gtin of ['96385074', '036000291452', '4006381333931', '10012345678902']) assert.deepEqual(codes(valid({ gtin })), [], gtin);
    assert.deepEqual(codes(valid({ gtin: undefined, mpn: 'TR-1' })), []);
    assert.deepEqual(codes(valid({ gtin: undefined, brand: undefined, mpn: 'TR-1' })), ['missing_brand']);
    assert.deepEqual(codes(valid({ gtin: undefined, mpn: undefined })), ['missing_product_identifiers']);
    assert.deepEqual(codes(valid({ gtin: undefined, brand: undefined, identifierExists: false })), []);
  });

  it('checks availability, availability date and condition', () => {
    flags({ availability: undefined }, 'missing_availability');
    flags({ availability: 'maybe' }, 'invalid_availability');
    assert.deepEqual(codes(valid({ availability: 'out_of_stock' })), []);
    flags({ availability: 'preorder' }, 'missing_availability_date');
    flags({ availability: 'backorder' }, 'missing_availability_date');
    flags({ availability: 'preorder', availabilityDate: 'next week' }, 'invalid_availability_date');
    assert.deepEqual(codes(valid({ availability: 'preorder', availabilityDate: '2026-04-01T09:00-05:00' })), []);
    flags({ condition: 'mint' }, 'invalid_condition');
    assert.deepEqual(codes(valid({ condition: 'refurbished' })), []);
  });

  it('flags an expired item', () => {
    flags({ expirationDate: '2026-03-01' }, 'item_expired');
    flags({ expirationDate: 'never' }, 'invalid_expiration_date');
    assert.deepEqual(codes(valid({ expirationDate: '2026-03-02' })), []);
  });

  it('checks shipping and product measures', () => {
    flags({ shippingWeight: { value: 3, unit: 'stone' } }, 'invalid_shipping_weight');
    flags({ shippingWeight: { value: 0, unit: 'kg' } }, 'invalid_shipping_weight');
    flags({ shippingWeight: { value: 1001, unit: 'kg' } }, 'invalid_shipping_weight');
    assert.deepEqual(codes(valid({ shippingWeight: { value: 2.5, unit: 'lb' } })), []);
    flags({ shippingLength: { value: 10, unit: 'ft' } }, 'invalid_shipping_dimension');
    flags({ productWeight: { value: 10, unit: 'stone' } }, 'invalid_product_dimension');
    assert.deepEqual(codes(valid({ productHeight: { value: 30, unit: 'cm' }, productWeight: { value: 400, unit: 'g' } })), []);
  });

  it('checks adult, age group and gender values', () => {
    flags({ adult: 'yes' as unknown as boolean }, 'invalid_adult');
    flags({ ageGroup: 'teen' }, 'invalid_age_group');
    flags({ gender: 'any' }, 'invalid_gender');
    assert.deepEqual(codes(valid({ adult: false, ageGroup: 'kids', gender: 'unisex' })), []);
  });
});

describe('productStatus', () => {
  it('approves a clean product in its country for every default destination', () => {
    const status = productStatus(valid(), [], { now: NOW, createdAt: NOW - 1000 });
    assert.equal(status.kind, 'content#productStatus');
    assert.equal(status.productId, 'online:en:US:sku1');
    assert.deepEqual(status.destinationStatuses!.map((d) => [d.destination, d.status, d.approvedCountries, d.disapprovedCountries]), [
      ['Shopping', 'approved', ['US'], []],
      ['SurfacesAcrossGoogle', 'approved', ['US'], []],
      ['DisplayAds', 'approved', ['US'], []],
    ]);
    assert.equal(status.creationDate, new Date(NOW - 1000).toISOString());
    assert.equal(status.googleExpirationDate, '2026-03-31T12:00:00.000Z');
  });

  it('disapproves where a disapproving issue applies and repeats issues per destination', () => {
    const product = valid({ price: undefined, excludedDestinations: ['DisplayAds'] });
    const status = productStatus(product, productIssues(product, { now: NOW }), { now: NOW });
    assert.deepEqual(status.destinationStatuses!.map((d) => [d.destination, d.status, d.disapprovedCountries]), [
      ['Shopping', 'disapproved', ['US']],
      ['SurfacesAcrossGoogle', 'disapproved', ['US']],
    ]);
    assert.deepEqual(status.itemLevelIssues!.map((i) => [i.code, i.destination]), [['missing_price', 'Shopping'], ['missing_price', 'SurfacesAcrossGoogle']]);
  });

  it('keeps demoted products approved, honours the destinations filter and an earlier expiration date', () => {
    const product = valid({ gtin: undefined, mpn: undefined, expirationDate: '2026-03-05T00:00:00Z', shoppingAdsExcludedCountries: ['US'] });
    const status = productStatus(product, productIssues(product, { now: NOW }), { now: NOW, destinations: ['Shopping', 'SurfacesAcrossGoogle'] });
    assert.deepEqual(status.destinationStatuses!.map((d) => [d.destination, d.status, d.approvedCountries]), [
      ['Shopping', 'approved', []],
      ['SurfacesAcrossGoogle', 'approved', ['US']],
    ]);
    assert.equal(status.googleExpirationDate, '2026-03-05T00:00:00.000Z');
  });
});

const digits = (min: number, max: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(''));
const gtinArb = fc.constantFrom(8, 12, 13, 14).chain((n) => digits(n - 1, n - 1)).map((body) => body + gtinCheckDigit(body));
const url = fc.webUrl({ validSchemes: ['http', 'https'] }).filter((u) => u.length <= 2000);
const text = (max: number) => fc.string({ minLength: 1, maxLength: max }).filter((s) => s.trim() !== '');

const passingProduct: fc.Arbitrary<Product> = fc.record({
  offerId: text(50),
  channel: fc.constant('online'),
  contentLanguage: fc.constant('en'),
  targetCountry: fc.constantFrom('US', 'GB', 'DE', 'JP'),
  title: text(150),
  description: text(5000),
  link: url,
  imageLink: url,
  priceCents: fc.integer({ min: 1, max: 10_000_000 }),
  availability: fc.constantFrom('in stock', 'out of stock', 'in_stock'),
  condition: fc.constantFrom('new', 'used', 'refurbished', undefined),
  brand: text(70),
  gtin: fc.option(gtinArb, { nil: undefined }),
  identifierExists: fc.constantFrom(true, undefined),
  ageGroup: fc.constantFrom(undefined, 'adult', 'kids'),
}).map(({ priceCents, ...p }) => ({
  ...p,
  price: { value: (priceCents / 100).toFixed(2), currency: ({ US: 'USD', GB: 'GBP', DE: 'EUR', JP: 'JPY' } as Record<string, string>)[p.targetCountry] },
}));

describe('productIssues properties', () => {
  it('a product built to pass every rule has no disapproving issue', () => {
    fc.assert(fc.property(passingProduct, (product) => {
      const disapproving = productIssues(product, { now: NOW }).filter((i) => i.servability === 'disapproved');
      assert.deepEqual(disapproving, []);
    }), { numRuns: 300 });
  });

  it('a GTIN with one corrupted digit is always flagged', () => {
    fc.assert(fc.property(gtinArb, fc.nat(), fc.integer({ min: 1, max: 9 }), (gtin, at, shift) => {
      const i = at % gtin.length;
      const corrupted = gtin.slice(0, i) + ((Number(gtin[i]) + shift) % 10) + gtin.slice(i + 1);
      assert.equal(isValidGtin(gtin), true);
      assert.equal(isValidGtin(corrupted), false);
      assert.ok(codes(valid({ gtin: corrupted })).includes('invalid_gtin'));
    }), { numRuns: 500 });
  });
});
