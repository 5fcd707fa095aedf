import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DATABASES } from '../helpers/runtime.ts';
import { MCA, OTHER, SUB, SUB_TOKEN, product, startCatalog, type CatalogRuntime } from './helpers.ts';

for (const database of DATABASES) {
  describe(`catalog products (${database})`, () => {
    let c: CatalogRuntime;
    before(async () => {
      c = await startCatalog(database);
    });
    after(() => c.close());

    it('inserts (an upsert by REST id), gets, updates with updateMask and deletes through the client', async () => {
      const content = c.client();
      const inserted = await content.products.insert({ merchantId: SUB, requestBody: product('sku-1') });
      assert.equal(inserted.data.id, 'online:en:US:sku-1');
      assert.equal(inserted.data.kind, 'content#product');
      const again = await content.products.insert({ merchantId: SUB, requestBody: product('sku-1', { title: 'New title' }) });
      assert.equal(again.data.title, 'New title');
      const got = await content.products.get({ merchantId: SUB, productId: 'online:en:US:sku-1' });
      assert.equal(got.data.title, 'New title');
      const updated = await content.products.update({ merchantId: SUB, productId: 'online:en:US:sku-1', updateMask: 'title,brand', requestBody: { title: 'Masked title' } });
      assert.equal(updated.data.title, 'Masked title');
      assert.equal(updated.data.brand, undefined, 'a field named in the mask but absent is removed');
      assert.equal(updated.data.gtin, '4006381333931');
      await content.products.delete({ merchantId: SUB, productId: 'online:en:US:sku-1' });
      const gone = await c.api(`/${SUB}/products/${encodeURIComponent('online:en:US:sku-1')}`);
      assert.equal(gone.status, 404);
      assert.equal(gone.body.error.message, 'item not found');
    });

    it('pages product lists with maxResults and page tokens', async () => {
      const content = c.client();
      // A sub-account of its own, so that the list holds these products only.
      const shop = (await content.accounts.insert({ merchantId: MCA, requestBody: { name: 'Paging shop' } })).data.id!;
      for (let i = 0; i < 7; i++) await content.products.insert({ merchantId: shop, requestBody: product(`page-${i}`) });
      const seen: string[] = [];
      let pageToken: string | undefined;
      do {
        const page = await content.products.list({ merchantId: shop, maxResults: 3, pageToken });
        assert.ok(page.data.resources!.length <= 3);
        seen.push(...page.data.resources!.map((p) => p.offerId!));
        pageToken = page.data.nextPageToken ?? undefined;
      } while (pageToken);
      assert.deepEqual(seen.sort(), Array.from({ length: 7 }, (_, i) => `page-${i}`));
      const bad = await c.api(`/${shop}/products?pageToken=garbage`);
      assert.equal(bad.status, 400);
    });

    it('derives product statuses from the item-level rules, and they change with the product', async () => {
      const content = c.client();
      await content.products.insert({ merchantId: SUB, requestBody: product('status-1', { imageLink: undefined, gtin: '4006381333932' }) });
      const status = await content.productstatuses.get({ merchantId: SUB, productId: 'online:en:US:status-1' });
      const codes = status.data.itemLevelIssues!.map((i) => i.code);
      assert.ok(codes.includes('missing_image_link'), codes.join());
      assert.ok(codes.some((code) => /gtin/.test(code!)), codes.join());
      const shopping = status.data.destinationStatuses!.find((d) => d.destination === 'Shopping')!;
      assert.deepEqual(shopping.disapprovedCountries, ['US']);
      await content.products.update({ merchantId: SUB, productId: 'online:en:US:status-1', requestBody: { imageLink: 'https://shop.example.com/i.jpg', gtin: '4006381333931' } });
      const fixed = await content.productstatuses.get({ merchantId: SUB, productId: 'online:en:US:status-1' });
      assert.deepEqual(fixed.data.destinationStatuses!.find((d) => d.destination === 'Shopping')!.approvedCountries, ['US']);
      const list = await content.productstatuses.list({ merchantId: SUB, destinations: ['Shopping'] });
      assert.ok(list.data.resources!.every((s) => s.destinationStatuses!.every((d) => d.destination === 'Shopping')));
    });

    it('refuses bad products with Google errors and changes nothing', async () => {
      const before = await c.api(`/${SUB}/products`);
      const cases: Array<[unknown, RegExp]> = [
        [{ ...product('bad'), offerId: undefined }, /offerId/],
        [{ ...product('bad'), title: 5 }, /TYPE_STRING/],
        [{ ...product('bad'), price: 'cheap' }, /price/],
        [{ ...product('x'.repeat(51)) }, /too long/],
        [{ ...product('bad'), channel: 'tv' }, /channel/],
        [{ ...product('bad'), colour: 'red' }, /Unknown name "colour"/],
        [{ ...product('bad'), targetCountry: 'usa' }, /targetCountry/],
        ['not an object', /object/],
      ];
      for (const [body, message] of cases) {
        const res = await c.api(`/${SUB}/products`, { body });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.match(res.body.error.message, message);
        assert.equal(res.body.error.errors[0].domain, 'global');
      }
      const identity = await c.api(`/${SUB}/products/${encodeURIComponent('online:en:US:nothing')}`, { method: 'PATCH', body: { title: 'x' } });
      assert.equal(identity.status, 404);
      const other = await c.api(`/${OTHER}/products`, { body: product('intruder') });
      assert.equal(other.status, 401);
      const noCredentials = await c.api(`/${SUB}/products`, { body: product('anonymous'), token: null });
      assert.equal(noCredentials.status, 401);
      assert.deepEqual((await c.api(`/${SUB}/products`)).body, before.body);
    });

    it('custombatch: per-entry results and errors, 200 overall, each entry authorised on its own', async () => {
      const content = c.client();
      await content.products.insert({ merchantId: SUB, requestBody: product('batch-old') });
      // Entries may run in any order: none of them depends on another.
      const res = await content.products.custombatch({
        requestBody: {
          entries: [
            { batchId: 1, merchantId: SUB, method: 'insert', product: product('batch-1') },
            { batchId: 2, merchantId: SUB, method: 'insert', product: { ...product('batch-2'), offerId: undefined } },
            { batchId: 3, merchantId: OTHER, method: 'insert', product: product('batch-3') },
            { batchId: 4, merchantId: SUB, method: 'get', productId: 'online:en:US:missing' },
            { batchId: 5, merchantId: SUB, method: 'delete', productId: 'online:en:US:batch-old' },
          ],
        },
      });
      assert.equal(res.status, 200);
      const byId = new Map(res.data.entries!.map((e) => [e.batchId, e]));
      assert.equal(byId.get(1)!.product!.id, 'online:en:US:batch-1');
      assert.equal(byId.get(2)!.errors!.code, 400);
      assert.equal(byId.get(3)!.errors!.code, 401);
      assert.equal(byId.get(4)!.errors!.code, 404);
      assert.equal(byId.get(5)!.errors, undefined);
      assert.equal((await c.api(`/${OTHER}/products/${encodeURIComponent('online:en:US:batch-3')}`, { token: 'catalog-other-token' })).status, 404);
      // The sub-account operator may batch on the sub-account only.
      const scoped = await c.api('/products/batch', {
        token: SUB_TOKEN,
        body: { entries: [{ batchId: 1, merchantId: SUB, method: 'insert', product: product('op-1') }, { batchId: 2, merchantId: MCA, method: 'insert', product: product('op-2') }] },
      });
      assert.equal(scoped.status, 200);
      assert.equal(scoped.body.entries[0].product.offerId, 'op-1');
      assert.equal(scoped.body.entries[1].errors.code, 401);
    });

    it('keeps products, statuses and accounts across a restart', async () => {
      await c.client().products.insert({ merchantId: SUB, requestBody: product('durable-1', { imageLink: undefined }) });
      await c.t.restart();
      const content = c.client();
      assert.equal((await content.products.get({ merchantId: SUB, productId: 'online:en:US:durable-1' })).data.title, 'Product durable-1');
      const status = await content.productstatuses.get({ merchantId: SUB, productId: 'online:en:US:durable-1' });
      assert.ok(status.data.itemLevelIssues!.some((i) => i.code === 'missing_image_link'));
      assert.equal((await content.accounts.get({ merchantId: MCA, accountId: SUB })).data.name, 'Twinstack shop');
    });

    it('insert and delete take a feedId only when it names a datafeed of the merchant; custombatch entries agree', async () => {
      const content = c.client();
      const feedOf = async (merchantId: string, fileName: string) =>
        (await content.datafeeds.insert({ merchantId, requestBody: { name: 'Supplemental', fileName, contentType: 'products', targets: [{ language: 'en', country: 'US' }] } })).data.id!;
      const feedId = await feedOf(SUB, 'feed-id-own.txt');
      const elsewhere = (await content.accounts.insert({ merchantId: MCA, requestBody: { name: 'Feed shop' } })).data.id!;
      const foreignFeedId = await feedOf(elsewhere, 'feed-id-foreign.txt');
      const before = await c.api(`/${SUB}/products`);
      const message = (id: string) => `Invalid value for feedId: "${id}" (merchant ${SUB} has no datafeed with this id).`;
      // A batch entry's errors carry domain, reason and message only, as Content API's Error does.
      const refusal = (id: string) => ({ code: 400, message: message(id), errors: [{ domain: 'global', reason: 'invalid', message: message(id) }] });
      const parameterErrors = (id: string) => [{ ...refusal(id).errors[0], location: 'feedId', locationType: 'parameter' }];
      for (const id of ['999999', foreignFeedId, 'not-a-feed']) {
        const res = await c.api(`/${SUB}/products?feedId=${encodeURIComponent(id)}`, { body: product('feed-id-bad') });
        assert.equal(res.status, 400, id);
        assert.deepEqual(res.body, { error: { code: 400, message: message(id), status: 'INVALID_ARGUMENT', errors: parameterErrors(id) } });
      }
      assert.deepEqual((await c.api(`/${SUB}/products`)).body, before.body);
      const batch = await c.api('/products/batch', {
        body: {
          entries: [
            { batchId: 1, merchantId: SUB, method: 'insert', feedId: '999999', product: product('feed-id-batch-bad') },
            { batchId: 2, merchantId: SUB, method: 'insert', feedId, product: product('feed-id-batch-ok') },
          ],
        },
      });
      assert.equal(batch.status, 200);
      const byId = new Map(batch.body.entries.map((e: { batchId: number }) => [e.batchId, e]));
      assert.deepEqual((byId.get(1) as { errors: unknown }).errors, refusal('999999'));
      assert.equal((byId.get(2) as { product: { id: string } }).product.id, 'online:en:US:feed-id-batch-ok');
      assert.equal((await c.api(`/${SUB}/products/${encodeURIComponent('online:en:US:feed-id-batch-bad')}`)).status, 404);
      const single = await c.api(`/${SUB}/products?feedId=${feedId}`, { body: product('feed-id-ok') });
      assert.equal(single.status, 200);
      // Delete names the feed the same way: an unknown one removes nothing.
      const path = `/${SUB}/products/${encodeURIComponent('online:en:US:feed-id-ok')}`;
      const del = await c.api(`${path}?feedId=999999`, { method: 'DELETE' });
      assert.equal(del.status, 400);
      assert.deepEqual(del.body.error.errors, parameterErrors('999999'));
      const batchDelete = await c.api('/products/batch', { body: { entries: [{ batchId: 3, merchantId: SUB, method: 'delete', feedId: '999999', productId: 'online:en:US:feed-id-ok' }] } });
      assert.deepEqual(batchDelete.body.entries[0].errors, refusal('999999'));
      assert.equal((await c.api(path)).status, 200);
      assert.equal((await c.api(`${path}?feedId=${feedId}`, { method: 'DELETE' })).status, 204);
    });

    it('refuses a custombatch whose batchId is not an unsigned 32-bit integer, and changes nothing', async () => {
      const before = await c.api(`/${SUB}/products`);
      for (const batchId of ['abc', 1.5, '1.5', -1, 4294967296, '', ' 7', '0x10', true, [1], { id: 1 }]) {
        const entries = [
          { batchId: 1, merchantId: SUB, method: 'insert', product: product('batch-id-ok') },
          { batchId, merchantId: SUB, method: 'insert', product: product('batch-id-bad') },
        ];
        const res = await c.api('/products/batch', { body: { entries } });
        assert.equal(res.status, 400, JSON.stringify(batchId));
        assert.equal(res.body.error.code, 400);
        assert.equal(res.body.error.status, 'INVALID_ARGUMENT');
        assert.equal(res.body.error.message, `Invalid value at 'request.entries[1].batchId' (TYPE_UINT32), ${JSON.stringify(batchId)}`);
        assert.deepEqual(res.body.error.errors, [{ domain: 'global', reason: 'invalid', message: res.body.error.message }]);
      }
      assert.deepEqual((await c.api(`/${SUB}/products`)).body, before.body);
      // The largest uint32, and an integer sent as a JSON string (proto3 JSON), are batch ids.
      const ok = await c.api('/products/batch', {
        body: { entries: [{ batchId: 4294967295, merchantId: SUB, method: 'get', productId: 'online:en:US:none' }, { batchId: '7', merchantId: SUB, method: 'get', productId: 'online:en:US:none' }] },
      });
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.body.entries.map((e: { batchId: number }) => e.batchId), [4294967295, 7]);
      // Every custombatch checks it the same way.
      const accounts = await c.api('/accounts/batch', { body: { entries: [{ batchId: 2.5, merchantId: MCA, accountId: SUB, method: 'get' }] } });
      assert.equal(accounts.status, 400);
      assert.equal(accounts.body.error.message, "Invalid value at 'request.entries[0].batchId' (TYPE_UINT32), 2.5");
    });

    it('refuses a malformed batch body with 400', async () => {
      for (const body of [{ entries: 'x' }, { entries: [{ batchId: 'one', method: 'get' }] }, { entries: [{ batchId: 1, method: 'explode' }] }, { nope: [] }]) {
        const res = await c.api('/products/batch', { body });
        assert.equal(res.status, 400, JSON.stringify(body));
      }
      const raw = await c.api('/products/batch', { raw: '{"entries": [', headers: { 'content-type': 'application/json' } });
      assert.equal(raw.status, 400);
    });
  });
}
