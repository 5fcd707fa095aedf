// Daily call quotas per merchant and method. Calls are counted in memory and added to the stored counters about once
// a second (a read such as products.get would otherwise become a write); the check adds both. Days turn at 12:00 UTC.
// Memory stays within the configured budget: stored usage is a bounded cache (an evicted day is read again from the
// table), and counts not yet written are flushed early when they reach the budget, so no count is ever dropped.
import { GoogleError } from '../../core/google/index.ts';
import { bulkInsert } from '../../core/db/bulk.ts';
import { boundedCache, ENTRY_OVERHEAD_BYTES, type CacheBudget } from '../../core/cache.ts';
import type { ServiceContext } from '../../core/service.ts';
import { CatalogStore } from './store.ts';

export interface QuotaSettings {
  /** Calls per method per merchant per day unless `methods` names the method. */
  dailyLimit: number;
  /** Per-minute limit reported by quotas.list (not enforced). */
  minuteLimit: number;
  methods: Record<string, number>;
}

export const DEFAULT_QUOTA: QuotaSettings = { dailyLimit: 1_000_000, minuteLimit: 20_000, methods: {} };

/** The default memory of the quota counters (`services.catalog.quotaCacheBudget`). */
export const DEFAULT_QUOTA_CACHE_BUDGET: CacheBudget = { entries: 10_000, bytes: 8 * 1024 * 1024 };

const DAY_SHIFT_MS = 12 * 3600_000;
const RELOAD_MS = 5000;

export const quotaDay = (ms: number): string => new Date(ms - DAY_SHIFT_MS).toISOString().slice(0, 10);

/** One merchant's stored usage of one day, and when it was read. */
interface StoredDay {
  calls: Map<string, number>;
  loadedAt: number;
}

const bytesOfDay = (day: StoredDay): number => {
  let bytes = 0;
  for (const method of day.calls.keys()) bytes += method.length * 2 + 16;
  return bytes;
};

/** What an unwritten counter costs: its `merchant|day|method` key, the count and the map's bookkeeping. */
const bytesOfCounter = (key: string): number => key.length * 2 + 8 + ENTRY_OVERHEAD_BYTES;

export class QuotaMeter {
  readonly #ctx: ServiceContext;
  readonly #settings: QuotaSettings;
  readonly #budget: CacheBudget;
  /**
   * Stored usage per `merchant|day`, kept in step by flushes and re-read after a few seconds (other instances count
   * too, and a reset empties the table).
   */
  readonly #stored;
  /** Calls not yet written (`merchant|day|method` → calls), and the bytes their keys take. */
  readonly #pending = new Map<string, number>();
  #pendingBytes = 0;
  readonly #inflight = new Map<string, number>();
  #flushing: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(ctx: ServiceContext, settings: QuotaSettings, budget: CacheBudget = DEFAULT_QUOTA_CACHE_BUDGET) {
    this.#ctx = ctx;
    this.#settings = settings;
    this.#budget = budget;
    this.#stored = boundedCache<string, StoredDay>(budget, bytesOfDay);
  }

  limitOf(method: string): number {
    return this.#settings.methods[method] ?? this.#settings.dailyLimit;
  }

  get minuteLimit(): number {
    return this.#settings.minuteLimit;
  }

  /** What the counters hold in memory now (for tests and the budget): cached days, unwritten counters, bytes. */
  memory(): { storedDays: number; storedBytes: number; counters: number; counterBytes: number } {
    let inflightBytes = 0;
    for (const key of this.#inflight.keys()) inflightBytes += bytesOfCounter(key);
    return { storedDays: this.#stored.size, storedBytes: this.#stored.calculatedSize, counters: this.#pending.size + this.#inflight.size, counterBytes: this.#pendingBytes + inflightBytes };
  }

  /** Counts one call; 429 when the merchant already used the method's daily quota. */
  async charge(merchantId: string, method: string): Promise<void> {
    const day = quotaDay(this.#ctx.clock.now());
    const used = (await this.usage(merchantId, day)).get(method) ?? 0;
    const limit = this.limitOf(method);
    if (used >= limit) {
      throw new GoogleError(429, `Quota exceeded for ${method}: merchant ${merchantId} made ${used} of ${limit} calls allowed today.`, {
        reason: 'quotaExceeded',
        domain: 'usageLimits',
        rpcStatus: 'RESOURCE_EXHAUSTED',
      });
    }
    const key = `${merchantId}|${day}|${method}`;
    const before = this.#pending.get(key);
    if (before === undefined) this.#pendingBytes += bytesOfCounter(key);
    this.#pending.set(key, (before ?? 0) + 1);
    if (this.#pending.size >= this.#budget.entries || this.#pendingBytes >= this.#budget.bytes) {
      // Over the budget the counts are written now rather than held until the timer: the call waits for the write. A
      // failed write keeps them for the next attempt and does not fail the call, as a failed timed flush would not.
      await this.flush().catch((err) => this.#ctx.log.error({ err }, 'quota flush failed'));
    } else {
      this.#schedule();
    }
  }

  /** Calls made today per method (stored plus not yet flushed). */
  async usage(merchantId: string, day = quotaDay(this.#ctx.clock.now())): Promise<Map<string, number>> {
    const storeKey = `${merchantId}|${day}`;
    let stored = this.#stored.get(storeKey);
    if (!stored || performance.now() - stored.loadedAt > RELOAD_MS) {
      stored = { calls: await new CatalogStore(this.#ctx.kysely).usage(merchantId, day), loadedAt: performance.now() };
      this.#stored.set(storeKey, stored);
    }
    const out = new Map(stored.calls);
    const prefix = `${storeKey}|`;
    // Counts being written are still counted: between a flush's start and its commit they are in neither map.
    for (const counts of [this.#inflight, this.#pending]) {
      for (const [key, n] of counts) if (key.startsWith(prefix)) out.set(key.slice(prefix.length), (out.get(key.slice(prefix.length)) ?? 0) + n);
    }
    return out;
  }

  /** Writes the counted calls; while a write is under way, waits for it and writes what came since. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // The write under way reports its own failure; this flush only needs it finished.
    while (this.#flushing) await this.#flushing.catch(() => undefined);
    if (this.#pending.size === 0) return;
    this.#flushing = this.#write().finally(() => {
      this.#flushing = undefined;
    });
    await this.#flushing;
  }

  #schedule(): void {
    this.#timer ??= setTimeout(() => void this.flush().catch((err) => this.#ctx.log.error({ err }, 'quota flush failed')), 1000);
  }

  async #write(): Promise<void> {
    for (const [key, n] of this.#pending) this.#inflight.set(key, n);
    this.#pending.clear();
    this.#pendingBytes = 0;
    const rows = [...this.#inflight].map(([key, n]) => [...key.split('|'), n]);
    try {
      await this.#ctx.db.write((tx) =>
        bulkInsert(tx, 'catalog_quota_usage', ['merchant_id', 'day', 'method', 'calls'], rows, { upsertAdd: { keys: ['merchant_id', 'day', 'method'], add: ['calls'] } }),
      );
      for (const [key, n] of this.#inflight) {
        const [merchant, day, method] = key.split('|');
        // A day no longer cached is read from the table next time, with these calls in it.
        const storeKey = `${merchant}|${day}`;
        const stored = this.#stored.peek(storeKey);
        if (!stored) continue;
        const known = stored.calls.has(method);
        stored.calls.set(method, (stored.calls.get(method) ?? 0) + n);
        // A method new to the day makes the entry larger: set it again so that the cache counts its new size.
        if (!known) this.#stored.set(storeKey, stored);
      }
    } catch (err) {
      // Not written: count them again with the next flush.
      for (const [key, n] of this.#inflight) {
        const before = this.#pending.get(key);
        if (before === undefined) this.#pendingBytes += bytesOfCounter(key);
        this.#pending.set(key, (before ?? 0) + n);
      }
      throw err;
    } finally {
      this.#inflight.clear();
      if (this.#pending.size > 0) this.#schedule();
    }
  }
}
