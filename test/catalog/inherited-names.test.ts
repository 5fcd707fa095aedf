// Names a request chooses (batch methods, updateMask fields, report tables) that a plain object would inherit from
// Object.prototype: each is refused like any other unknown name, and a refused write changes nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DATABASES } from '../helpers/runtime.ts';
import { SUB, product, startCatalog, type CatalogRuntime } from './helpers.ts';

const INHERITED = ['constructor', 'valueOf', 'toString'];
const PRODUCT_ID = encodeURIComponent('online:en:US:named-1');

/** The Content API error body of a 400 with reason `invalid`. */
const invalid = (message: string) => ({ error: { code: 400, message, errors: [{ domain: 'global', reason: 'invalid', message }], status: 'INVALID_ARGUMENT' } });

for (const database of DATABASES) {
  describe(`catalog names inherited from Object.prototype (${database})`, () => {
    let c: CatalogRuntime;
    before(async () => {
      c = await startCatalog(database);
      await c.client().products.insert({ merchantId: SUB, requestBody: product('named-1') });
      await c.client().regions.create({ merchantId: SUB, regionId: 'r1', requestBody: { displayName: 'One', geotargetArea: { geotargetCriteriaIds: ['1'] } } });
    });
    after(() => c.close());

    it('custombatch refuses an entry whose method is an Object.prototype member and runs none of the batch', async () => {
      for (const method of INHERITED) {
        const products = await c.api('/products/batch', { body: { entries: [{ batchId: 1, merchantId: SUB, method: 'insert', product: product(`batch-${method}`) }, { batchId: 2, merchantId: SUB, method }] } });
        assert.equal(products.status, 400, `${method}: ${products.text}`);
        assert.deepEqual(products.body, invalid(`Invalid value at 'entries[1].method': "${method}"; expected one of get, insert, update, delete.`));
        assert.equal((await c.api(`/${SUB}/products/${encodeURIComponent(`online:en:US:batch-${method}`)}`)).status, 404);
        // The batches defineResource builds share the check.
        const addresses = await c.api('/returnaddress/batch', { body: { entries: [{ batchId: 1, merchantId: SUB, method }] } });
        assert.equal(addresses.status, 400, `${method}: ${addresses.text}`);
        assert.deepEqual(addresses.body, invalid(`Invalid value at 'entries[0].method': "${method}"; expected one of insert, get, delete.`));
      }
    });

    it('PATCH refuses an updateMask naming an Object.prototype member and keeps the resource', async () => {
      const region = (await c.api(`/${SUB}/regions/r1`)).body;
      const stored = (await c.api(`/${SUB}/products/${PRODUCT_ID}`)).body;
      assert.equal(region.displayName, 'One');
      assert.equal(stored.offerId, 'named-1');
      for (const field of [...INHERITED, 'constructor.name']) {
        const res = await c.api(`/${SUB}/regions/r1?updateMask=${field}`, { method: 'PATCH', body: { displayName: 'Changed' } });
        assert.equal(res.status, 400, `${field}: ${res.text}`);
        assert.deepEqual(res.body, invalid(`Invalid field in updateMask: "${field}" is not a field of region.`));
      }
      for (const field of INHERITED) {
        const res = await c.api(`/${SUB}/products/${PRODUCT_ID}?updateMask=${field}`, { method: 'PATCH', body: { title: 'Changed' } });
        assert.equal(res.status, 400, `${field}: ${res.text}`);
        assert.deepEqual(res.body, invalid(`Invalid field in updateMask: "${field}" is not a field of product.`));
      }
      assert.deepEqual((await c.api(`/${SUB}/regions/r1`)).body, region);
      assert.deepEqual((await c.api(`/${SUB}/products/${PRODUCT_ID}`)).body, stored);
    });

    it('reports.search names a table called constructor unknown', async () => {
      const res = await c.api(`/${SUB}/reports/search`, { body: { query: 'SELECT product_view.id FROM constructor' } });
      assert.equal(res.status, 400, res.text);
      const message = 'Invalid query: Unknown table constructor (expected ProductPerformanceView, MerchantPerformanceView or ProductView) at position 29';
      assert.deepEqual(res.body, { error: { code: 400, message, status: 'INVALID_ARGUMENT', errors: [{ domain: 'global', reason: 'invalid', message, location: 'query', locationType: 'parameter' }] } });
    });
  });
}
