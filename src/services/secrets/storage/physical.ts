// The physical layer: opaque byte values by plaintext path in one table. Only the barrier writes here.
import { sql, type Kysely, type Migration } from 'kysely';
import { boundedCache, detached, type CacheBudget } from '../../../core/cache.ts';
import { BatchedLookup, rowsByKey } from '../../../core/db/batched-lookup.ts';
import { columnTypes } from '../../../core/db/dialect.ts';
import { escapeLike, likeEscaped } from '../../../core/db/like.ts';
import type { Database } from '../../../core/db/index.ts';
import { prepared } from '../../../core/db/prepared.ts';
import { StorageConflictError } from '../contract.ts';
import { oneStatementWrite } from './one-statement-write.ts';

export const ENTRIES_TABLE = 'secrets_entries';

export const storageMigrations: Record<string, Migration> = {
  '001_entries': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable(ENTRIES_TABLE)
        .addColumn('path', t.text, (c) => c.primaryKey())
        .addColumn('value', t.bytes, (c) => c.notNull())
        .execute();
    },
  },
};


/**
 * The least string above every string that starts with `prefix` in SQLite's BINARY order (UTF-8 bytes, which follow
 * code points): the prefix with its last character's successor. Undefined when there is none to write (an empty or
 * ill-formed prefix, a last character of U+10FFFF or just below the surrogates).
 */
export function prefixUpperBound(prefix: string): string | undefined {
  // A lone surrogate is stored as U+FFFD: such a prefix does not say which bytes it stands for.
  if (prefix === '' || Buffer.from(prefix, 'utf8').toString('utf8') !== prefix) return undefined;
  const chars = Array.from(prefix);
  const next = chars.pop()!.codePointAt(0)! + 1;
  if (next > 0x10ffff || (next >= 0xd800 && next <= 0xdfff)) return undefined;
  return chars.join('') + String.fromCodePoint(next);
}

/** The default budget of the value cache (`services.secrets.storageCacheBudget`). */
export const DEFAULT_STORAGE_CACHE_BUDGET: CacheBudget = { entries: 20_000, bytes: 64 * 1024 * 1024 };

/** A cached read: the stored bytes, or null for a path known to be absent. */
interface Cached {
  value: Buffer | null;
}

/**
 * Rows by path. With `cache`, a read-through LRU of the (still encrypted) values sits in front of the table, as Vault's
 * physical cache does; it is only safe when this process is the table's only writer, so it is off for PostgreSQL
 * (where several instances may share the database). There the reads of one turn of the event loop share one query
 * instead. Every write goes through the group-commit path: a write is acknowledged only once it is durable, and
 * writes of concurrent requests share one fsync.
 */
export class PhysicalStorage {
  readonly #database: Database;
  readonly #db: Kysely<any>;
  readonly #cache: ReturnType<typeof boundedCache<string, Cached>> | null;
  /** PostgreSQL: each query is a round trip, so the reads that arrive together are asked together. */
  readonly #batched: BatchedLookup<Buffer> | null;
  // The point queries every request runs, compiled once for this database's dialect.
  readonly #select = prepared<{ value: Uint8Array }>(() => this.#db.selectFrom(ENTRIES_TABLE).select('value').where('path', '=', ''));
  readonly #upsert = prepared(() =>
    this.#db
      .insertInto(ENTRIES_TABLE)
      .values({ path: '', value: Buffer.alloc(0) })
      .onConflict((oc) => oc.column('path').doUpdateSet({ value: Buffer.alloc(0) })),
  );
  readonly #remove = prepared(() => this.#db.deleteFrom(ENTRIES_TABLE).where('path', '=', ''));
  readonly #insertIfAbsent = prepared(() => this.#db.insertInto(ENTRIES_TABLE).values({ path: '', value: Buffer.alloc(0) }).onConflict((oc) => oc.column('path').doNothing()));
  readonly #updateIfUnchanged = prepared(() => this.#db.updateTable(ENTRIES_TABLE).set({ value: Buffer.alloc(0) }).where('path', '=', '').where('value', '=', Buffer.alloc(0)));
  readonly #removeIfUnchanged = prepared(() => this.#db.deleteFrom(ENTRIES_TABLE).where('path', '=', '').where('value', '=', Buffer.alloc(0)));

  constructor(database: Database, options: { cache?: boolean; cacheBudget?: CacheBudget } = {}) {
    this.#database = database;
    this.#db = database.kysely;
    this.#cache = options.cache ? boundedCache<string, Cached>(options.cacheBudget ?? DEFAULT_STORAGE_CACHE_BUDGET, (c) => c.value?.length ?? 0) : null;
    this.#batched = database.dialect === 'postgres' ? new BatchedLookup((paths) => this.#selectMany(paths)) : null;
  }

  /** Round trips the batched reads took (PostgreSQL; for tests). */
  get batchedQueries(): number {
    return this.#batched?.queries ?? 0;
  }

  async #selectMany(paths: string[]): Promise<Map<string, Buffer>> {
    return rowsByKey(this.#db, ENTRIES_TABLE, 'path', paths, (r: { value: Uint8Array }) => detached(Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value)));
  }

  /** Entries and bytes the value cache holds now (0 when it is off). */
  get cacheUsage(): { entries: number; bytes: number } {
    return { entries: this.#cache?.size ?? 0, bytes: this.#cache?.calculatedSize ?? 0 };
  }

  /** Drops cached values (after the tables were emptied behind this object's back). */
  forgetCache(): void {
    this.#cache?.clear();
  }

  #remember(path: string, value: Buffer | null): void {
    this.#cache?.set(path, { value: value && detached(value) });
  }

  /**
   * What the value cache holds for `path`, without waiting: the bytes, null when the path is known to be absent, or
   * undefined when only `get` can tell (not cached, or no cache).
   */
  peek(path: string): Buffer | null | undefined {
    return this.#cache?.get(path)?.value;
  }

  async get(path: string): Promise<Buffer | undefined> {
    const cached = this.#cache?.get(path);
    if (cached !== undefined) return cached.value ?? undefined;
    if (this.#batched) return this.#batched.get(path);
    const row = (await this.#select(this.#db, path)).rows[0];
    const value = row ? detached(Buffer.isBuffer(row.value) ? row.value : Buffer.from(row.value)) : undefined;
    this.#remember(path, value ?? null);
    return value;
  }

  async put(path: string, value: Buffer): Promise<void> {
    await this.writeMany([{ path, value }]);
  }

  async delete(path: string): Promise<void> {
    await this.writeMany([{ path, value: null }]);
  }

  /**
   * Puts (`value` a buffer) and deletes (`value` null) in one transaction. With `guard`, the op on the guarded path is
   * a conditional write (insert if absent / update or delete if unchanged); when it touches no row the transaction is
   * rolled back and StorageConflictError thrown.
   *
   * The cache keeps the old values until the write is durable: until then they are what the database holds for every
   * other reader, and dropping them first sent each read of a key being written to the table (and its decryption)
   * instead. A failed write drops them: a commit whose fsync failed may still have changed the table.
   */
  async writeMany(ops: Array<{ path: string; value: Buffer | null }>, guard?: { path: string; expected: Buffer | null }): Promise<void> {
    try {
      // PostgreSQL: one round trip instead of one per operation plus BEGIN and COMMIT.
      const statement = this.#database.dialect === 'postgres' ? oneStatementWrite(this.#db, ENTRIES_TABLE, ops, guard) : undefined;
      if (statement) {
        const [row] = (await this.#database.writeStatement(statement)).rows;
        if (row?.applied !== 1) throw new StorageConflictError(guard!.path);
      } else await this.#writeInUnit(ops, guard);
    } catch (err) {
      for (const op of ops) this.#cache?.delete(op.path);
      throw err;
    }
    // A deleted path is only dropped, not remembered as absent: paths are deleted for good far more often than they are
    // read again (every KV write past max_versions deletes a version), and each absence kept evicted a live value.
    for (const op of ops) {
      if (op.value === null) this.#cache?.delete(op.path);
      else this.#remember(op.path, op.value);
    }
  }

  async #writeInUnit(ops: Array<{ path: string; value: Buffer | null }>, guard?: { path: string; expected: Buffer | null }): Promise<void> {
    await this.#database.write(async (tx) => {
      for (const { path, value } of ops) {
        if (guard && path === guard.path) {
          if (!(await this.#conditionalWrite(tx, path, value, guard.expected))) throw new StorageConflictError(path);
        } else if (value === null) await this.#remove(tx, path);
        else await this.#upsert(tx, path, value, value);
      }
    });
  }

  /** True when the row was at `expected` (absent when null) and now holds `value` (absent when null). */
  async #conditionalWrite(tx: Kysely<any>, path: string, value: Buffer | null, expected: Buffer | null): Promise<boolean> {
    if (expected === null) {
      if (value === null) return (await this.#select(tx, path)).rows.length === 0;
      return Number((await this.#insertIfAbsent(tx, path, value)).numAffectedRows ?? 0) === 1;
    }
    const r = value === null ? await this.#removeIfUnchanged(tx, path, expected) : await this.#updateIfUnchanged(tx, value, path, expected);
    return Number(r.numAffectedRows ?? 0) === 1;
  }

  /**
   * Every stored path starting with `prefix`. On SQLite a range of the primary key, so a listing reads only its own
   * rows (LIKE, case-insensitive there, cannot use the key and read the whole table); PostgreSQL orders text by its
   * collation, not by bytes, so it keeps LIKE.
   */
  async keys(prefix: string): Promise<string[]> {
    const upper = this.#database.dialect === 'sqlite' ? prefixUpperBound(prefix) : undefined;
    const rows = await this.#db
      .selectFrom(ENTRIES_TABLE)
      .select('path')
      .where((eb) => (upper === undefined ? likeEscaped(sql.ref('path'), `${escapeLike(prefix)}%`) : eb.and([eb('path', '>=', prefix), eb('path', '<', upper)])))
      .execute();
    return rows.map((r) => r.path as string).filter((p) => p.startsWith(prefix));
  }

  /** Deletes every path under `prefix` (a mount's or namespace's storage). */
  async deletePrefix(prefix: string): Promise<void> {
    const keys = await this.keys(prefix);
    for (const k of keys) this.#cache?.delete(k);
    await this.#database.write(async (tx) => {
      for (let i = 0; i < keys.length; i += 500) await tx.deleteFrom(ENTRIES_TABLE).where('path', 'in', keys.slice(i, i + 500)).execute();
    });
  }
}
