// Merchant catalog: products.get and products.list over 1,000 products of the seeded sub-account, and a 1,000-entry
// products custombatch (each entry an upsert, authorised and validated on its own, the writes group-committed).
import type { BenchEnv, BenchScenario, RequestFactory } from '../scenario.ts';

const TOKEN = 'bench-dev-token';
const MERCHANT = '1000001';
const PRODUCTS = 1000;
const headers = { authorization: `Bearer ${TOKEN}` };

const productOf = (n: number, title = `Bench product ${n}`) => ({
  offerId: `bench-${n}`,
  channel: 'online',
  contentLanguage: 'en',
  targetCountry: 'US',
  title,
  description: 'A product of the benchmark catalog',
  link: `https://shop.example.com/p/${n}`,
  imageLink: `https://shop.example.com/i/${n}.jpg`,
  price: { value: `${(n % 90) + 9}.99`, currency: 'USD' },
  availability: 'in stock',
  condition: 'new',
  brand: ['Acme', 'Globex', 'Initech'][n % 3],
  gtin: '4006381333931',
});

const batchBody = (round: number) =>
  JSON.stringify({ entries: Array.from({ length: PRODUCTS }, (_, i) => ({ batchId: i, merchantId: MERCHANT, method: 'insert', product: productOf(i, `Bench product ${i} (round ${round})`) })) });

let seeded: Promise<void> | undefined;

function seed(env: BenchEnv): Promise<void> {
  seeded ??= (async () => {
    const res = await fetch(`${env.url('catalog')}/content/v2.1/products/batch`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: batchBody(0) });
    const body = (await res.json()) as { entries: Array<{ errors?: unknown }> };
    if (!res.ok || body.entries.some((e) => e.errors)) throw new Error(`seeding catalog products failed: ${res.status}`);
  })();
  return seeded;
}

/** Two bodies in turn, so every batch really changes the 1,000 products (runs in the load generator). */
export const batches: RequestFactory = () => {
  const bodies = [batchBody(1), batchBody(2)];
  let n = 0;
  return (req) => ({ ...req, body: bodies[n++ % 2] });
};

export const scenarios: BenchScenario[] = [
  {
    name: 'catalog.products.get',
    service: 'catalog',
    async setup(env) {
      await seed(env);
      return { headers, requests: [0, 250, 500, 750, 999].map((n) => ({ path: `/content/v2.1/${MERCHANT}/products/online%3Aen%3AUS%3Abench-${n}` })) };
    },
  },
  {
    name: 'catalog.products.list',
    service: 'catalog',
    async setup(env) {
      await seed(env);
      return { headers, requests: [{ path: `/content/v2.1/${MERCHANT}/products?maxResults=25` }] };
    },
  },
  {
    name: 'catalog.products.custombatch-1000',
    service: 'catalog',
    connections: 4,
    async setup(env) {
      await seed(env);
      return {
        headers: { ...headers, 'content-type': 'application/json' },
        requests: [{ method: 'POST', path: '/content/v2.1/products/batch', computedBy: { module: import.meta.url, factory: 'batches' } }],
      };
    },
  },
];
