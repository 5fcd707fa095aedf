// Writes to one product that arrive together. Units read the product, merge the request into it and write it back;
// on PostgreSQL, where units run at once, updates of different fields once undid each other (eight updateMask
// patches left two fields changed) and seven of eight deletes answered 204. Both databases must behave as SQLite,
// where units run one after another.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { SUB, catalogSuite, product } from './helpers.ts';

const FIELDS = { title: 'New title', description: 'New description', color: 'red', brand: 'New brand', mpn: 'MPN-9', material: 'wood', pattern: 'dots', ageGroup: 'adult' };

for (const database of DATABASES) {
  describe(`catalog writes that arrive together (${database})`, () => {
    const suite = catalogSuite(database);

    it('updates of different fields of one product all land', async () => {
      assert.equal((await suite.c.api(`/${SUB}/products`, { body: product('race-1') })).status, 200);
      const id = encodeURIComponent('online:en:US:race-1');
      const answers = await Promise.all(Object.entries(FIELDS).map(([field, value]) => suite.c.api(`/${SUB}/products/${id}?updateMask=${field}`, { method: 'PATCH', body: { [field]: value } })));
      assert.deepEqual(answers.map((a) => a.status), answers.map(() => 200), JSON.stringify(answers.find((a) => a.status !== 200)?.body));
      const after = (await suite.c.api(`/${SUB}/products/${id}`)).body;
      assert.deepEqual(Object.fromEntries(Object.keys(FIELDS).map((f) => [f, after[f]])), FIELDS);
    });

    it('deletes of one product: one 204, the others 404', async () => {
      assert.equal((await suite.c.api(`/${SUB}/products`, { body: product('race-2') })).status, 200);
      const id = encodeURIComponent('online:en:US:race-2');
      const answers = await Promise.all(Array.from({ length: 8 }, () => suite.c.api(`/${SUB}/products/${id}`, { method: 'DELETE' })));
      assert.deepEqual(answers.map((a) => a.status).sort(), [204, 404, 404, 404, 404, 404, 404, 404]);
    });
  });
}
