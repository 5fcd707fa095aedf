// Feed labels and target countries of products and datafeed targets: one of them is required, both must be equal
// when both are sent, the label is always returned and a label that is a country code fills in the country.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DATABASES } from '../helpers/runtime.ts';
import { SUB, product, startCatalog, type CatalogRuntime } from './helpers.ts';

const productPath = (id: string) => `/${SUB}/products/${encodeURIComponent(id)}`;

for (const database of DATABASES) {
  describe(`catalog feed labels (${database})`, () => {
    let c: CatalogRuntime;
    before(async () => {
      c = await startCatalog(database);
    });
    after(() => c.close());

    it('returns the feed label of a product sent with a target country only', async () => {
      const content = c.client();
      const inserted = await content.products.insert({ merchantId: SUB, requestBody: product('label-country') });
      assert.equal(inserted.data.id, 'online:en:US:label-country');
      assert.equal(inserted.data.feedLabel, 'US');
      const got = await content.products.get({ merchantId: SUB, productId: 'online:en:US:label-country' });
      assert.deepEqual({ feedLabel: got.data.feedLabel, targetCountry: got.data.targetCountry }, { feedLabel: 'US', targetCountry: 'US' });
      const listed = await content.products.list({ merchantId: SUB });
      assert.equal(listed.data.resources!.find((p) => p.offerId === 'label-country')!.feedLabel, 'US');
    });

    it('returns the label of a product whose stored document predates it', async () => {
      await c.client().products.insert({ merchantId: SUB, requestBody: product('label-older') });
      // A document as stored before the label was always kept: the target country only.
      const row = await c.t.rt.db.kysely.selectFrom('catalog_products').select('doc').where('merchant_id', '=', SUB).where('id', '=', 'online:en:US:label-older').executeTakeFirstOrThrow();
      const { feedLabel: _label, ...older } = JSON.parse(row.doc as string);
      await c.t.rt.db.kysely.updateTable('catalog_products').set({ doc: JSON.stringify(older) }).where('merchant_id', '=', SUB).where('id', '=', 'online:en:US:label-older').execute();
      const got = await c.client().products.get({ merchantId: SUB, productId: 'online:en:US:label-older' });
      assert.equal(got.data.feedLabel, 'US');
    });

    it('fills in the target country from a feed label that is a country code, and only then', async () => {
      const content = c.client();
      const country = await content.products.insert({ merchantId: SUB, requestBody: product('label-de', { targetCountry: undefined, feedLabel: 'DE', price: { value: '5.00', currency: 'EUR' } }) });
      assert.deepEqual({ id: country.data.id, targetCountry: country.data.targetCountry }, { id: 'online:en:DE:label-de', targetCountry: 'DE' });
      const named = await content.products.insert({ merchantId: SUB, requestBody: product('label-winter', { targetCountry: undefined, feedLabel: 'WINTER-24' }) });
      assert.equal(named.data.id, 'online:en:WINTER-24:label-winter');
      assert.equal(named.data.targetCountry, undefined);
      const same = await content.products.insert({ merchantId: SUB, requestBody: product('label-same', { feedLabel: 'US' }) });
      assert.equal(same.data.id, 'online:en:US:label-same');
    });

    it('a product whose feed label names no country is sold where it ships to', async () => {
      const content = c.client();
      const euro = { value: '5.00', currency: 'EUR' };
      const shipping = [{ country: 'DE', price: euro }, { country: 'AT', price: euro }, { country: 'DE', service: 'Express', price: euro }];
      await content.products.insert({ merchantId: SUB, requestBody: product('label-ships', { targetCountry: undefined, feedLabel: 'SPRING', price: { value: '19.99', currency: 'EUR' }, shipping }) });
      const status = await content.productstatuses.get({ merchantId: SUB, productId: 'online:en:SPRING:label-ships' });
      const shopping = status.data.destinationStatuses!.find((d) => d.destination === 'Shopping')!;
      assert.deepEqual({ approved: shopping.approvedCountries, disapproved: shopping.disapprovedCountries }, { approved: ['AT', 'DE'], disapproved: [] });
      // An issue applies in each of those countries.
      await content.products.update({ merchantId: SUB, productId: 'online:en:SPRING:label-ships', updateMask: 'imageLink', requestBody: {} });
      const broken = await content.productstatuses.get({ merchantId: SUB, productId: 'online:en:SPRING:label-ships' });
      assert.deepEqual(broken.data.itemLevelIssues!.find((i) => i.code === 'missing_image_link')!.applicableCountries, ['AT', 'DE']);
      // Without shipping it targets no country at all.
      await content.products.insert({ merchantId: SUB, requestBody: product('label-nowhere', { targetCountry: undefined, feedLabel: 'SPRING' }) });
      const nowhere = await content.productstatuses.get({ merchantId: SUB, productId: 'online:en:SPRING:label-nowhere' });
      assert.deepEqual(nowhere.data.destinationStatuses!.find((d) => d.destination === 'Shopping')!.approvedCountries, []);
    });

    it('stores a target country of UK as GB', async () => {
      const inserted = await c.api(`/${SUB}/products`, { body: product('label-uk', { targetCountry: 'UK', price: { value: '5.00', currency: 'GBP' } }) });
      assert.equal(inserted.status, 200, inserted.text);
      assert.deepEqual({ id: inserted.body.id, targetCountry: inserted.body.targetCountry, feedLabel: inserted.body.feedLabel }, { id: 'online:en:GB:label-uk', targetCountry: 'GB', feedLabel: 'GB' });
      assert.equal((await c.api(productPath('online:en:GB:label-uk'))).status, 200);
      assert.equal((await c.api(productPath('online:en:UK:label-uk'))).status, 404);
    });

    it('takes a feed label UK beside a target country UK, keeping the label as sent', async () => {
      const inserted = await c.api(`/${SUB}/products`, { body: product('label-uk-both', { targetCountry: 'UK', feedLabel: 'UK', price: { value: '5.00', currency: 'GBP' } }) });
      assert.equal(inserted.status, 200, inserted.text);
      assert.deepEqual({ id: inserted.body.id, targetCountry: inserted.body.targetCountry, feedLabel: inserted.body.feedLabel }, { id: 'online:en:UK:label-uk-both', targetCountry: 'GB', feedLabel: 'UK' });
      assert.equal((await c.api(productPath('online:en:UK:label-uk-both'))).status, 200);
    });

    it('refuses a feed label that differs from the target country, or is badly formed, and stores nothing', async () => {
      const before = await c.api(`/${SUB}/products?maxResults=250`);
      const mismatch = await c.api(`/${SUB}/products`, { body: product('label-clash', { feedLabel: 'WINTER' }) });
      assert.equal(mismatch.status, 400);
      assert.match(mismatch.body.error.message, /product\.feedLabel .*product\.targetCountry .*same value/);
      assert.deepEqual(mismatch.body.error.errors[0], { domain: 'global', reason: 'invalid', message: mismatch.body.error.message });
      for (const feedLabel of ['WINTER_24', 'winter', 'X'.repeat(21)]) {
        const bad = await c.api(`/${SUB}/products`, { body: product('label-bad', { targetCountry: undefined, feedLabel }) });
        assert.equal(bad.status, 400, feedLabel);
        assert.match(bad.body.error.message, /product\.feedLabel/);
      }
      for (const id of ['online:en:US:label-clash', 'online:en:WINTER:label-clash', 'online:en:WINTER_24:label-bad', 'online:en:winter:label-bad']) {
        assert.equal((await c.api(productPath(id))).status, 404, id);
      }
      assert.deepEqual((await c.api(`/${SUB}/products?maxResults=250`)).body, before.body);
    });

    it('a custombatch entry with a clashing label fails on its own', async () => {
      const res = await c.client().products.custombatch({
        requestBody: {
          entries: [
            { batchId: 1, merchantId: SUB, method: 'insert', product: product('batch-label-ok', { feedLabel: 'US' }) },
            { batchId: 2, merchantId: SUB, method: 'insert', product: product('batch-label-clash', { feedLabel: 'SPRING' }) },
          ],
        },
      });
      const byId = new Map(res.data.entries!.map((e) => [e.batchId, e]));
      assert.equal(byId.get(1)!.product!.feedLabel, 'US');
      assert.equal(byId.get(2)!.errors!.code, 400);
      assert.match(byId.get(2)!.errors!.message!, /same value/);
      assert.equal((await c.api(productPath('online:en:US:batch-label-clash'))).status, 404);
    });

    it('refuses a datafeed target whose feed label differs from its country, or is badly formed', async () => {
      const before = await c.api(`/${SUB}/datafeeds`);
      const feed = (targets: unknown[]) => ({ name: 'Labels', fileName: `labels-${targets.length}.txt`, contentType: 'products', targets });
      const clash = await c.api(`/${SUB}/datafeeds`, { body: feed([{ language: 'en', country: 'US', feedLabel: 'WINTER' }]) });
      assert.equal(clash.status, 400);
      assert.match(clash.body.error.message, /datafeed\.targets\[0\]\.feedLabel .*datafeed\.targets\[0\]\.country .*same value/);
      const malformed = await c.api(`/${SUB}/datafeeds`, { body: feed([{ language: 'en', feedLabel: 'US' }, { language: 'de', feedLabel: 'summer sale' }]) });
      assert.equal(malformed.status, 400);
      assert.match(malformed.body.error.message, /datafeed\.targets\[1\]\.feedLabel/);
      assert.deepEqual((await c.api(`/${SUB}/datafeeds`)).body, before.body);
      const ok = await c.api(`/${SUB}/datafeeds`, { body: feed([{ language: 'en', country: 'US', feedLabel: 'US' }]) });
      assert.equal(ok.status, 200, ok.text);
    });
  });
}
