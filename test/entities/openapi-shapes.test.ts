// The OpenAPI document of entity search describes the method's parameters, and requests built from that description
// (valid by the schema or not) never get a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { DATABASES, DEV_API_KEY, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';
import { fromSchema } from '../fuzz/arbitraries.ts';
import { SearchQuery } from '../../src/services/entities/routes/schemas/search.ts';

const queryText = (q: Record<string, unknown>) =>
  Object.entries(q)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((item) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof item === 'string' ? item : JSON.stringify(item))}`))
    .join('&');

for (const database of DATABASES) {
  describe(`entity search OpenAPI shapes (${database})`, () => {
    let t: TestRuntime;
    let base: string;

    before(async () => {
      t = await startTestRuntime({ services: ['entities'], database, settings: { entities: { graph: 'samples' } } });
      base = t.url('entities');
    });
    after(async () => t.close());

    it('documents the search parameters with their types and bounds', async () => {
      const doc = (await call(`${base}/openapi.json`)).body;
      const parameters: Array<{ name: string; in: string; schema: Record<string, any> }> = doc.paths['/v1/entities:search'].get.parameters;
      const byName = new Map(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
      assert.equal(byName.get('limit')?.type, 'integer');
      assert.equal(byName.get('limit')?.maximum, 500);
      assert.equal(byName.get('prefix')?.type, 'boolean');
      assert.equal(byName.get('ids')?.type, 'array');
      assert.ok(byName.has('query') && byName.has('languages') && byName.has('types') && byName.has('key'));
    });

    it('answers schema-derived queries without a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(fromSchema(SearchQuery), async (q) => {
          const res = await call(`${base}/v1/entities:search?${queryText({ ...(q as object), key: DEV_API_KEY })}`);
          assert.ok(res.status < 500, `${res.status} for ${JSON.stringify(q)}: ${res.text.slice(0, 300)}`);
        }),
        { numRuns: 60 },
      );
    });
  });
}
