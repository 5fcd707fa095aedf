// The catalog's OpenAPI document describes what its routes take (path parameters, query parameters, bodies), as
// documentation only: the service still checks input itself and answers in Content API's own error format.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, DATABASES } from '../helpers/runtime.ts';
import { product, startCatalog, SUB, type CatalogRuntime } from './helpers.ts';

const P = '/content/v2.1';

for (const database of DATABASES) {
  describe(`catalog OpenAPI request shapes (${database})`, () => {
    let c: CatalogRuntime;
    let doc: any;
    const bodyOf = (path: string, verb: string) => doc.paths[path][verb].requestBody?.content['application/json'].schema;
    const queryOf = (path: string, verb: string) => Object.fromEntries((doc.paths[path][verb].parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => [p.name, p]));
    before(async () => {
      c = await startCatalog(database);
      const res = await call(`${c.base}/openapi.json`);
      assert.equal(res.status, 200);
      doc = res.body;
    });
    after(async () => c.close());

    it('products.insert: the product with its identifying attributes required and their formats', () => {
      const body = bodyOf(`${P}/{merchantId}/products`, 'post');
      assert.deepEqual([...body.required].sort(), ['channel', 'contentLanguage', 'offerId']);
      assert.equal(body.additionalProperties, false);
      // offerId is named like an int64 field, so an integer is accepted beside the string.
      assert.equal(body.properties.offerId.anyOf.find((s: any) => s.type === 'string').maxLength, 50);
      assert.deepEqual(body.properties.channel.enum, ['online', 'local']);
      assert.equal(body.properties.targetCountry.pattern, '^[A-Z]{2}$');
      assert.equal(body.properties.price.properties.currency.type, 'string');
      assert.match(body.properties.title.description, /150/);
      assert.ok(queryOf(`${P}/{merchantId}/products`, 'post').feedId);
      const params = doc.paths[`${P}/{merchantId}/products`].post.parameters.filter((p: any) => p.in === 'path');
      assert.equal(params[0].name, 'merchantId');
      assert.equal(params[0].schema.pattern, '^\\d{1,20}$');
    });

    it('products.update and list: updateMask, paging and no required attributes', () => {
      const path = `${P}/{merchantId}/products/{productId}`;
      assert.equal(bodyOf(path, 'patch').required, undefined);
      assert.ok(queryOf(path, 'patch').updateMask);
      const list = queryOf(`${P}/{merchantId}/products`, 'get');
      assert.equal(list.maxResults.schema.type, 'integer');
      assert.ok(list.pageToken && list.fields && list.prettyPrint);
    });

    it('products.custombatch: entries naming a method, carrying a product', () => {
      const body = bodyOf(`${P}/products/batch`, 'post');
      const entry = body.properties.entries.items;
      assert.deepEqual(entry.properties.method.enum, ['get', 'insert', 'update', 'delete']);
      assert.deepEqual(entry.required, ['method']);
      assert.ok(entry.properties.product.anyOf ?? entry.properties.product.properties);
      assert.equal(body.properties.entries.maxItems, 10_000);
    });

    it('other write methods: accounts, datafeeds, inventory, resources and reports', () => {
      const account = bodyOf(`${P}/{merchantId}/accounts`, 'post');
      assert.deepEqual(account.required, ['name']);
      assert.equal(account.properties.name.maxLength, 100);
      assert.deepEqual(account.properties.users.items.required, ['emailAddress']);
      const feed = bodyOf(`${P}/{merchantId}/datafeeds`, 'post');
      assert.deepEqual([...feed.required].sort(), ['contentType', 'fileName', 'name', 'targets']);
      assert.equal(feed.properties.fetchSchedule.properties.hour.maximum, 23);
      assert.deepEqual(feed.properties.fetchSchedule.required, ['fetchUrl']);
      const local = bodyOf(`${P}/{merchantId}/products/{productId}/localinventory`, 'post');
      assert.deepEqual(local.required, ['storeCode']);
      assert.equal(local.properties.price.properties.currency.pattern, '^[A-Z]{3}$');
      const region = doc.paths[`${P}/{merchantId}/regions`].post;
      assert.ok(region.parameters.some((p: any) => p.in === 'query' && p.name === 'regionId' && p.required));
      const source = bodyOf(`${P}/{merchantId}/conversionsources`, 'post');
      assert.equal(source.properties.merchantCenterDestination.properties.attributionSettings.properties.attributionLookbackWindowInDays.maximum, 90);
      assert.deepEqual(bodyOf(`${P}/{merchantId}/reports/search`, 'post').required, ['query']);
      assert.ok(queryOf(`${P}/{merchantId}/conversionsources`, 'get').showDeleted);
    });

    it('every route documents its path parameters', () => {
      for (const [path, verbs] of Object.entries<any>(doc.paths)) {
        if (!path.startsWith(P)) continue;
        const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        for (const op of Object.values<any>(verbs)) {
          const documentedNames = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
          assert.deepEqual(documentedNames.sort(), [...names].sort(), path);
        }
      }
    });

    it('documents without enforcing: a body the schema refuses still gets the API\'s own answer', async () => {
      const res = await c.api(`/${SUB}/products`, { body: product('doc-1', { offerId: 'x'.repeat(51) }) });
      assert.equal(res.status, 400);
      assert.match(res.body.error.message, /offerId is too long/);
      assert.equal((await c.api(`/${SUB}/products`, { body: product('doc-2') })).status, 200);
    });
  });
}
