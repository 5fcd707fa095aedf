// Destination names: products, datafeed targets and the `destinations` filters of statuses take the product data
// specification's names (Shopping_ads, Free_listings, ...) and the names statuses report (Shopping,
// SurfacesAcrossGoogle, ...); any other name is refused with 400 and changes nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DATABASES } from '../helpers/runtime.ts';
import { MCA, SUB, product, startCatalog, type CatalogRuntime } from './helpers.ts';

const productPath = (id: string) => `/${SUB}/products/${encodeURIComponent(id)}`;

/** Asserts Content API's error body for an unknown destination `value` at `path` (a query parameter when `parameter`). */
function assertRefused(res: { status: number; body: any }, path: string, value: string, parameter = false): void {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  const { error } = res.body;
  assert.equal(error.code, 400);
  assert.equal(error.status, 'INVALID_ARGUMENT');
  assert.ok(error.message.startsWith(`Invalid value for ${path}: ${JSON.stringify(value)}; expected one of Shopping_ads, Buy_on_Google_listings, Display_ads,`), error.message);
  const location = parameter ? { location: path, locationType: 'parameter' } : {};
  assert.deepEqual(error.errors, [{ domain: 'global', reason: 'invalid', message: error.message, ...location }]);
}

for (const database of DATABASES) {
  describe(`catalog destinations (${database})`, () => {
    let c: CatalogRuntime;
    before(async () => {
      c = await startCatalog(database);
    });
    after(() => c.close());

    it('refuses a product with an unknown included or excluded destination, and stores nothing', async () => {
      const before = await c.api(`/${SUB}/products`);
      assertRefused(await c.api(`/${SUB}/products`, { body: product('dest-bad', { includedDestinations: ['Moon'] }) }), 'product.includedDestinations[0]', 'Moon');
      assertRefused(await c.api(`/${SUB}/products`, { body: product('dest-bad', { excludedDestinations: ['Shopping_ads', 'Nowhere'] }) }), 'product.excludedDestinations[1]', 'Nowhere');
      const batch = await c.api('/products/batch', {
        body: { entries: [{ batchId: 1, merchantId: SUB, method: 'insert', product: product('dest-bad', { includedDestinations: ['Cloud_retail'] }) }] },
      });
      assert.equal(batch.status, 200);
      assert.equal(batch.body.entries[0].errors.code, 400);
      assert.match(batch.body.entries[0].errors.message, /^Invalid value for product\.includedDestinations\[0\]: "Cloud_retail"; expected one of /);
      assert.deepEqual((await c.api(`/${SUB}/products`)).body, before.body);
      // An update is checked the same way and leaves the product as it was.
      await c.api(`/${SUB}/products`, { body: product('dest-kept') });
      const stored = await c.api(productPath('online:en:US:dest-kept'));
      assertRefused(await c.api(productPath('online:en:US:dest-kept'), { method: 'PATCH', body: { excludedDestinations: ['Billboards'] } }), 'product.excludedDestinations[0]', 'Billboards');
      assert.deepEqual((await c.api(productPath('online:en:US:dest-kept'))).body, stored.body);
    });

    it('takes the product data specification names for the destinations statuses report', async () => {
      const res = await c.api(`/${SUB}/products`, {
        body: product('dest-spec', { excludedDestinations: ['Shopping_ads', 'display_ads'], includedDestinations: ['Buy_on_Google_listings', 'YouTube_Shopping', 'Free_listings'] }),
      });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.excludedDestinations, ['Shopping_ads', 'display_ads'], 'kept as sent');
      const status = await c.api(`/${SUB}/productstatuses/${encodeURIComponent('online:en:US:dest-spec')}`);
      assert.deepEqual(status.body.destinationStatuses.map((d: { destination: string }) => d.destination), ['SurfacesAcrossGoogle', 'ShoppingActions', 'YouTubeShopping']);
      const filtered = await c.api(`/${SUB}/productstatuses/${encodeURIComponent('online:en:US:dest-spec')}?destinations=Free_listings`);
      assert.deepEqual(filtered.body.destinationStatuses.map((d: { destination: string }) => d.destination), ['SurfacesAcrossGoogle']);
    });

    it('refuses an unknown destination in the statuses filters, in custombatch entries too', async () => {
      assertRefused(await c.api(`/${SUB}/productstatuses/${encodeURIComponent('online:en:US:dest-spec')}?destinations=Shopping&destinations=Moon`), 'destinations', 'Moon', true);
      assertRefused(await c.api(`/${SUB}/productstatuses?destinations=Moon`), 'destinations', 'Moon', true);
      assertRefused(await c.api(`/${MCA}/accountstatuses/${SUB}?destinations=Moon`), 'destinations', 'Moon', true);
      assertRefused(await c.api(`/${MCA}/accountstatuses?destinations=Moon`), 'destinations', 'Moon', true);
      const statuses = await c.api('/productstatuses/batch', { body: { entries: [{ batchId: 1, merchantId: SUB, method: 'get', productId: 'online:en:US:dest-spec', destinations: ['Moon'] }] } });
      assert.equal(statuses.body.entries[0].errors.code, 400);
      assert.match(statuses.body.entries[0].errors.message, /^Invalid value for destinations: "Moon"; expected one of /);
      const accounts = await c.api('/accountstatuses/batch', { body: { entries: [{ batchId: 1, merchantId: MCA, accountId: SUB, method: 'get', destinations: ['Moon'] }] } });
      assert.equal(accounts.body.entries[0].errors.code, 400);
      const known = await c.api(`/${MCA}/accountstatuses/${SUB}?destinations=Shopping_ads`);
      assert.equal(known.status, 200, known.text);
    });

    it('refuses a datafeed target with an unknown destination, and stores nothing', async () => {
      const before = await c.api(`/${SUB}/datafeeds`);
      const feed = (target: Record<string, unknown>) => ({ name: 'Destinations', fileName: 'destinations.txt', contentType: 'products', targets: [{ language: 'en', country: 'US' }, { language: 'en', country: 'GB', ...target }] });
      assertRefused(await c.api(`/${SUB}/datafeeds`, { body: feed({ includedDestinations: ['Moon'] }) }), 'datafeed.targets[1].includedDestinations[0]', 'Moon');
      assertRefused(await c.api(`/${SUB}/datafeeds`, { body: feed({ excludedDestinations: ['Free_listings', 'Moon'] }) }), 'datafeed.targets[1].excludedDestinations[1]', 'Moon');
      assert.deepEqual((await c.api(`/${SUB}/datafeeds`)).body, before.body);
      const ok = await c.api(`/${SUB}/datafeeds`, { body: feed({ includedDestinations: ['Free_listings'], excludedDestinations: ['DisplayAds'] }) });
      assert.equal(ok.status, 200, ok.text);
      const stored = await c.api(`/${SUB}/datafeeds/${ok.body.id}`);
      assertRefused(await c.api(`/${SUB}/datafeeds/${ok.body.id}`, { method: 'PUT', body: feed({ excludedDestinations: ['Moon'] }) }), 'datafeed.targets[1].excludedDestinations[0]', 'Moon');
      assert.deepEqual((await c.api(`/${SUB}/datafeeds/${ok.body.id}`)).body, stored.body);
    });

    it('refuses a promotion destination other than the three promotions take, and stores nothing', async () => {
      const promotion = (promotionDestinationIds: string[]) => ({
        promotionId: 'dest-promo',
        contentLanguage: 'en',
        targetCountry: 'US',
        redemptionChannel: ['ONLINE'],
        productApplicability: 'ALL_PRODUCTS',
        offerType: 'NO_CODE',
        longTitle: '10% off',
        promotionEffectiveTimePeriod: { startTime: '2020-01-01T00:00:00Z', endTime: '2099-01-01T00:00:00Z' },
        promotionDestinationIds,
      });
      for (const [ids, bad] of [[['Shopping_ads', 'Moon'], 'Moon'], [['Display_ads'], 'Display_ads']] as const) {
        const res = await c.api(`/${SUB}/promotions`, { body: promotion([...ids]) });
        assert.equal(res.status, 400);
        const message = `Invalid value for promotion.promotionDestinationIds[${ids.indexOf(bad as never)}]: ${JSON.stringify(bad)}; expected one of Shopping_ads, Free_listings, Local_inventory_ads.`;
        assert.deepEqual(res.body, { error: { code: 400, message, status: 'INVALID_ARGUMENT', errors: [{ domain: 'global', reason: 'invalid', message }] } });
      }
      assert.equal((await c.api(`/${SUB}/promotions/${encodeURIComponent('online:en:US:dest-promo')}`)).status, 404);
      const ok = await c.api(`/${SUB}/promotions`, { body: promotion(['Shopping_ads', 'free_listings', 'Local_inventory_ads']) });
      assert.equal(ok.status, 200, ok.text);
    });
  });
}
