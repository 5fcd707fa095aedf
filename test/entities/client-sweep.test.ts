// entities.search, the one method of Knowledge Graph Search v1, driven through the googleapis client with every
// parameter it names; each answer matches the client's `Schema$SearchResponse`. The method has no paging: `limit` is
// all the client offers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { google } from 'googleapis';
import { DATABASES, DEV_API_KEY, DEV_TOKEN, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import { clientShapes } from '../helpers/client-shapes.ts';

const shapes = clientShapes('kgsearch', 'v1');

/** `'@context'` and `'@type'` are typed `any` by the client: their values are checked here, the rest by `clientShapes`. */
function assertShape(data: object): void {
  const { '@context': context, '@type': type } = data as Record<string, unknown>;
  assert.equal(typeof context, 'object');
  assert.equal(type, 'ItemList');
  shapes.assert('SearchResponse', data);
}

for (const database of DATABASES) {
  describe(`entities through the googleapis client, every parameter (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startTestRuntime({ services: ['entities'], database, settings: { entities: { graph: 'samples' } } });
    });
    after(async () => t.close());

    const withKey = () => google.kgsearch({ version: 'v1', rootUrl: t.url('entities') + '/', auth: DEV_API_KEY });
    const ids = (data: { itemListElement?: Array<{ result: { '@id': string } }> | null }) => data.itemListElement!.map((e) => e.result['@id']);

    it('query, prefix, types, languages, limit and indent', async () => {
      const kg = withKey();
      const exact = await kg.entities.search({ query: 'taylor swift', limit: 1 });
      assertShape(exact.data);
      assert.deepEqual(ids(exact.data), ['kg:/m/0dl567']);
      const prefixed = await kg.entities.search({ query: 'tayl', prefix: true, types: ['Person', 'Thing'], languages: ['en', 'fr'], limit: 5, indent: true });
      assertShape(prefixed.data);
      assert.ok(ids(prefixed.data).includes('kg:/m/0dl567'));
      const none = await kg.entities.search({ query: 'paris', types: ['Museum'] });
      assertShape(none.data);
      assert.deepEqual(none.data.itemListElement, []);
    });

    it('ids, alone and with a query, with a bearer token', async () => {
      const auth = new google.auth.OAuth2();
      auth.setCredentials({ access_token: DEV_TOKEN });
      const kg = google.kgsearch({ version: 'v1', rootUrl: t.url('entities') + '/', auth });
      const byIds = await kg.entities.search({ ids: ['kg:/m/0dl567', '/g/twin_paris', 'kg:/g/unknown'] });
      assertShape(byIds.data);
      assert.deepEqual(ids(byIds.data).sort(), ['kg:/g/twin_paris', 'kg:/m/0dl567']);
      const both = await kg.entities.search({ ids: ['kg:/m/0dl567', 'kg:/g/twin_paris'], query: 'paris' });
      assert.deepEqual(ids(both.data), ['kg:/g/twin_paris']);
    });
  });
}
