// A multi-client account holds no products, feeds or collections of its own: its sub-accounts do. Calls that would
// read or write them on the MCA are refused, also inside a custombatch, and change nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DATABASES } from '../helpers/runtime.ts';
import { MCA, SUB, product, startCatalog, type CatalogRuntime } from './helpers.ts';

const refused = (body: any) => {
  assert.equal(body.error.code, 403);
  assert.match(body.error.message, new RegExp(`^Merchant ${MCA} is a multi-client account`));
  assert.equal(body.error.errors[0].reason, 'forbidden');
};

for (const database of DATABASES) {
  describe(`catalog data of multi-client accounts (${database})`, () => {
    let c: CatalogRuntime;
    before(async () => {
      c = await startCatalog(database);
    });
    after(() => c.close());

    it('refuses products, statuses, inventory, datafeeds and collections on the MCA', async () => {
      const id = encodeURIComponent('online:en:US:mca-1');
      const calls: Array<[string, { method?: string; body?: unknown }]> = [
        [`/${MCA}/products`, { body: product('mca-1') }],
        [`/${MCA}/products`, {}],
        [`/${MCA}/products/${id}`, {}],
        [`/${MCA}/products/${id}`, { method: 'PATCH', body: { title: 'x' } }],
        [`/${MCA}/products/${id}`, { method: 'DELETE' }],
        [`/${MCA}/productstatuses`, {}],
        [`/${MCA}/productstatuses/${id}`, {}],
        [`/${MCA}/products/${id}/localinventory`, { body: { storeCode: 'store-1', availability: 'in stock' } }],
        [`/${MCA}/datafeeds`, { body: { name: 'Feed', fileName: 'mca.txt', contentType: 'products', targets: [{ language: 'en', country: 'US' }] } }],
        [`/${MCA}/datafeeds`, {}],
        [`/${MCA}/datafeedstatuses`, {}],
        [`/${MCA}/collections`, {}],
        [`/${MCA}/collectionstatuses`, {}],
      ];
      for (const [path, init] of calls) {
        const res = await c.api(path, init);
        assert.equal(res.status, 403, `${init.method ?? (init.body ? 'POST' : 'GET')} ${path}: ${res.text}`);
        refused(res.body);
      }
      // The same calls on the sub-account succeed; nothing was written to the MCA, and the refusals cost no quota.
      assert.equal((await c.api(`/${SUB}/datafeeds`)).status, 200);
      const quotas = await c.client().quotas.list({ merchantId: MCA, pageSize: 1000 });
      const used = quotas.data.methodQuotas!.filter((q) => /^(products|productstatuses|datafeeds)\./.test(q.method!) && q.quotaUsage !== '0');
      assert.deepEqual(used, []);
    });

    it('refuses a custombatch entry for the MCA while its sub-account entry runs', async () => {
      const res = await c.client().products.custombatch({
        requestBody: {
          entries: [
            { batchId: 1, merchantId: MCA, method: 'insert', product: product('mca-batch') },
            { batchId: 2, merchantId: SUB, method: 'insert', product: product('mca-batch') },
            { batchId: 3, merchantId: MCA, method: 'get', productId: 'online:en:US:mca-batch' },
          ],
        },
      });
      const byId = new Map(res.data.entries!.map((e) => [e.batchId, e]));
      for (const batchId of [1, 3]) {
        assert.equal(byId.get(batchId)!.errors!.code, 403);
        assert.equal(byId.get(batchId)!.errors!.errors![0].reason, 'forbidden');
        assert.equal(byId.get(batchId)!.product, undefined);
      }
      assert.equal(byId.get(2)!.product!.id, 'online:en:US:mca-batch');
      // The managing account still reaches the sub-account's products through the sub-account's id.
      const got = await c.client().products.get({ merchantId: SUB, productId: 'online:en:US:mca-batch' });
      assert.equal(got.data.offerId, 'mca-batch');
    });
  });
}
