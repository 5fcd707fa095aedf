// The hosted Paylink page shows the cart (PaylinkCart) the token was created with: items with quantity, unit price
// and line total, then description, shipping, tax and coupon; values that are not the documented type are left out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cartView } from '../../src/services/payments/paylink/domain/cart.ts';
import { call } from '../helpers/runtime.ts';
import { describeGateway, ident, MID } from './support.ts';

describe('cartView', () => {
  it('reads items, counts and extras leniently', () => {
    const view = cartView({
      mode: 1,
      contents: [{ label: 'Filter', brand: 'Acme', variant: 'XL', sku: 'F-1', amount: 1250, count: 2 }, { sku: 'ONLY-SKU' }, 'junk', { label: 'Bad', amount: -3, count: 'x' }],
      shipping: 499,
      tax: '300',
      coupon: 'SPRING',
      product_description: 'Spring order',
    })!;
    assert.deepEqual(view.lines, [
      { label: 'Acme Filter XL', sku: 'F-1', amount: 1250, count: 2 },
      { label: 'ONLY-SKU', sku: 'ONLY-SKU', count: 1 },
      { label: 'Bad', count: 1 },
    ]);
    assert.deepEqual([view.shipping, view.tax, view.coupon, view.productDescription], [499, 300, 'SPRING', 'Spring order']);
    assert.equal(cartView(undefined), undefined);
    assert.equal(cartView({ mode: 0, contents: [] }), undefined);
  });

  it('never throws and never shows a negative or fractional price', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.array(fc.jsonValue()), (cart, contents) => {
        const view = cartView({ ...cart, contents });
        for (const line of view?.lines ?? []) {
          if (line.amount !== undefined) assert.ok(Number.isSafeInteger(line.amount) && line.amount >= 0);
          assert.ok(Number.isSafeInteger(line.count) && line.count >= 0);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describeGateway('paylink hosted page cart', (t, c) => {
  it('shows the cart it was given on the payment page, escaped', async () => {
    const cart = {
      mode: 1,
      contents: [{ label: 'Water filter', sku: 'WF-01', amount: 1250, count: 2 }, { label: '<script>alert(1)</script>', amount: 500 }],
      shipping: 499,
      tax: 300,
      coupon: 'SPRING',
      product_description: 'Quarterly supplies',
    };
    const created = await c.post('/paylink/create', { merchantid: MID, amount: 3799, identifier: ident('cart'), cart });
    assert.equal(created.status, 200, created.text);
    const page = await call(`${t.url('payments')}/pay/${created.body.token}`);
    assert.equal(page.status, 200);
    const html = page.text;
    assert.match(html, /<section id="cart">/);
    assert.match(html, /Water filter <span class="muted">WF-01<\/span><\/td><td>2<\/td><td>12\.50 GBP<\/td><td>25\.00 GBP<\/td>/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;<\/td><td>1<\/td><td>5\.00 GBP<\/td>/);
    assert.ok(!html.includes('<script>alert(1)</script>'));
    assert.match(html, /id="cart-shipping"><td colspan="3">Shipping<\/td><td>4\.99 GBP</);
    assert.match(html, /id="cart-tax"><td colspan="3">Tax<\/td><td>3\.00 GBP</);
    assert.match(html, /Coupon: SPRING/);
    assert.match(html, /Quarterly supplies/);

    const plain = await c.post('/paylink/create', { merchantid: MID, amount: 100, identifier: ident('nocart') });
    assert.ok(!(await call(`${t.url('payments')}/pay/${plain.body.token}`)).text.includes('id="cart"'));
  });
});
