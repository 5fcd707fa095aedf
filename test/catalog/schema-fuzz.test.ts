// Requests built from the catalog's documented schemas (bodies and query strings), sent to every route with a
// reachable merchant in the path, so that they get past access checks into the handlers: none may answer 5xx.
// Bodies are generated as the schema describes them, and also laid over a valid request so that the rules behind
// the first checks run. CATALOG_FUZZ_RUNS sets the requests per route and kind (default 6).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { allOperations } from '../../src/services/catalog/operations.ts';
import { fromSchema } from '../fuzz/arbitraries.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { MCA, SUB, product, startCatalog, type CatalogRuntime } from './helpers.ts';

const RUNS = Number(process.env.CATALOG_FUZZ_RUNS ?? 6);
const PRODUCT_ID = 'online:en:US:fuzz-1';

/** Valid bodies of some write methods, for generated fields to be laid over. */
const VALID: Record<string, Record<string, unknown>> = {
  'products.insert': product('fuzz-1'),
  'products.update': { title: 'Changed' },
  'accounts.insert': { name: 'Fuzz shop', websiteUrl: 'https://fuzz.example' },
  'datafeeds.insert': { name: 'Feed', fileName: 'fuzz.txt', contentType: 'products', targets: [{ language: 'en', country: 'US' }], fetchSchedule: { fetchUrl: 'https://shop.example/f.txt' } },
  'localinventory.insert': { storeCode: 'store-1', price: { value: '1.00', currency: 'USD' } },
  'pos.insert': { storeCode: 'store-1', storeAddress: '1 Main St' },
  'pos.inventory': { storeCode: 'store-1', itemId: 'fuzz-1', targetCountry: 'US', contentLanguage: 'en', price: { value: '1.00', currency: 'USD' }, quantity: '3', timestamp: '2026-01-01T00:00:00Z' },
  'reports.search': { query: 'SELECT offer_id, title FROM product_view' },
  'shippingsettings.update': { services: [{ name: 'Std', active: true, deliveryCountry: 'US', currency: 'USD', deliveryTime: { minTransitTimeInDays: 1, maxTransitTimeInDays: 3 }, rateGroups: [{ singleValue: { flatRate: { value: '5', currency: 'USD' } } }] }] },
  'conversionsources.create': { merchantCenterDestination: { displayName: 'Checkout', currencyCode: 'USD', attributionSettings: { attributionLookbackWindowInDays: 30, attributionModel: 'CROSS_CHANNEL_LAST_CLICK' } } },
};

/** A path parameter that names something reachable (or present) in the seeded runtime. */
const PARAMS: Record<string, string> = { merchantId: SUB, accountId: SUB, targetMerchantId: SUB, cssGroupId: MCA, cssDomainId: SUB, productId: PRODUCT_ID, country: 'US', storeCode: 'store-1' };

const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(PARAMS[name] ?? 'fuzz-1'));

/** Batch entries naming the reachable merchant (and the existing product), so that they run their operation. */
function reachable(body: unknown): unknown {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { entries?: unknown }).entries)) return body;
  const entries = (body as { entries: unknown[] }).entries.map((e) => (e && typeof e === 'object' ? { ...e, merchantId: SUB, accountId: SUB, targetMerchantId: SUB, productId: PRODUCT_ID } : e));
  return { ...body, entries };
}

function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    for (const item of Array.isArray(v) ? v : [v]) params.append(k, typeof item === 'string' ? item : JSON.stringify(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

for (const database of DATABASES) {
  describe(`catalog routes with schema-derived requests (${database})`, () => {
    let c: CatalogRuntime;
    before(async () => {
      c = await startCatalog(database);
      assert.equal((await c.api(`/${SUB}/products`, { body: product('fuzz-1') })).status, 200);
    });
    after(async () => c.close());

    it('no route answers 5xx', { timeout: 600_000 }, async () => {
      const failures: string[] = [];
      let sent = 0;
      const answered = new Map<number, number>();
      for (const [i, op] of allOperations().entries()) {
        const query = fromSchema(Type.Object(op.request?.query ?? {}) as never);
        const body = op.request?.body ? fromSchema(op.request.body as never) : fc.constant(undefined);
        const valid = VALID[op.method];
        const plans = fc.sample(fc.tuple(query, body, fc.boolean()), { numRuns: RUNS * (valid || op.path.endsWith('/batch') ? 2 : 1), seed: 7919 * (i + 1) });
        for (const [q, b, overValid] of plans) {
          const payload = valid && overValid && b && typeof b === 'object' ? { ...(b as object), ...valid } : overValid ? reachable(b) : b;
          const url = `${fill(op.path)}${queryString((q ?? {}) as Record<string, unknown>)}`;
          const res = await c.api(url, { method: op.verb, ...(op.verb === 'GET' || op.verb === 'DELETE' || payload === undefined ? {} : { body: payload }) });
          sent++;
          answered.set(res.status, (answered.get(res.status) ?? 0) + 1);
          if (res.status >= 500) failures.push(`${op.method} ${op.verb} ${url} ${JSON.stringify(payload)?.slice(0, 400)} -> ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
      assert.ok(sent >= allOperations().length * RUNS);
      // Requests that got through to a success show the generated ones reach the handlers, not only the checks.
      const succeeded = [...answered].filter(([status]) => status < 300).reduce((n, [, count]) => n + count, 0);
      assert.ok(succeeded > sent / 10, JSON.stringify([...answered]));
      assert.deepEqual(failures, []);
    });
  });
}
