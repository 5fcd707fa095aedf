// Datafeed registrations and their statuses as Content API documents them: which target a status names.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DATABASES } from '../helpers/runtime.ts';
import { SUB, startCatalog, type CatalogRuntime } from './helpers.ts';

for (const database of DATABASES) {
  describe(`catalog datafeeds (${database})`, () => {
    let c: CatalogRuntime;
    before(async () => {
      c = await startCatalog(database);
    });
    after(() => c.close());

    it('a datafeed needs its contentType, on insert and update', async () => {
      const content = c.client();
      const before = await c.api(`/${SUB}/datafeeds`);
      const body = { name: 'Typeless', fileName: 'typeless.tsv', targets: [{ language: 'en', country: 'US' }] };
      const refused = await c.api(`/${SUB}/datafeeds`, { body });
      assert.equal(refused.status, 400);
      assert.deepEqual(refused.body.error.errors, [{ domain: 'global', reason: 'required', message: 'Required field missing: datafeed.contentType' }]);
      assert.deepEqual((await c.api(`/${SUB}/datafeeds`)).body, before.body);

      const feed = await content.datafeeds.insert({ merchantId: SUB, requestBody: { ...body, contentType: 'local products' } });
      const update = await c.api(`/${SUB}/datafeeds/${feed.data.id}`, { method: 'PUT', body: { ...body, name: 'Renamed' } });
      assert.equal(update.status, 400);
      assert.equal(update.body.error.message, 'Required field missing: datafeed.contentType');
      const stored = await content.datafeeds.get({ merchantId: SUB, datafeedId: feed.data.id! });
      assert.equal(stored.data.name, 'Typeless');
      assert.equal(stored.data.contentType, 'local products');
      await content.datafeeds.delete({ merchantId: SUB, datafeedId: feed.data.id! });
    });

    it('datafeedstatuses.get names a target with language and a feed label or country', async () => {
      const content = c.client();
      const targets = [
        { language: 'en', country: 'US' },
        { language: 'de', feedLabel: 'DE' },
      ];
      const feed = await content.datafeeds.insert({ merchantId: SUB, requestBody: { name: 'Two targets', fileName: 'two-targets.tsv', contentType: 'products', targets } });
      const id = feed.data.id!;
      const german = await content.datafeedstatuses.get({ merchantId: SUB, datafeedId: id, feedLabel: 'DE', language: 'de' });
      assert.equal(german.data.language, 'de');
      assert.equal(german.data.feedLabel, 'DE');

      for (const [query, message, location] of [
        ['', `Datafeed ${id} has 2 targets: name one with language and feedLabel (or country).`, 'feedLabel'],
        ['?country=US', 'Required parameter: language (country and feedLabel need it).', 'language'],
        ['?feedLabel=DE', 'Required parameter: language (country and feedLabel need it).', 'language'],
        ['?language=en', 'Required parameter: feedLabel or country (language needs one).', 'feedLabel'],
      ]) {
        const res = await c.api(`/${SUB}/datafeedstatuses/${id}${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.error.message, message);
        assert.deepEqual(res.body.error.errors[0], { domain: 'global', reason: 'required', message, location, locationType: 'parameter' });
      }

      const batch = await content.datafeedstatuses.custombatch({
        requestBody: {
          entries: [
            { batchId: 1, merchantId: SUB, method: 'get', datafeedId: id },
            { batchId: 2, merchantId: SUB, method: 'get', datafeedId: id, country: 'US', language: 'en' },
          ],
        },
      });
      const [missing, found] = batch.data.entries!;
      assert.equal(missing.batchId, 1);
      assert.equal(missing.errors!.code, 400);
      assert.equal(missing.errors!.errors![0].reason, 'required');
      assert.equal(found.datafeedStatus!.country, 'US');

      // A feed of one target needs no parameters: its only status is meant.
      const single = await content.datafeeds.insert({ merchantId: SUB, requestBody: { name: 'One target', fileName: 'one-target.tsv', contentType: 'products', targets: [targets[0]] } });
      assert.equal((await content.datafeedstatuses.get({ merchantId: SUB, datafeedId: single.data.id! })).data.processingStatus, 'none');
    });
  });
}
