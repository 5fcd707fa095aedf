// Point reads by key that arrive in the same turn of the event loop, answered by one query. On PostgreSQL every query
// is a round trip whose socket write wakes a backend process, and that write cost the event loop more than the rest
// of a request: a secrets KV read (seven point reads one after another) spent 47 % of its CPU in the pool's writes.
// Requests that arrive together reach the same stage together, so their reads can share one `key = any($1)` query.
// Each read still sees what was committed when its query ran, as it would alone; it is only held until the end of
// the turn in which it was asked.
import { sql, type Kysely } from 'kysely';
import { NestedWriteError, insideUnitOfWork } from './group-commit.ts';

/** The key of a row found by two columns (any text in either); `pairOf` reads it back. */
export const pairKey = (a: string, b: string): string => JSON.stringify([a, b]);
export const pairOf = (key: string): [string, string] => JSON.parse(key) as [string, string];

/**
 * A lookup's fetch on PostgreSQL: the rows of `table` whose `column` (of SQL type `type`) holds one of `keys`, each
 * made a value by `toValue`, by its key. One array parameter whatever the number of keys: one statement text.
 */
export async function rowsByKey<V>(db: Kysely<any>, table: string, column: string, keys: string[], toValue: (row: any) => V, type: 'text' | 'bigint' = 'text'): Promise<Map<string, V>> {
  const values = type === 'bigint' ? keys.map(Number) : keys;
  const { rows } = await sql<any>`select * from ${sql.table(table)} where ${sql.ref(column)} = any(${values}::${sql.raw(type)}[])`.execute(db);
  return new Map(rows.map((row) => [String(row[column]), toValue(row)]));
}

/**
 * `rowsByKey` for rows found by two text columns, keys made by `pairKey`: every first value asked with every second
 * value asked (rows of pairs nobody asked for come back too, and the lookup ignores them).
 */
export async function rowsByPair<V>(db: Kysely<any>, table: string, [first, second]: [string, string], keys: string[], toValue: (row: any) => V): Promise<Map<string, V>> {
  const pairs = keys.map(pairOf);
  const { rows } = await sql<any>`select * from ${sql.table(table)}
    where ${sql.ref(first)} = any(${[...new Set(pairs.map((p) => p[0]))]}::text[]) and ${sql.ref(second)} = any(${pairs.map((p) => p[1])}::text[])`.execute(db);
  return new Map(rows.map((row) => [pairKey(row[first], row[second]), toValue(row)]));
}

/** Most keys in one query: bounds the statement's array and its answer. */
export const LOOKUP_BATCH_MAX = 500;

interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

export class BatchedLookup<V> {
  readonly #fetch: (keys: string[]) => Promise<Map<string, V>>;
  #pending = new Map<string, Array<Waiter<V>>>();
  #scheduled = false;
  #queries = 0;

  /** `fetch` answers the keys it found (absent ones are left out of the map; keys nobody asked for are ignored). */
  constructor(fetch: (keys: string[]) => Promise<Map<string, V>>) {
    this.#fetch = fetch;
  }

  /** The value of `key`, or undefined when there is none; asked with the other keys of this turn. */
  get(key: string): Promise<V | undefined> {
    // As any query outside a unit's transaction (checked where such mistakes are looked for): it would wait for a
    // connection while holding one, and a query run for a whole turn must not run in one unit's context.
    if (insideUnitOfWork.getStore()) return Promise.reject(new NestedWriteError('a batched read'));
    return new Promise((resolve, reject) => {
      const waiters = this.#pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.#pending.set(key, [{ resolve, reject }]);
      if (!this.#scheduled) {
        this.#scheduled = true;
        // setImmediate runs once the turn's I/O callbacks are done: the reads of every request handled in it join.
        setImmediate(() => this.#flush());
      }
    });
  }

  /** Queries run so far (for tests: how many round trips the reads took). */
  get queries(): number {
    return this.#queries;
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#pending;
    this.#pending = new Map();
    const keys = [...batch.keys()];
    for (let i = 0; i < keys.length; i += LOOKUP_BATCH_MAX) void this.#run(keys.slice(i, i + LOOKUP_BATCH_MAX), batch);
  }

  async #run(keys: string[], batch: Map<string, Array<Waiter<V>>>): Promise<void> {
    this.#queries += 1;
    try {
      const found = await this.#fetch(keys);
      for (const key of keys) for (const w of batch.get(key)!) w.resolve(found.get(key));
    } catch (error) {
      // One key the database refuses (a NUL in a text value) must not fail the reads of other requests: each key is
      // asked again alone, and only the keys that fail alone fail.
      if (keys.length === 1) for (const w of batch.get(keys[0])!) w.reject(error);
      else await Promise.all(keys.map((key) => this.#run([key], batch)));
    }
  }
}
