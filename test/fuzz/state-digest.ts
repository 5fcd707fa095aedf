// A digest of everything a service keeps: every table its manifest lists, rows serialised in a fixed order (row order
// is not part of the state) and hashed. Equal digests before and after a request mean the request changed nothing.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/core/db/index.ts';

/** Tables that only mirror another listed table (full-text indexes): digesting the source covers them. */
const isDerivedIndex = (table: string): boolean => table.endsWith('_fts');

/**
 * Digests a service's tables. On PostgreSQL each table is hashed by the server (md5 of its rows as text, sorted);
 * on SQLite, where every write goes through the one connection, the digest is recomputed only when that
 * connection's change counter has moved.
 */
export class StateDigest {
  readonly #db: Database;
  readonly #tables: string[];
  #cached?: { changes: number; tables: Map<string, string> };

  constructor(db: Database, tables: string[]) {
    this.#db = db;
    this.#tables = tables.filter((t) => !isDerivedIndex(t));
  }

  /** One digest per table. */
  async tables(): Promise<Map<string, string>> {
    const kysely = this.#db.kysely;
    if (this.#db.dialect !== 'sqlite') return this.#each((table) => this.#postgresTable(kysely, table));
    const { rows } = await sql<{ changes: number }>`select total_changes() as changes`.execute(kysely);
    const changes = Number(rows[0]!.changes);
    if (this.#cached?.changes !== changes) this.#cached = { changes, tables: await this.#each((table) => this.#sqliteTable(kysely, table)) };
    return this.#cached.tables;
  }

  /** The whole state as one digest. */
  async current(): Promise<string> {
    return [...(await this.tables()).entries()].map(([t, d]) => `${t}:${d}`).join('\n');
  }

  async #each(digest: (table: string) => Promise<string>): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const table of this.#tables) out.set(table, await digest(table));
    return out;
  }

  async #sqliteTable(kysely: Kysely<any>, table: string): Promise<string> {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(kysely);
    const lines = rows.map((row) => JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).sort();
    return createHash('sha256').update(lines.join('\n')).digest('hex');
  }

  async #postgresTable(kysely: Kysely<any>, table: string): Promise<string> {
    const { rows } = await sql<{ digest: string | null }>`select md5(string_agg(r::text, E'\n' order by r::text)) as digest from ${sql.table(table)} r`.execute(kysely);
    return rows[0]?.digest ?? '';
  }
}

/** Names of the tables whose digests differ between two readings of `current()`. */
export function changedTables(before: string, after: string): string[] {
  const old = new Map(before.split('\n').map((l) => l.split(':') as [string, string]));
  return after.split('\n').map((l) => l.split(':') as [string, string]).filter(([t, d]) => old.get(t) !== d).map(([t]) => t);
}
