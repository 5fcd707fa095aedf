// What a table looks like on the database at hand, read from its catalog, and how a decoded archive value is fitted to
// a column of it (a boolean into a 0/1 integer on SQLite, a JSON document into a text column, bytes into bytea).
import type { DialectName } from '../db/dialect.ts';

/** Runs one SQL text and returns its rows (a snapshot's reader or a transaction). */
export type RunQuery = (text: string) => Promise<Array<Record<string, unknown>>>;

export interface TableShape {
  name: string;
  columns: Array<{ name: string; type: string }>;
  /** A full-text index table (FTS5 on SQLite, tsvector documents on PostgreSQL). */
  fullText: boolean;
  /** Columns filled from a sequence on PostgreSQL (moved past the imported ids afterwards). */
  serial: string[];
}

export const quoteId = (name: string): string => `"${name.replace(/"/g, '""')}"`;
export const quoteText = (value: string): string => `'${value.replace(/'/g, "''")}'`;

export async function describeTable(run: RunQuery, dialect: DialectName, table: string): Promise<TableShape> {
  if (dialect === 'sqlite') {
    const info = await run(`pragma table_info(${quoteId(table)})`);
    const master = await run(`select sql from sqlite_master where name = ${quoteText(table)}`);
    if (info.length === 0) throw new Error(`table ${table} does not exist`);
    return {
      name: table,
      columns: info.map((c) => ({ name: String(c.name), type: String(c.type).toLowerCase() })),
      fullText: /using\s+fts5/i.test(String(master[0]?.sql ?? '')),
      serial: [],
    };
  }
  const info = await run(
    `select column_name, data_type, column_default from information_schema.columns where table_schema = current_schema() and table_name = ${quoteText(table)} order by ordinal_position`,
  );
  if (info.length === 0) throw new Error(`table ${table} does not exist`);
  return {
    name: table,
    columns: info.map((c) => ({ name: String(c.column_name), type: String(c.data_type).toLowerCase() })),
    fullText: info.some((c) => c.data_type === 'tsvector'),
    serial: info.filter((c) => String(c.column_default ?? '').startsWith('nextval(')).map((c) => String(c.column_name)),
  };
}

const INTEGER_TYPES = /^(integer|int|int2|int4|int8|bigint|smallint|numeric|real|double precision)$/;

/** Fits a decoded value to a column type of the target database. */
export function fitValue(value: unknown, type: string, dialect: DialectName): unknown {
  if (value === null || value === undefined) return null;
  if (dialect === 'postgres' && type === 'boolean') return typeof value === 'string' ? value === 'true' || value === '1' : Boolean(value);
  if (typeof value === 'boolean') {
    if (INTEGER_TYPES.test(type) || dialect === 'sqlite') return value ? 1 : 0;
    return String(value);
  }
  if (Buffer.isBuffer(value)) return type === 'bytea' || type === 'blob' ? value : value.toString('base64');
  if (value instanceof Date) return INTEGER_TYPES.test(type) ? value.getTime() : value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}
