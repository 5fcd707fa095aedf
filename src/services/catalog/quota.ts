// Daily call quotas per merchant and method. Calls are counted in memory and added to the stored counters about once
// a second (a read such as products.get would otherwise become a write); the check adds both. Days turn at 12:00 UTC.
import { GoogleError } from '../../core/google/index.ts';
import { bulkInsert } from '../../core/db/bulk.ts';
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

const DAY_SHIFT_MS = 12 * 3600_000;
const RELOAD_MS = 5000;

export const quotaDay = (ms: number): string => new Date(ms - DAY_SHIFT_MS).toISOString().slice(0, 10);

export class QuotaMeter {
  readonly #ctx: ServiceContext;
  readonly #settings: QuotaSettings;
  /**
   * Stored usage per `merchant|day`, kept in step by flushes and re-read after a few seconds (other instances count
   * too, and a reset empties the table).
   */
  readonly #stored = new Map<string, Map<string, number>>();
  readonly #loadedAt = new Map<string, number>();
  readonly #pending = new Map<string, number>();
  readonly #inflight = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;

  constructor(ctx: ServiceContext, settings: QuotaSettings) {
    this.#ctx = ctx;
    this.#settings = settings;
  }

  limitOf(method: string): number {
    return this.#settings.methods[method] ?? this.#settings.dailyLimit;
  }

  get minuteLimit(): number {
    return this.#settings.minuteLimit;
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
    this.#pending.set(key, (this.#pending.get(key) ?? 0) + 1);
    this.#timer ??= setTimeout(() => void this.flush().catch((err) => this.#ctx.log.error({ err }, 'quota flush failed')), 1000);
  }

  /** Calls made today per method (stored plus not yet flushed). */
  async usage(merchantId: string, day = quotaDay(this.#ctx.clock.now())): Promise<Map<string, number>> {
    const storeKey = `${merchantId}|${day}`;
    let stored = this.#stored.get(storeKey);
    if (!stored || performance.now() - (this.#loadedAt.get(storeKey) ?? 0) > RELOAD_MS) {
      stored = await new CatalogStore(this.#ctx.kysely).usage(merchantId, day);
      this.#stored.set(storeKey, stored);
      this.#loadedAt.set(storeKey, performance.now());
    }
    const out = new Map(stored);
    const prefix = `${storeKey}|`;
    // Counts being written are still counted: between a flush's start and its commit they are in neither map.
    for (const counts of [this.#inflight, this.#pending]) {
      for (const [key, n] of counts) if (key.startsWith(prefix)) out.set(key.slice(prefix.length), (out.get(key.slice(prefix.length)) ?? 0) + n);
    }
    return out;
  }

  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.size === 0 || this.#inflight.size > 0) return;
    for (const [key, n] of this.#pending) this.#inflight.set(key, n);
    this.#pending.clear();
    const rows = [...this.#inflight].map(([key, n]) => [...key.split('|'), n]);
    try {
      await this.#ctx.db.write((tx) =>
        bulkInsert(tx, 'catalog_quota_usage', ['merchant_id', 'day', 'method', 'calls'], rows, { upsertAdd: { keys: ['merchant_id', 'day', 'method'], add: ['calls'] } }),
      );
      for (const [key, n] of this.#inflight) {
        const [merchant, day, method] = key.split('|');
        const stored = this.#stored.get(`${merchant}|${day}`);
        if (stored) stored.set(method, (stored.get(method) ?? 0) + n);
      }
    } catch (err) {
      // Not written: count them again with the next flush.
      for (const [key, n] of this.#inflight) this.#pending.set(key, (this.#pending.get(key) ?? 0) + n);
      throw err;
    } finally {
      this.#inflight.clear();
      if (this.#pending.size > 0) this.#timer ??= setTimeout(() => void this.flush().catch((e) => this.#ctx.log.error({ err: e }, 'quota flush failed')), 1000);
    }
  }

}
