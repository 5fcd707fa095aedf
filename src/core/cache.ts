// In-memory caches bounded twice: by entries and by bytes. An entry count alone lets a few large values (30 MB
// secrets) hold gigabytes; a byte budget alone lets millions of tiny entries cost their per-entry overhead. Every cache
// in the program is made here, least recently used evicted first, with a budget its owner reads from configuration.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { LRUCache } from 'lru-cache';
import { deepFreeze } from './deep-freeze.ts';

export const CacheBudgetSchema = Type.Object(
  {
    entries: Type.Integer({ minimum: 1 }),
    bytes: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);
export type CacheBudget = Static<typeof CacheBudgetSchema>;

/** Bookkeeping every entry costs besides its value (key, links, object headers), counted against the byte budget. */
export const ENTRY_OVERHEAD_BYTES = 64;

/**
 * A cache within `budget`; `bytesOf` tells what an entry costs (its key's length and the overhead are added). An entry
 * larger than the whole budget is not kept at all.
 */
export function boundedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(budget: CacheBudget, bytesOf: (value: V, key: K) => number): BoundedCache<K, V> {
  return new BoundedCache<K, V>({
    max: budget.entries,
    maxSize: budget.bytes,
    maxEntrySize: budget.bytes,
    sizeCalculation: (value, key) => Math.max(1, Math.ceil(bytesOf(value, key) + String(key).length * 2 + ENTRY_OVERHEAD_BYTES)),
  });
}

/**
 * A least-recently-used cache made at its first entry. lru-cache allocates room for its whole entry budget up front
 * (a megabyte or so for 50,000 entries), and most of the program's caches stay empty in a run that uses a few of the
 * services: made at start, they took a few percent of it.
 */
export class BoundedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  readonly #options: LRUCache.Options<K, V, unknown>;
  #lru: LRUCache<K, V> | undefined;

  constructor(options: LRUCache.Options<K, V, unknown>) {
    this.#options = options;
  }

  get(key: K): V | undefined {
    return this.#lru?.get(key);
  }

  has(key: K): boolean {
    return this.#lru?.has(key) ?? false;
  }

  /** The value without making it the most recently used. */
  peek(key: K): V | undefined {
    return this.#lru?.peek(key);
  }

  set(key: K, value: V): this {
    (this.#lru ??= new LRUCache<K, V>(this.#options)).set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.#lru?.delete(key) ?? false;
  }

  clear(): void {
    this.#lru?.clear();
  }

  get size(): number {
    return this.#lru?.size ?? 0;
  }

  /** The entries' sizes summed, as the byte budget counts them. */
  get calculatedSize(): number {
    return this.#lru?.calculatedSize ?? 0;
  }
}

/**
 * A budget from a service's settings (`{ entries, bytes }`, either optional), over `defaults`; throws naming
 * `setting` when it is malformed.
 */
export function cacheBudgetOf(raw: unknown, defaults: CacheBudget, setting: string): CacheBudget {
  if (raw === undefined) return defaults;
  const merged = { ...defaults, ...(raw as object) };
  if (typeof raw !== 'object' || raw === null || !Value.Check(CacheBudgetSchema, merged)) {
    throw new Error(`${setting} must be { entries, bytes } with positive integers`);
  }
  return merged;
}

/**
 * `buf` in memory of its own. Node hands out small Buffers as slices of shared 8 KiB pools, and a pool stays allocated
 * while any slice of it lives: a cache keeping small slices made at different times holds a whole pool for each, some
 * fifty times what its byte budget counts. What a cache keeps is detached first (no copy when it already owns its
 * memory).
 */
export function detached(buf: Buffer): Buffer {
  if (buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength) return buf;
  const own = Buffer.allocUnsafeSlow(buf.byteLength);
  buf.copy(own);
  return own;
}

/**
 * A read-through cache of records that only this process changes (a SQLite database has one writer; PostgreSQL may
 * have several, so an owner keeps none there): a hit costs neither the query nor the parsing of the row. Values are
 * frozen through, since every reader shares them. The owner forgets a key once its change is durable; a read that
 * started before any forget does not fill the cache, since it may have read the record just before its change.
 */
export class ReadThroughCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  readonly #entries: BoundedCache<K, V>;
  #generation = 0;

  constructor(budget: CacheBudget, bytesOf: (value: V, key: K) => number) {
    this.#entries = boundedCache(budget, bytesOf);
  }

  /** The cached value of `key`, or what `load` finds (undefined: absent, and not remembered). */
  async get(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.#entries.get(key);
    if (hit !== undefined) return hit;
    const generation = this.#generation;
    const value = await load();
    if (value !== undefined && generation === this.#generation) this.#entries.set(key, deepFreeze(value));
    return value;
  }

  forget(key: K): void {
    this.#generation++;
    this.#entries.delete(key);
  }

  /** Forgets everything (the tables were emptied or replaced behind the owner's back). */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
