// Every difference between SQLite and PostgreSQL that services meet lives here.
import { PostgresAdapter, SqliteAdapter, type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<any>): DialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  if (adapter instanceof PostgresAdapter) return 'postgres';
  throw new Error('unsupported database adapter');
}

/**
 * Column types for migrations. Conventions: times are epoch milliseconds in `bigint` columns, JSON documents are
 * text, booleans are 0/1 integers (the same on both databases, so rows read back identically).
 */
export function columnTypes(db: Kysely<any>) {
  const pg = dialectOf(db) === 'postgres';
  return {
    bigint: 'bigint' as const,
    json: 'text' as const,
    bytes: (pg ? 'bytea' : 'blob') as 'blob',
    bool: 'integer' as const,
    text: 'text' as const,
    real: (pg ? 'double precision' : 'real') as 'real',
  };
}

/** Adds an auto-incrementing integer primary key named `name`. */
export function withAutoId<T extends string>(db: Kysely<any>, table: CreateTableBuilder<T, any>, name = 'id') {
  return dialectOf(db) === 'postgres'
    ? table.addColumn(name, 'bigserial', (c: ColumnDefinitionBuilder) => c.primaryKey())
    : table.addColumn(name, 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement());
}

/** True for a unique or primary-key violation raised by either driver. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
