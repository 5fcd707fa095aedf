import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { datafeedStatusErrors, parseFeed } from '../../src/services/catalog/domain/datafeed-format.ts';

const US = { contentLanguage: 'en', targetCountry: 'US' };
const tsv = (...lines: string[][]) => lines.map((l) => l.join('\t')).join('\n');

describe('parseFeed: tab-separated', () => {
  it('builds products from documented attribute names', () => {
    const body = tsv(
      ['id', 'title', 'Description', 'link', 'image link', 'additional_image_link', 'price', 'sale_price', 'availability', 'gtin', 'brand', 'condition', 'identifier_exists', 'shipping', 'shipping_weight', 'product_type', 'product_type', 'custom_label_0', 'adult'],
      ['sku-1', 'Trail shoe', '"Light, ""fast"" shoe"', 'https://shop.example/1', 'https://shop.example/1.jpg', 'https://shop.example/1b.jpg,https://shop.example/1c.jpg', '59.99 USD', '49.99', 'in_stock', '4006381333931', 'Acme', 'new', 'yes', 'US:CA:Overnight:16.00 USD', '1.2 kg', 'Shoes > Trail', 'Outdoor', 'summer', 'no'],
    );
    const feed = parseFeed(body, US);
    assert.equal(feed.format, 'tsv');
    assert.deepEqual(feed.errors, []);
    assert.deepEqual(feed.warnings, []);
    assert.equal(feed.itemsTotal, 1);
    assert.equal(feed.itemsValid, 1);
    assert.deepEqual(feed.products[0], {
      lineNumber: 2,
      product: {
        kind: 'content#product',
        id: 'online:en:US:sku-1',
        offerId: 'sku-1',
        channel: 'online',
        contentLanguage: 'en',
        targetCountry: 'US',
        source: 'feed',
        title: 'Trail shoe',
        description: 'Light, "fast" shoe',
        link: 'https://shop.example/1',
        imageLink: 'https://shop.example/1.jpg',
        additionalImageLinks: ['https://shop.example/1b.jpg', 'https://shop.example/1c.jpg'],
        price: { value: '59.99', currency: 'USD' },
        salePrice: { value: '49.99', currency: 'USD' },
        availability: 'in stock',
        gtin: '4006381333931',
        brand: 'Acme',
        condition: 'new',
        identifierExists: true,
        shipping: [{ country: 'US', region: 'CA', service: 'Overnight', price: { value: '16.00', currency: 'USD' } }],
        shippingWeight: { value: 1.2, unit: 'kg' },
        productTypes: ['Shoes > Trail', 'Outdoor'],
        customLabel0: 'summer',
        adult: false,
      },
    });
  });

  it('reads grouped attributes in the order the header declares', () => {
    const feed = parseFeed(tsv(['id', 'shipping(country:price)', 'tax'], ['a', 'DE:4.95 EUR', 'US:NY:8.875:y']), US);
    assert.deepEqual(feed.products[0].product.shipping, [{ country: 'DE', price: { value: '4.95', currency: 'EUR' } }]);
    assert.deepEqual(feed.products[0].product.taxes, [{ country: 'US', region: 'NY', rate: 8.875, taxShip: true }]);
  });

  it('reports bad rows by line and attribute and keeps the good ones', () => {
    const body = [
      'id\tprice\tshipping_weight\tadult\tflavour',
      'ok-1\t10.00 USD\t\t\tmint',
      '',
      'bad-1\tten dollars\t\t',
      'bad-2\t5 USD\t3 stone\tmaybe',
      '\t5 USD',
      'ok-1\t7 USD',
      'ok-2\t8 USD\t\t\t\textra',
      `${'x'.repeat(51)}\t1 USD`,
    ].join('\r\n');
    const feed = parseFeed(body, US);
    assert.deepEqual(feed.products.map((p) => [p.lineNumber, p.product.offerId]), [[2, 'ok-1'], [8, 'ok-2']]);
    assert.equal(feed.itemsTotal, 7);
    assert.equal(feed.itemsValid, 2);
    assert.deepEqual(feed.errors.map((e) => [e.lineNumber, e.code, e.attribute, e.itemId, e.value]), [
      [4, 'validation/invalid_value', 'price', 'bad-1', 'ten dollars'],
      [5, 'validation/invalid_value', 'shipping_weight', 'bad-2', '3 stone'],
      [5, 'validation/invalid_value', 'adult', 'bad-2', 'maybe'],
      [6, 'validation/missing_required', 'id', undefined, undefined],
      [7, 'validation/duplicate_item', 'id', 'ok-1', 'ok-1'],
      [9, 'validation/invalid_value', 'id', 'x'.repeat(51), 'x'.repeat(51)],
    ]);
    assert.deepEqual(feed.warnings.map((w) => [w.lineNumber, w.code, w.attribute]), [
      [2, 'parse/unknown_attribute', 'flavour'],
      [8, 'parse/too_many_values', undefined],
    ]);
    assert.deepEqual(feed.products[0].product.customAttributes, [{ name: 'flavour', value: 'mint' }]);
  });

  it('keeps columns named like Object.prototype members as custom attributes', () => {
    const feed = parseFeed(tsv(['id', 'constructor', '__proto__', 'valueOf'], ['a', 'c', 'p', 'v']), US);
    assert.deepEqual(feed.errors, []);
    assert.deepEqual(feed.products[0].product.customAttributes, [
      { name: 'constructor', value: 'c' },
      { name: '__proto__', value: 'p' },
      { name: 'valueof', value: 'v' },
    ]);
    assert.deepEqual(feed.warnings.map((w) => [w.code, w.attribute]), [
      ['parse/unknown_attribute', 'constructor'],
      ['parse/unknown_attribute', '__proto__'],
      ['parse/unknown_attribute', 'valueof'],
    ]);
  });

  it('reports a feed without an id column or without lines', () => {
    assert.deepEqual(parseFeed('title\nA shoe', US).errors.map((e) => [e.lineNumber, e.code, e.message]), [
      [1, 'validation/missing_required', 'Missing column [id]'],
      [2, 'validation/missing_required', 'Missing value [id]'],
    ]);
    assert.deepEqual(parseFeed('  \n', US).errors.map((e) => e.code), ['parse/empty_feed']);
  });
});

describe('parseFeed: XML', () => {
  const rss = (items: string) => `<?xml version="1.0"?>
<rss xmlns:g="http://base.google.com/ns/1.0" version="2.0">
<channel>
<title>Shop</title>
<link>https://shop.example</link>
${items}
</channel>
</rss>`;

  it('reads RSS 2.0 items with g: attributes and nested shipping', () => {
    const feed = parseFeed(rss(`<item>
  <g:id>sku-1</g:id>
  <title><![CDATA[Shoe & sock]]></title>
  <link>https://shop.example/1</link>
  <g:price>12.00 EUR</g:price>
  <g:shipping><g:country>DE</g:country><g:service>Standard</g:service><g:price>4.95 EUR</g:price></g:shipping>
  <g:shipping><g:country>AT</g:country><g:price>6 EUR</g:price></g:shipping>
</item>
<item>
  <g:id>sku-2</g:id>
  <g:price>twelve</g:price>
</item>`), { contentLanguage: 'de', targetCountry: 'DE' });
    assert.equal(feed.format, 'xml');
    assert.deepEqual(feed.products.map((p) => p.lineNumber), [6]);
    const product = feed.products[0].product;
    assert.equal(product.id, 'online:de:DE:sku-1');
    assert.equal(product.title, 'Shoe & sock');
    assert.deepEqual(product.price, { value: '12.00', currency: 'EUR' });
    assert.deepEqual(product.shipping, [
      { country: 'DE', service: 'Standard', price: { value: '4.95', currency: 'EUR' } },
      { country: 'AT', price: { value: '6', currency: 'EUR' } },
    ]);
    assert.deepEqual(feed.errors.map((e) => [e.lineNumber, e.attribute, e.itemId]), [[14, 'price', 'sku-2']]);
  });

  it('reads Atom entries with link href', () => {
    const feed = parseFeed(`<feed xmlns="http://www.w3.org/2005/Atom" xmlns:g="http://base.google.com/ns/1.0">
<entry><g:id>a1</g:id><title>Hat</title><link href="https://shop.example/a1"/></entry></feed>`, { contentLanguage: 'en', feedLabel: 'WINTER', channel: 'local' });
    assert.deepEqual(feed.products.map((p) => [p.product.id, p.product.link, p.product.feedLabel]), [['local:en:WINTER:a1', 'https://shop.example/a1', 'WINTER']]);
  });

  it('keeps elements named like Object.prototype members as custom attributes', () => {
    const feed = parseFeed(rss(`<item>
  <g:id>a</g:id>
  <g:constructor prototype="x">c</g:constructor>
  <g:__proto__>p</g:__proto__>
  <g:toString>t</g:toString>
  <g:flavour><g:constructor>sweet</g:constructor><g:__proto__>mint</g:__proto__></g:flavour>
  <g:shipping><g:country>DE</g:country><g:constructor>x</g:constructor><g:price>4.95 EUR</g:price></g:shipping>
</item>`), { contentLanguage: 'de', targetCountry: 'DE' });
    assert.deepEqual(feed.errors, []);
    const product = feed.products[0].product;
    assert.deepEqual(product.customAttributes, [
      { name: 'constructor', value: 'c' },
      { name: '__proto__', value: 'p' },
      { name: 'tostring', value: 't' },
      { name: 'flavour', value: 'constructor=sweet __proto__=mint' },
    ]);
    assert.deepEqual(product.shipping, [{ country: 'DE', price: { value: '4.95', currency: 'EUR' } }]);
  });

  it('reports malformed XML and feeds without items', () => {
    const broken = parseFeed('<rss>\n<channel>\n<item></channel></rss>', US);
    assert.deepEqual(broken.errors.map((e) => [e.code, e.lineNumber]), [['parse/invalid_xml', 3]]);
    assert.deepEqual(parseFeed(rss(''), US).errors.map((e) => e.code), ['parse/no_items']);
  });
});

describe('datafeedStatusErrors', () => {
  it('groups issues by code and message with counted examples', () => {
    const feed = parseFeed(tsv(['id', 'price'], ['a', 'x'], ['b', 'y'], ['c', 'z'], ['d', 'w'], ['', '1 USD']), US);
    assert.deepEqual(datafeedStatusErrors(feed.errors), [
      {
        code: 'validation/invalid_value', message: 'Invalid value [price]', count: '4',
        examples: [{ lineNumber: '2', itemId: 'a', value: 'x' }, { lineNumber: '3', itemId: 'b', value: 'y' }, { lineNumber: '4', itemId: 'c', value: 'z' }],
      },
      { code: 'validation/missing_required', message: 'Missing value [id]', count: '1', examples: [{ lineNumber: '6' }] },
    ]);
  });

  it('counts every item as valid or reported, whatever the rows', () => {
    const cell = fc.oneof(fc.constantFrom('', '1 USD', 'abc', 'yes', 'maybe', '2 kg'), fc.string({ maxLength: 6 }).map((s) => s.replace(/[\t\r\n]/g, '')));
    fc.assert(fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { maxLength: 15 }), (rows) => {
      const body = tsv(['id', 'price', 'adult', 'shipping_weight'], ...rows.filter((r) => r.join('').trim() !== ''));
      const feed = parseFeed(body, US);
      const rejectedLines = new Set(feed.errors.map((e) => e.lineNumber));
      assert.equal(feed.itemsValid, feed.products.length);
      assert.equal(feed.itemsTotal, feed.products.length + rejectedLines.size);
      for (const p of feed.products) assert.ok(!rejectedLines.has(p.lineNumber));
    }), { numRuns: 200 });
  });
});
