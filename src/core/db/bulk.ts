// Multi-row INSERT and additive UPSERT for bulk loads. Raw SQL compiled once per chunk shape: the query builder's
// per-row compilation costs more than the database work when hundreds of thousands of rows arrive per second.
// On PostgreSQL each column travels as one array parameter expanded by unnest(), which parses far faster than
// thousands of scalar parameters.
import { CompiledQuery, type Kysely } from 'kysely';
import { dialectOf } from './dialect.ts';

/** Parameters per statement: below SQLite's 32766 and PostgreSQL's 65535 limits. */
const MAX_PARAMS = 30_000;

export interface BulkOptions {
  /** PostgreSQL type of each column (e.g. `bigint`, `text`, `integer`); enables the unnest() form on PostgreSQL. */
  pgTypes?: string[];
  /**
   * Turns the insert into an upsert: on a conflict of `keys`, each column of `add` becomes its stored value plus the
   * new one (counters). Rows in one call must not repeat a key (PostgreSQL refuses to touch a row twice).
   */
  upsertAdd?: { keys: string[]; add: string[] };
}

/** Inserts `rows` (values in `columns` order) into `table`, chunked to respect parameter limits. */
export async function bulkInsert(db: Kysely<any>, table: string, columns: string[], rows: unknown[][], options: BulkOptions = {}): Promise<void> {
  if (rows.length === 0) return;
  const pg = dialectOf(db) === 'postgres';
  if (pg && options.pgTypes) {
    await unnestInsert(db, table, columns, rows, options.pgTypes, options);
    return;
  }
  const perChunk = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const statements = new Map<number, string>();
  for (let offset = 0; offset < rows.length; offset += perChunk) {
    const chunk = rows.slice(offset, offset + perChunk);
    let text = statements.get(chunk.length);
    if (!text) {
      text = insertText(table, columns, chunk.length, pg, options);
      statements.set(chunk.length, text);
    }
    const params: unknown[] = new Array(chunk.length * columns.length);
    let i = 0;
    for (const row of chunk) for (const value of row) params[i++] = value;
    await db.executeQuery(CompiledQuery.raw(text, params));
  }
}

const UNNEST_CHUNK = 50_000;

async function unnestInsert(db: Kysely<any>, table: string, columns: string[], rows: unknown[][], types: string[], options: BulkOptions): Promise<void> {
  if (types.length !== columns.length) throw new Error(`bulkInsert: ${columns.length} columns but ${types.length} pgTypes`);
  const arrays = types.map((t, i) => `$${i + 1}::${t}[]`).join(',');
  let text = `insert into ${quote(table)} (${columns.map(quote).join(',')}) select * from unnest(${arrays})`;
  text += conflictClause(table, options);
  for (let offset = 0; offset < rows.length; offset += UNNEST_CHUNK) {
    const chunk = rows.slice(offset, offset + UNNEST_CHUNK);
    const params = columns.map((_, c) => chunk.map((row) => row[c]));
    await db.executeQuery(CompiledQuery.raw(text, params));
  }
}

const quote = (name: string) => `"${name}"`;

function conflictClause(table: string, options: BulkOptions): string {
  if (!options.upsertAdd) return '';
  const { keys, add } = options.upsertAdd;
  const sets = add.map((c) => `${quote(c)} = ${quote(table)}.${quote(c)} + excluded.${quote(c)}`);
  return ` on conflict (${keys.map(quote).join(',')}) do update set ${sets.join(', ')}`;
}

function insertText(table: string, columns: string[], count: number, pg: boolean, options: BulkOptions): string {
  const tuples: string[] = new Array(count);
  let n = 0;
  for (let r = 0; r < count; r++) {
    const marks = columns.map(() => (pg ? `$${++n}` : '?'));
    tuples[r] = `(${marks.join(',')})`;
  }
  return `insert into ${quote(table)} (${columns.map(quote).join(',')}) values ${tuples.join(',')}${conflictClause(table, options)}`;
}
