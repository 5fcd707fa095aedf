// Queries of the bidding service. Filter sets are documents keyed by name; events are appended and, in the same
// transaction, added to the hourly aggregates that metrics queries read.
import type { Kysely } from 'kysely';
import { ReadThroughCache, type CacheBudget } from '../../core/cache.ts';
import type { Database } from '../../core/db/index.ts';
import { bulkInsert } from '../../core/db/bulk.ts';
import { BatchedLookup, rowsByKey } from '../../core/db/batched-lookup.ts';
import { prepared } from '../../core/db/prepared.ts';
import type { BidEvent } from './domain/events.ts';
import type { Counters } from './domain/metrics.ts';
import type { HourCell } from './domain/metrics.ts';
import {
  FILTERED_BY_CREATIVE_KEYS,
  FILTERED_BY_DETAIL_KEYS,
  FUNNEL_COUNTERS,
  FUNNEL_KEYS,
  LEAN_KEYS,
  OUTCOME_DETAIL_KEYS,
  OUTCOME_KEYS,
  rollUpOutcomes,
} from './domain/outcome-rollup.ts';
import { COUNTER_COLUMNS, DEAL_KEYS, DETAIL_KEYS, ROLLUP_KEYS, rollUp } from './domain/rollup.ts';
import { STAGE, type OutcomeBreakdown, type Stage } from './domain/stages.ts';

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

/** Which outcomes to count: the stages, optionally one reason, and the breakdown. */
export interface OutcomeQuery {
  stages: readonly Stage[];
  reason?: number;
  by: OutcomeBreakdown;
  /** false: one sum per key over the whole range (its hour is the first hour with data), for rows without a time series. */
  hourly?: boolean;
}

/** One hour's count for one breakdown key. */
export interface OutcomeCount {
  hour: number;
  key: string | number;
  n: number;
}

const EVENT_COLUMNS = ['at', 'bidder', 'account', 'format', 'environment', 'platform', 'creative', 'deal', 'outcomes', 'funnel', 'reason', 'detail'];
const EVENT_TYPES = ['bigint', 'text', 'text', 'integer', 'integer', 'integer', 'text', 'text', 'integer', 'integer', 'integer', 'text'];
const OUTCOME_TYPES = ['text', 'bigint', 'text', 'integer', 'integer', 'integer', 'integer', 'integer', 'bigint'];
const OUTCOME_DETAIL_TYPES = ['text', 'integer', 'integer', 'bigint', 'text', 'text', 'text', 'text', 'integer', 'integer', 'integer', 'bigint'];
const FUNNEL_TYPES = ['text', 'bigint', 'text', 'integer', 'integer', 'integer', ...FUNNEL_COUNTERS.map(() => 'bigint')];
const LEAN_TYPES = ['text', 'integer', 'bigint', 'text', 'integer', 'bigint'];
const FILTERED_BY_TYPES = ['text', 'integer', 'bigint', 'text', 'text', 'bigint'];

/** Adds counter rows (keys then counters) to an aggregate table. */
const addCounts = (tx: Kysely<any>, table: string, keys: readonly string[], counters: readonly string[], rows: unknown[][], pgTypes: string[]) =>
  bulkInsert(tx, table, [...keys, ...counters], rows, { pgTypes, upsertAdd: { keys: [...keys], add: [...counters] } });
const COUNTER_TYPES = COUNTER_COLUMNS.map(() => 'bigint');
const ROLLUP_TYPES = ['text', 'bigint', 'text', 'integer', 'integer', 'integer', ...COUNTER_TYPES];
const DETAIL_TYPES = ['text', 'text', 'text', 'text', 'bigint', 'integer', 'integer', 'integer', ...COUNTER_TYPES];
const DEAL_TYPES = ['text', 'text', 'text', 'bigint', 'integer', 'integer', 'integer', ...COUNTER_TYPES];

/** Default budget of filter sets kept parsed in memory (`services.bidding.filterSetCacheBudget`). */
export const DEFAULT_FILTER_SET_CACHE_BUDGET: CacheBudget = { entries: 10_000, bytes: 16 * 1024 * 1024 };

// Writes go through the group-commit path; metrics sums run off the event loop (they may scan many aggregate rows).
export class BiddingStore {
  readonly #database: Database;
  readonly #db: Kysely<any>;
  /**
   * Filter sets by name, on SQLite only (its one writer is this process). A filter set never changes once created, so
   * an entry is only forgotten when its name is deleted or created again; a transient one's expiry is checked on every
   * read, as the query does.
   */
  readonly #filterSets: ReadThroughCache<string, StoredFilterSet> | null;
  /** PostgreSQL: the filter sets asked in one turn of the event loop, read with one query (expiry checked per read). */
  readonly #batchedFilterSets: BatchedLookup<StoredFilterSet> | null;

  constructor(database: Database, filterSetCacheBudget: CacheBudget = DEFAULT_FILTER_SET_CACHE_BUDGET) {
    this.#database = database;
    this.#db = database.kysely;
    this.#filterSets = database.dialect === 'sqlite' ? new ReadThroughCache(filterSetCacheBudget, (fs) => JSON.stringify(fs.body).length * 2 + fs.name.length * 2) : null;
    this.#batchedFilterSets = database.dialect === 'postgres' ? new BatchedLookup((names) => this.#loadFilterSets(names)) : null;
  }

  /** Drops the cached filter sets (after the tables were emptied or replaced behind this object's back). */
  forgetCache(): void {
    this.#filterSets?.clear();
  }

  /** Inserts a filter set and answers its id; a unique violation (duplicate name) propagates to the caller. */
  async insertFilterSet(input: { name: string; owner: string; body: Record<string, unknown>; transient: boolean; expiresAt: number | null; createdAt: number }): Promise<number> {
    const row = await this.#database.write((tx) =>
      tx
        .insertInto('bidding_filter_sets')
        .values({
          name: input.name,
          owner: input.owner,
          body: JSON.stringify(input.body),
          transient: input.transient ? 1 : 0,
          expires_at: input.expiresAt,
          created_at: input.createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    this.#filterSets?.forget(input.name);
    return Number(row.id);
  }

  /** The live filter set of this name (a transient one past its expiry counts as gone). */
  async getFilterSet(name: string, now: number): Promise<StoredFilterSet | undefined> {
    const found = this.#batchedFilterSets
      ? await this.#batchedFilterSets.get(name)
      : this.#filterSets
        ? await this.#filterSets.get(name, () => this.#loadFilterSet(name, now))
        : await this.#loadFilterSet(name, now);
    return found && (found.expiresAt === null || found.expiresAt > now) ? found : undefined;
  }

  async #loadFilterSet(name: string, now: number): Promise<StoredFilterSet | undefined> {
    const row = (await this.#filterSetByName(this.#db, name, now)).rows[0];
    return row ? toFilterSet(row) : undefined;
  }

  async #loadFilterSets(names: string[]): Promise<Map<string, StoredFilterSet>> {
    return rowsByKey(this.#db, 'bidding_filter_sets', 'name', names, toFilterSet);
  }

  // Read on every request that names a filter set: compiled once.
  readonly #filterSetByName = prepared<any>(() =>
    this.#db
      .selectFrom('bidding_filter_sets')
      .selectAll()
      .where('name', '=', '')
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', 0)])),
  );

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
    try {
      const res = await this.#database.write((tx) => tx.deleteFrom('bidding_filter_sets').where('name', '=', name).executeTakeFirst());
      return Number(res.numDeletedRows) > 0;
    } finally {
      // Also when the write failed: a commit whose fsync failed may still have removed the row.
      this.#filterSets?.forget(name);
    }
  }

  /** Removes a transient filter set whose time is up (never a persisted one that reused the name). */
  async deleteExpired(name: string, now: number): Promise<boolean> {
    try {
      const res = await this.#database.write((tx) =>
        tx.deleteFrom('bidding_filter_sets').where('name', '=', name).where('transient', '=', 1).where('expires_at', '<=', now).executeTakeFirst(),
      );
      return Number(res.numDeletedRows) > 0;
    } finally {
      this.#filterSets?.forget(name);
    }
  }

  /**
   * Stores a batch of validated events and adds them to the aggregates, all or nothing. The batch is pre-aggregated
   * in memory so each aggregate row is touched once per batch.
   */
  async ingest(events: BidEvent[], keepEvents: boolean): Promise<void> {
    if (events.length === 0) return;
    const { rollup, detail, deals } = rollUp(events);
    const { outcomes, details, funnel, lean, byCreative, byDetail } = rollUpOutcomes(events);
    await this.#database.write(async (tx) => {
      if (keepEvents) {
        const rows = events.map((e) => [e.at, e.bidder, e.account, e.format, e.environment, e.platform, e.creative, e.deal, e.outcomes, e.funnel, e.reason, e.detail]);
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
      await addCounts(tx, 'bidding_outcomes', OUTCOME_KEYS, ['n'], outcomes, OUTCOME_TYPES);
      await addCounts(tx, 'bidding_outcomes_detail', OUTCOME_DETAIL_KEYS, ['n'], details, OUTCOME_DETAIL_TYPES);
      await addCounts(tx, 'bidding_funnel', FUNNEL_KEYS, FUNNEL_COUNTERS, funnel, FUNNEL_TYPES);
      await addCounts(tx, 'bidding_outcomes_lean', LEAN_KEYS, ['n'], lean, LEAN_TYPES);
      await addCounts(tx, 'bidding_filtered_by_creative', FILTERED_BY_CREATIVE_KEYS, ['n'], byCreative, FILTERED_BY_TYPES);
      await addCounts(tx, 'bidding_filtered_by_detail', FILTERED_BY_DETAIL_KEYS, ['n'], byDetail, FILTERED_BY_TYPES);
    });
  }

  /**
   * impressionMetrics counters per hour (available, matched, requested, responded, with bids): from the funnel
   * aggregate, or from the stage counts by creative and deal when the filter names one.
   */
  async funnelCounts(f: MetricsFilter): Promise<Array<HourCell<number>>> {
    if (f.formats?.length === 0 || f.start >= f.end) return [];
    if (f.creative === undefined && f.deal === undefined) {
      const q = this.#db
        .selectFrom('bidding_funnel')
        .select((eb) => ['hour', ...FUNNEL_COUNTERS.map((c) => eb.fn.sum(c).as(c))])
        .where('bidder', '=', f.bidder)
        .where('hour', '>=', f.start)
        .where('hour', '<', f.end);
      const rows = await this.#database.heavyRead(narrow(q, f).groupBy('hour'));
      return rows.map((r: any) => ({ hour: Number(r.hour), key: 0, values: FUNNEL_COUNTERS.map((c) => Number(r[c] ?? 0)) }));
    }
    const stages = await this.outcomeCounts(f, { stages: Object.values(STAGE), by: 'stage' });
    return stages.map(({ hour, key, n }) => ({ hour, key: 0, values: FUNNEL_COUNTERS.map((_, i) => (Number(key) >= i ? n : 0)) }));
  }

  /**
   * Event counts per hour and breakdown key for the filter, from the coarse outcome aggregate unless the filter or the
   * breakdown needs creatives, deals or details.
   */
  async outcomeCounts(f: MetricsFilter, q: OutcomeQuery): Promise<OutcomeCount[]> {
    if (f.formats?.length === 0 || f.start >= f.end || q.stages.length === 0) return [];
    const dimensionsFiltered = f.formats !== undefined || f.environment !== undefined || f.platforms !== undefined || f.creative !== undefined || f.deal !== undefined;
    const breakdown = q.by === 'creative' || q.by === 'detail';
    // The narrowest aggregate that holds the dimensions the filter and the breakdown name.
    let query: any;
    if (!dimensionsFiltered && breakdown && q.reason !== undefined && q.stages.length === 1 && q.stages[0] === STAGE.bidFiltered) {
      query = this.#db.selectFrom(`bidding_filtered_by_${q.by}`).where('reason', '=', q.reason);
    } else if (!dimensionsFiltered && !breakdown) {
      query = this.#db.selectFrom('bidding_outcomes_lean').where('stage', 'in', [...q.stages]);
      if (q.reason !== undefined) query = query.where('reason', '=', q.reason);
    } else {
      const detailed = f.creative !== undefined || f.deal !== undefined || breakdown;
      query = this.#db.selectFrom(detailed ? 'bidding_outcomes_detail' : 'bidding_outcomes').where('stage', 'in', [...q.stages]);
      if (q.reason !== undefined) query = query.where('reason', '=', q.reason);
      // Events without a creative or a detail have no row in those breakdowns.
      if (breakdown) query = query.where(q.by, '<>', '');
    }
    query = narrow(query.where('bidder', '=', f.bidder).where('hour', '>=', f.start).where('hour', '<', f.end), f);
    const rows = await this.#database.heavyRead(
      q.hourly === false
        ? query.select((eb: any) => [eb.fn.min('hour').as('hour'), `${q.by} as key`, eb.fn.sum('n').as('n')]).groupBy(q.by)
        : query
            .select((eb: any) => ['hour', `${q.by} as key`, eb.fn.sum('n').as('n')])
            .groupBy(['hour', q.by])
            .orderBy('hour'),
    );
    return rows.map((r: any) => ({ hour: Number(r.hour), key: typeof r.key === 'string' ? r.key : Number(r.key), n: Number(r.n) }));
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
    q = narrow(q, f);
    const rows = await this.#database.heavyRead(q.groupBy('hour').orderBy('hour'));
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

/** The filter set's dimension filters (the account, creative, deal, formats, environment and platforms it names). */
function narrow<Q extends { where: (...args: any[]) => any }>(query: Q, f: MetricsFilter): Q {
  let q: any = query;
  if (f.account !== undefined) q = q.where('account', '=', f.account);
  if (f.creative !== undefined) q = q.where('creative', '=', f.creative);
  if (f.deal !== undefined) q = q.where('deal', '=', f.deal);
  if (f.formats) q = q.where('format', 'in', f.formats);
  if (f.environment !== undefined) q = q.where('environment', '=', f.environment);
  if (f.platforms) q = q.where('platform', 'in', f.platforms);
  return q;
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
