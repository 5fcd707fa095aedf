// The service's shared handles: context, read store, quota meter, settings, and the write helper every mutation uses.
import type { Kysely } from 'kysely';
import { cacheBudgetOf, type CacheBudget } from '../../core/cache.ts';
import type { ServiceContext } from '../../core/service.ts';
import { DEFAULT_QUOTA, DEFAULT_QUOTA_CACHE_BUDGET, QuotaMeter, type QuotaSettings } from './quota.ts';
import { CatalogStore, toProduct, type ProductRow } from './store.ts';
import { onePerContext } from '../../core/per-context.ts';

export interface CatalogSettings {
  quota: QuotaSettings;
  /** Entries and bytes the quota counters may hold in memory (`{ entries, bytes }`; default 10,000 and 8 MiB). */
  quotaCacheBudget: CacheBudget;
  /** Seeded at start: an MCA administered by the development user, with one sub-account. */
  seed: { mcaId: string; subAccountId: string };
  /** Days an archived conversion source stays restorable. */
  conversionSourceGraceDays: number;
  /** Longest a datafeed fetch may take. */
  fetchTimeoutMs: number;
}

export function settingsOf(raw: Record<string, unknown>): CatalogSettings {
  const quota = (raw.quota ?? {}) as Partial<QuotaSettings>;
  const seed = (raw.seed ?? {}) as Partial<CatalogSettings['seed']>;
  return {
    quota: { ...DEFAULT_QUOTA, ...quota, methods: { ...(quota.methods ?? {}) } },
    quotaCacheBudget: cacheBudgetOf(raw.quotaCacheBudget, DEFAULT_QUOTA_CACHE_BUDGET, 'services.catalog.quotaCacheBudget'),
    seed: { mcaId: String(seed.mcaId ?? '1000000'), subAccountId: String(seed.subAccountId ?? '1000001') },
    conversionSourceGraceDays: Number(raw.conversionSourceGraceDays ?? 30),
    fetchTimeoutMs: Number(raw.fetchTimeoutMs ?? 30_000),
  };
}

export class Catalog {
  readonly ctx: ServiceContext;
  readonly settings: CatalogSettings;
  readonly store: CatalogStore;
  readonly quota: QuotaMeter;

  constructor(ctx: ServiceContext) {
    this.ctx = ctx;
    this.settings = settingsOf(ctx.settings);
    this.store = new CatalogStore(ctx.kysely);
    this.quota = new QuotaMeter(ctx, this.settings.quota, this.settings.quotaCacheBudget);
  }

  now(): number {
    return this.ctx.clock.now();
  }

  /** Every product of a merchant, read off the request path (a worker connection on SQLite): reports and the like. */
  async allProducts(merchantId: string): Promise<ProductRow[]> {
    const rows = await this.ctx.db.heavyRead(this.ctx.kysely.selectFrom('catalog_products').selectAll().where('merchant_id', '=', merchantId).orderBy('id'));
    return rows.map(toProduct);
  }

  /**
   * Runs `fn` as one durable unit of work with a store bound to its transaction. Units read a resource, merge the
   * request into it and write it back: on PostgreSQL, where units run at once, the store locks what they read.
   */
  write<T>(fn: (store: CatalogStore, tx: Kysely<any>) => Promise<T>): Promise<T> {
    const lockRows = this.ctx.db.dialect === 'postgres';
    return this.ctx.db.write((tx) => fn(new CatalogStore(tx, { lockRows }), tx));
  }
}

/** One Catalog per service context (routes, jobs, admin and commands share it). */
export const catalogOf = onePerContext((ctx) => new Catalog(ctx));
