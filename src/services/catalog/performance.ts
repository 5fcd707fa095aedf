// Recorded daily performance (what reports.search and recommendations read), filled by the deterministic simulator.
import { bulkInsert } from '../../core/db/bulk.ts';
import type { Catalog } from './catalog.ts';
import type { Product, ProductStatus } from './domain/product-rules.ts';
import { simulateDays, type PerformanceRecord } from './domain/performance-simulator.ts';
import { statusOf } from './products.ts';

const DAY_MS = 86_400_000;

export interface SimulateOptions {
  days: number;
  /** Last simulated day (YYYY-MM-DD); yesterday on the service clock by default. */
  end?: string;
  seed: string;
  /** Called after each stored day with the number of days done. */
  onDay?(done: number): void;
}

const recordKey = (r: PerformanceRecord) => `${r.offerId}|${r.program}|${r.customerCountryCode ?? ''}`;

/** Simulates `days` days for the merchant's products and stores them, replacing what those days held. */
export async function simulatePerformance(cat: Catalog, merchantId: string, options: SimulateOptions): Promise<{ days: number; records: number; start: string; end: string }> {
  const end = options.end ?? new Date(cat.now() - DAY_MS).toISOString().slice(0, 10);
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - (options.days - 1) * DAY_MS).toISOString().slice(0, 10);
  const rows = await cat.allProducts(merchantId);
  const now = cat.now();
  const products = rows.map((r) => r.doc as Product);
  const statuses = rows.map((r) => statusOf(r, now) as ProductStatus);
  let days = 0;
  let records = 0;
  for (const day of simulateDays({ products, statuses, start, end, seed: options.seed })) {
    await cat.write(async (_s, tx) => {
      await tx.deleteFrom('catalog_performance').where('merchant_id', '=', merchantId).where('day', '=', day.date).execute();
      const unique = new Map(day.records.map((r) => [recordKey(r), r]));
      await bulkInsert(tx, 'catalog_performance', ['merchant_id', 'product_id', 'day', 'doc'], [...unique].map(([key, r]) => [merchantId, key, day.date, JSON.stringify(r)]));
    });
    days++;
    records += day.records.length;
    options.onDay?.(days);
  }
  return { days, records, start, end };
}

/** Recorded performance of the merchant between two days (inclusive). */
export async function performanceBetween(cat: Catalog, merchantId: string, start: string, end: string): Promise<PerformanceRecord[]> {
  const rows = await cat.ctx.db.heavyRead(
    cat.ctx.kysely.selectFrom('catalog_performance').select(['doc']).where('merchant_id', '=', merchantId).where('day', '>=', start).where('day', '<=', end),
  );
  return (rows as Array<{ doc: string }>).map((r) => JSON.parse(r.doc));
}
