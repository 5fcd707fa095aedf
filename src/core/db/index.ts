// Opens the database named by a URL: a SQLite file path (default) or a postgres:// URL.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import pg from 'pg';
import type { DialectName } from './dialect.ts';

export interface Database {
  kysely: Kysely<any>;
  dialect: DialectName;
  /** The URL with any password removed, for logs and health. */
  describe: string;
  /** Runs one namespace's migrations (each service has its own table of applied migrations). */
  migrate(namespace: string, migrations: Record<string, Migration>): Promise<void>;
  /** Deletes every row of the named tables, in the order given. */
  clear(tables: string[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** SQLite durability: FULL (default) fsyncs every commit; NORMAL trades the last commits on power loss for speed. */
  synchronous?: 'FULL' | 'NORMAL';
}

export const isPostgresUrl = (url: string): boolean => /^postgres(ql)?:\/\//i.test(url);

export async function openDatabase(url: string, options: OpenOptions = {}): Promise<Database> {
  return isPostgresUrl(url) ? openPostgres(url) : openSqlite(url, options);
}

function openSqlite(path: string, options: OpenOptions): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const handle = new SQLite(path);
  handle.pragma('journal_mode = WAL');
  handle.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  handle.pragma('foreign_keys = ON');
  handle.pragma('busy_timeout = 5000');
  const kysely = new Kysely<any>({ dialect: new SqliteDialect({ database: handle }) });
  return wrap(kysely, 'sqlite', path, async () => {
    await kysely.destroy();
  });
}

async function openPostgres(rawUrl: string): Promise<Database> {
  // `?schema=name` selects (and creates) a schema: tests isolate themselves this way on one database.
  const url = new URL(rawUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const types = {
    getTypeParser(oid: number, format?: any) {
      // int8 and numeric as numbers: every bigint column holds epoch milliseconds or counts well within 2^53.
      if (oid === 20 || oid === 1700) return (v: string) => Number(v);
      return pg.types.getTypeParser(oid, format);
    },
  };
  const pool = new pg.Pool({
    connectionString: url.toString(),
    max: 10,
    types,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  const client = await pool.connect().catch((err: Error) => {
    void pool.end();
    throw new Error(`cannot reach PostgreSQL at ${redact(url)}: ${err.message}`);
  });
  try {
    if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } finally {
    client.release();
  }
  const kysely = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  return wrap(kysely, 'postgres', redact(url) + (schema ? ` (schema ${schema})` : ''), async () => {
    await kysely.destroy();
  }, schema ?? undefined);
}

function redact(url: URL): string {
  const copy = new URL(url.toString());
  if (copy.password) copy.password = '***';
  return copy.toString();
}

// `schema` pins the migration bookkeeping tables to the selected PostgreSQL schema: Kysely's existence check looks at
// every schema, so without it a `<ns>_migrations_lock` in another schema (a parallel test) is taken for ours.
function wrap(kysely: Kysely<any>, dialect: DialectName, describe: string, close: () => Promise<void>, schema?: string): Database {
  return {
    kysely,
    dialect,
    describe,
    async migrate(namespace, migrations) {
      const migrator = new Migrator({
        db: kysely,
        provider: { getMigrations: async () => migrations },
        migrationTableName: `${namespace}_migrations`,
        migrationLockTableName: `${namespace}_migrations_lock`,
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      const { error } = await migrator.migrateToLatest();
      if (error) throw new Error(`migrations of ${namespace} failed: ${(error as Error).message}`, { cause: error });
    },
    async clear(tables) {
      await kysely.transaction().execute(async (tx) => {
        for (const table of tables) await tx.deleteFrom(table).execute();
      });
    },
    async ping() {
      await sql`select 1`.execute(kysely);
    },
    close,
  };
}
