// Shared set-up of the catalog suites: a runtime with the catalog, principals for the access matrix, and clients.
// The content API alone: importing the whole googleapis package costs seconds per test file.
import { auth as googleAuth, content_v2_1 } from 'googleapis/build/src/apis/content/index.js';
import { after, before } from 'node:test';
import { DEV_TOKEN, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

export const MCA = '1000000';
export const SUB = '1000001';
/** A standalone merchant the dev user cannot reach, owned by another principal. */
export const OTHER = '2000000';
export const OTHER_TOKEN = 'catalog-other-token';
/** A principal granted only the sub-account. */
export const SUB_TOKEN = 'catalog-sub-token';

export interface CatalogRuntime {
  t: TestRuntime;
  base: string;
  /** fetch helper with the dev token (or `token`) against /content/v2.1. */
  api(path: string, init?: { method?: string; body?: unknown; raw?: string; token?: string | null; headers?: Record<string, string> }): ReturnType<typeof call>;
  client(token?: string): content_v2_1.Content;
  close(): Promise<void>;
}

/** A catalog runtime started before the suite's tests and closed after them: read `suite.c` inside the tests. */
export function catalogSuite(database: 'sqlite' | 'postgres'): { c: CatalogRuntime } {
  const suite = {} as { c: CatalogRuntime };
  before(async () => {
    suite.c = await startCatalog(database);
  });
  after(() => suite.c.close());
  return suite;
}

export async function startCatalog(database: 'sqlite' | 'postgres', extra: { settings?: Record<string, unknown>; clock?: 'manual' | 'system'; clockStart?: number } = {}): Promise<CatalogRuntime> {
  const t = await startTestRuntime({
    services: ['catalog'],
    database,
    clock: extra.clock,
    clockStart: extra.clockStart,
    settings: { catalog: extra.settings ?? {} },
    principals: [
      { id: 'other-merchant', kind: 'user', name: 'Other merchant', attrs: { email: 'owner@other.example' }, credentials: [{ type: 'bearer', value: OTHER_TOKEN, scopes: ['https://www.googleapis.com/auth/content'] }] },
      { id: 'sub-operator', kind: 'user', name: 'Sub-account operator', attrs: { merchantIds: [SUB] }, credentials: [{ type: 'bearer', value: SUB_TOKEN, scopes: ['https://www.googleapis.com/auth/content'] }] },
    ],
  });
  const admin = await call(`${t.adminUrl}/services/catalog/accounts`, { body: { id: OTHER, name: 'Other shop', users: [{ emailAddress: 'owner@other.example', admin: true }] } });
  if (admin.status !== 200) throw new Error(`seeding the other merchant failed: ${admin.status} ${admin.text}`);
  return {
    t,
    // After a restart the listener may have another port.
    get base() {
      return t.url('catalog');
    },
    api(path, init = {}) {
      const token = init.token === undefined ? DEV_TOKEN : init.token;
      const headers: Record<string, string> = { ...(init.headers ?? {}) };
      if (token !== null) headers.authorization = `Bearer ${token}`;
      return call(`${t.url('catalog')}/content/v2.1${path}`, { method: init.method, body: init.body, raw: init.raw, headers });
    },
    client(token = DEV_TOKEN) {
      const auth = new googleAuth.OAuth2();
      auth.setCredentials({ access_token: token });
      return new content_v2_1.Content({ rootUrl: `${t.url('catalog')}/`, auth, retry: false } as any);
    },
    close: () => t.close(),
  };
}

export const product = (offerId: string, extra: Record<string, unknown> = {}) => ({
  offerId,
  channel: 'online',
  contentLanguage: 'en',
  targetCountry: 'US',
  title: `Product ${offerId}`,
  description: 'A fine product',
  link: `https://shop.example.com/p/${offerId}`,
  imageLink: `https://shop.example.com/i/${offerId}.jpg`,
  price: { value: '19.99', currency: 'USD' },
  availability: 'in stock',
  condition: 'new',
  brand: 'Acme',
  gtin: '4006381333931',
  ...extra,
});
