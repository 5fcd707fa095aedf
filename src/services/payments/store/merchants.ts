// Merchant accounts and their counters (transno and batch numbers count up per merchant, atomically).
import { sql, type Kysely } from 'kysely';
import { ReadThroughCache, type CacheBudget } from '../../../core/cache.ts';
import { BatchedLookup, rowsByKey } from '../../../core/db/batched-lookup.ts';
import type { Database } from '../../../core/db/index.ts';
import { prepared } from '../../../core/db/prepared.ts';
import type { Merchant } from '../contract.ts';

/** Default budget of merchants kept parsed in memory (`services.payments.merchant_cache_budget`). */
export const DEFAULT_MERCHANT_CACHE_BUDGET: CacheBudget = { entries: 10_000, bytes: 8 * 1024 * 1024 };

export class MerchantStore {
  readonly #db: Kysely<any>;
  // Every request that names a merchant reads it. On SQLite this process is the one writer, so a merchant is read from
  // memory until it is changed or deleted here (the counters are not part of it); PostgreSQL, which several instances
  // may share, reads the table every time: the merchants asked in one turn of the event loop in one query.
  readonly #cache: ReadThroughCache<number, Merchant> | null;
  readonly #batched: BatchedLookup<Merchant> | null;

  constructor(database: Database, cacheBudget: CacheBudget = DEFAULT_MERCHANT_CACHE_BUDGET) {
    this.#db = database.kysely;
    this.#cache = database.dialect === 'sqlite' ? new ReadThroughCache(cacheBudget, (m) => JSON.stringify(m).length * 2) : null;
    this.#batched = database.dialect === 'postgres' ? new BatchedLookup((ids) => this.#readMany(ids)) : null;
  }

  async get(merchantid: number): Promise<Merchant | undefined> {
    if (this.#batched) return this.#batched.get(String(merchantid));
    return this.#cache ? this.#cache.get(merchantid, () => this.#read(merchantid)) : this.#read(merchantid);
  }

  async #readMany(ids: string[]): Promise<Map<string, Merchant>> {
    return rowsByKey(this.#db, 'payments_merchants', 'merchantid', ids, toMerchant, 'bigint');
  }

  /** Forgets every cached merchant (after a reset or an import replaced the table). */
  forgetCache(): void {
    this.#cache?.clear();
  }

  async #read(merchantid: number): Promise<Merchant | undefined> {
    const row = (await this.#byId(this.#db, merchantid)).rows[0];
    return row ? toMerchant(row) : undefined;
  }

  // Read on every request that names a merchant: compiled once.
  readonly #byId = prepared<any>(() => this.#db.selectFrom('payments_merchants').selectAll().where('merchantid', '=', 0));

  async list(clientid?: string): Promise<Merchant[]> {
    let q = this.#db.selectFrom('payments_merchants').selectAll().orderBy('merchantid');
    if (clientid !== undefined) q = q.where('clientid', '=', clientid);
    return (await q.execute()).map(toMerchant);
  }

  /** Creates or replaces the configuration of a merchant (its counters are kept). */
  async upsert(m: Merchant, nowMs: number): Promise<void> {
    const values = {
      clientid: m.clientid,
      name: m.name,
      currency: m.currency,
      time_zone: m.timeZone,
      duplicate_window_s: m.duplicateWindowSeconds,
      policies: JSON.stringify(m.policies),
      three_d_secure: m.threeDSecure ? 1 : 0,
      status: m.status,
    };
    try {
      await this.#db
        .insertInto('payments_merchants')
        .values({ merchantid: m.merchantid, ...values, created_at: nowMs })
        .onConflict((oc) => oc.column('merchantid').doUpdateSet(values))
        .execute();
    } finally {
      // Also when the write failed: it may still have reached the table.
      this.#cache?.forget(m.merchantid);
    }
  }

  async delete(merchantid: number): Promise<boolean> {
    try {
      const res = await this.#db.deleteFrom('payments_merchants').where('merchantid', '=', merchantid).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    } finally {
      this.#cache?.forget(merchantid);
    }
  }

  /**
   * The next transaction number of a merchant: one atomic increment, so concurrent requests never share one. `db` is
   * the unit of work's transaction when the number goes with a write.
   */
  nextTransno(merchantid: number, db: Kysely<any> = this.#db): Promise<number> {
    return this.#next('next_transno', db, merchantid);
  }

  nextBatchNo(merchantid: number): Promise<number> {
    return this.#next('next_batch_no', this.#db, merchantid);
  }

  // Every authorisation takes a number: each increment is compiled once.
  readonly #increments = {
    next_transno: prepared<any>(() => this.#increment('next_transno')),
    next_batch_no: prepared<any>(() => this.#increment('next_batch_no')),
  };

  #increment(column: Counter) {
    return this.#db
      .updateTable('payments_merchants')
      .set((eb) => ({ [column]: eb(column, '+', sql.lit(1)) }))
      .where('merchantid', '=', 0)
      .returning(column);
  }

  async #next(column: Counter, db: Kysely<any>, merchantid: number): Promise<number> {
    const row = (await this.#increments[column](db, merchantid)).rows[0];
    if (!row) throw new Error(`no merchant ${merchantid}`);
    return Number(row[column]);
  }
}

type Counter = 'next_transno' | 'next_batch_no';

function toMerchant(r: any): Merchant {
  return {
    merchantid: Number(r.merchantid),
    clientid: r.clientid,
    name: r.name,
    currency: r.currency,
    timeZone: r.time_zone,
    duplicateWindowSeconds: Number(r.duplicate_window_s),
    policies: JSON.parse(r.policies),
    threeDSecure: Number(r.three_d_secure) === 1,
    status: r.status,
  };
}
