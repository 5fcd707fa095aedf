// Queries of the bidding service. Filter sets are documents keyed by name; events are appended and, in the same
// transaction, added to the hourly aggregates that metrics queries read.
import type { Kysely } from 'kysely';
import { bulkInsert } from '../../core/db/bulk.ts';
import type { BidEvent } from './domain/events.ts';
import type { Counters } from './domain/metrics.ts';
import { COUNTER_COLUMNS, DEAL_KEYS, DETAIL_KEYS, ROLLUP_KEYS, rollUp } from './domain/rollup.ts';

export interface StoredFilterSet {
  id: number;
  name: string;
  owner: string;
  /** The filter set as submitted (without filterSetId). */
  body: Record<string, unknown>;
  transient: boolean;
  expiresAt: number | null;
}

/** What a metrics query selects, already resolved to codes and an hour interval. */
export interface MetricsFilter {
  bidder: string;
  account?: string;
  formats?: number[];
  environment?: number;
  platforms?: number[];
  creative?: string;
  deal?: string;
  start: number;
  end: number;
}

const EVENT_COLUMNS = ['at', 'bidder', 'account', 'format', 'environment', 'platform', 'creative', 'deal', 'outcomes'];
const EVENT_TYPES = ['bigint', 'text', 'text', 'integer', 'integer', 'integer', 'text', 'text', 'integer'];
const COUNTER_TYPES = COUNTER_COLUMNS.map(() => 'bigint');
const ROLLUP_TYPES = ['text', 'bigint', 'text', 'integer', 'integer', 'integer', ...COUNTER_TYPES];
const DETAIL_TYPES = ['text', 'text', 'text', 'text', 'bigint', 'integer', 'integer', 'integer', ...COUNTER_TYPES];
const DEAL_TYPES = ['text', 'text', 'text', 'bigint', 'integer', 'integer', 'integer', ...COUNTER_TYPES];

export class BiddingStore {
  readonly #db: Kysely<any>;

  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  /** Inserts a filter set; a unique violation (duplicate name) propagates to the caller. */
  async insertFilterSet(input: { name: string; owner: string; body: Record<string, unknown>; transient: boolean; expiresAt: number | null; createdAt: number }): Promise<void> {
    await this.#db
      .insertInto('bidding_filter_sets')
      .values({
        name: input.name,
        owner: input.owner,
        body: JSON.stringify(input.body),
        transient: input.transient ? 1 : 0,
        expires_at: input.expiresAt,
        created_at: input.createdAt,
      })
      .execute();
  }

  /** The live filter set of this name (a transient one past its expiry counts as gone). */
  async getFilterSet(name: string, now: number): Promise<StoredFilterSet | undefined> {
    const row = await this.#db
      .selectFrom('bidding_filter_sets')
      .selectAll()
      .where('name', '=', name)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    return row ? toFilterSet(row) : undefined;
  }

  /** Live filter sets of one owner, in creation order, after id `afterId`. */
  async listFilterSets(owner: string, afterId: number, limit: number, now: number): Promise<StoredFilterSet[]> {
    const rows = await this.#db
      .selectFrom('bidding_filter_sets')
      .selectAll()
      .where('owner', '=', owner)
      .where('id', '>', afterId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toFilterSet);
  }

  async deleteFilterSet(name: string): Promise<boolean> {
    const res = await this.#db.deleteFrom('bidding_filter_sets').where('name', '=', name).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** Removes a transient filter set whose time is up (never a persisted one that reused the name). */
  async deleteExpired(name: string, now: number): Promise<boolean> {
    const res = await this.#db
      .deleteFrom('bidding_filter_sets')
      .where('name', '=', name)
      .where('transient', '=', 1)
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /**
   * Stores a batch of validated events and adds them to the aggregates, all or nothing. The batch is pre-aggregated
   * in memory so each aggregate row is touched once per batch.
   */
  async ingest(events: BidEvent[], keepEvents: boolean): Promise<void> {
    if (events.length === 0) return;
    const { rollup, detail, deals } = rollUp(events);
    await this.#db.transaction().execute(async (tx) => {
      if (keepEvents) {
        const rows = events.map((e) => [e.at, e.bidder, e.account, e.format, e.environment, e.platform, e.creative, e.deal, e.outcomes]);
        await bulkInsert(tx, 'bidding_events', EVENT_COLUMNS, rows, { pgTypes: EVENT_TYPES });
      }
      await bulkInsert(tx, 'bidding_rollup', [...ROLLUP_KEYS, ...COUNTER_COLUMNS], rollup, {
        pgTypes: ROLLUP_TYPES,
        upsertAdd: { keys: [...ROLLUP_KEYS], add: [...COUNTER_COLUMNS] },
      });
      await bulkInsert(tx, 'bidding_rollup_detail', [...DETAIL_KEYS, ...COUNTER_COLUMNS], detail, {
        pgTypes: DETAIL_TYPES,
        upsertAdd: { keys: [...DETAIL_KEYS], add: [...COUNTER_COLUMNS] },
      });
      await bulkInsert(tx, 'bidding_rollup_deal', [...DEAL_KEYS, ...COUNTER_COLUMNS], deals, {
        pgTypes: DEAL_TYPES,
        upsertAdd: { keys: [...DEAL_KEYS], add: [...COUNTER_COLUMNS] },
      });
    });
  }

  /** Counter sums per hour for the filter, from the narrowest aggregate that holds the dimensions it names. */
  async hourlySums(f: MetricsFilter): Promise<Map<number, Counters>> {
    const out = new Map<number, Counters>();
    if (f.formats?.length === 0 || f.start >= f.end) return out;
    const table = f.creative !== undefined ? 'bidding_rollup_detail' : f.deal !== undefined ? 'bidding_rollup_deal' : 'bidding_rollup';
    let q = this.#db
      .selectFrom(table)
      .select((eb) => ['hour', ...COUNTER_COLUMNS.map((c) => eb.fn.sum(c).as(c))])
      .where('bidder', '=', f.bidder)
      .where('hour', '>=', f.start)
      .where('hour', '<', f.end);
    if (f.account !== undefined) q = q.where('account', '=', f.account);
    if (f.creative !== undefined) q = q.where('creative', '=', f.creative);
    if (f.deal !== undefined) q = q.where('deal', '=', f.deal);
    if (f.formats) q = q.where('format', 'in', f.formats);
    if (f.environment !== undefined) q = q.where('environment', '=', f.environment);
    if (f.platforms) q = q.where('platform', 'in', f.platforms);
    const rows = await q.groupBy('hour').orderBy('hour').execute();
    for (const r of rows) out.set(Number(r.hour), COUNTER_COLUMNS.map((c) => Number(r[c] ?? 0)));
    return out;
  }

  /** Sizes for the health page: filter sets and hourly aggregate rows. */
  async counts(): Promise<{ filterSets: number; aggregateRows: number }> {
    const sets = await this.#db.selectFrom('bidding_filter_sets').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    const rollup = await this.#db.selectFrom('bidding_rollup').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    return { filterSets: Number(sets?.n ?? 0), aggregateRows: Number(rollup?.n ?? 0) };
  }
}

function toFilterSet(row: any): StoredFilterSet {
  return {
    id: Number(row.id),
    name: row.name,
    owner: row.owner,
    body: JSON.parse(row.body),
    transient: Number(row.transient) === 1,
    expiresAt: row.expires_at == null ? null : Number(row.expires_at),
  };
}
