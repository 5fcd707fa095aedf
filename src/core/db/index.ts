// Opens the database named by a URL: a SQLite file path (default) or a postgres:// URL.
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Compilable, type CompiledQuery, type Driver, type Migration, type QueryResult, type SqliteDialectConfig } from 'kysely';
import pg from 'pg';
import { boundedCache, type CacheBudget } from '../cache.ts';
import type { DialectName } from './dialect.ts';
import { EmptyListPostgresCompiler } from './empty-list-compiler.ts';
import { LiteralLimitSqliteCompiler } from './literal-limit-compiler.ts';
import { GroupCommitter, NestedWriteError, insideUnitOfWork, type UnitOfWork } from './group-commit.ts';
import { SqliteReadPool } from './read-pool.ts';
import { runCompiled } from './prepared.ts';
import { WalSync } from './wal-sync.ts';
import { withLiteralRows, type DriverStatement } from './literal-rows.ts';
import { BACKSTOP_PAGES, WalCheckpointer } from './checkpointer.ts';
import { ConnectionHolding, allowDirectReads, allowDirectUnits } from './direct-statements.ts';
import { DurableSnapshot } from './durable-snapshot.ts';

export { NestedWriteError, type UnitOfWork } from './group-commit.ts';

export interface Database {
  kysely: Kysely<any>;
  dialect: DialectName;
  /**
   * The durable write path: runs `fn` as one unit of work on the transaction it is handed and resolves only once that
   * work is committed. On SQLite, units that arrive together share one commit (one fsync), each in its own savepoint;
   * on PostgreSQL each is a transaction from the pool. Inside `fn` use only `tx`: a query on `kysely` (or a nested
   * `write`) would wait for the very transaction it runs in, and is refused with NestedWriteError. On PostgreSQL a
   * unit that the database rolled back to resolve a deadlock is run again (up to five times), so `fn` must keep its
   * effects inside `tx`.
   */
  write<T>(fn: UnitOfWork<T>): Promise<T>;
  /**
   * One statement that is a unit of work of its own, with `write`'s guarantees. On PostgreSQL it runs alone on the
   * pool, where one statement is atomic without a transaction: no BEGIN and COMMIT round trips, and the row locks it
   * takes are held for that statement only. On SQLite it is a unit of the group commit like any other.
   */
  writeStatement<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
  /**
   * Runs a read-only query off the event loop (SQLite: a worker thread with its own read connection; PostgreSQL: the
   * pool). For long reads (aggregations, searches, scans) so that one heavy request never stalls other services.
   * It sees committed data only.
   */
  heavyRead<R>(query: Compilable<R>): Promise<R[]>;
  /** V8 heap of each running read worker (SQLite), in bytes: memory outside the main thread's heap, for the soak. */
  readerHeaps(): Promise<Array<{ used: number; total: number }>>;
  /**
   * Copies the SQLite write-ahead log into the database file now, off the event loop (it also happens by itself a
   * moment after writes). PostgreSQL: nothing to do.
   */
  checkpoint(): Promise<void>;
  /** Units of work committed and the commits that carried them (units / commits is the batching achieved). */
  writeStats(): { commits: number; units: number };
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
  /** Budget of kept prepared statements (SQLite), counted by their SQL text (`caches.statements`). */
  statementCache?: CacheBudget;
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
  // FULL durability without FULL's fsync inside COMMIT (which blocks the event loop of every service): group commits
  // run with NORMAL and the committer fsyncs the WAL on the thread pool before any caller is answered.
  const fsyncOffLoop = (options.synchronous ?? 'FULL') === 'FULL' && path !== ':memory:';
  handle.pragma('foreign_keys = ON');
  handle.pragma('busy_timeout = 5000');
  // A group commit runs each unit in a savepoint, whose journal spills to a temporary file past 64 KiB with the
  // default temp_store: a write touching a few indexes then paid a pwrite per page it changed.
  handle.pragma('temp_store = MEMORY');
  // The log's checkpoints (a copy and two fsyncs) run on a worker thread; the connection's own is only a backstop.
  const checkpointer = path === ':memory:' ? undefined : new WalCheckpointer(path);
  if (checkpointer) handle.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const statementBudget = options.statementCache ?? DEFAULT_STATEMENT_CACHE_BUDGET;
  // An in-memory database is private to its connection: no second connection can read it.
  const snapshot = path === ':memory:' ? undefined : new DurableSnapshot(path, (reader) => withStatementCache(reader, statementBudget));
  // A turn's shared snapshot ends before anything is written: the reads after a write see it.
  const statements = withStatementCache(handle, statementBudget, snapshot && (() => snapshot.endTurn()));
  const holding = new ConnectionHolding();
  const kysely = new Kysely<any>({ dialect: new GuardedSqliteDialect({ database: statements }, holding) });
  allowDirectReads(kysely, holding, handle, statements.prepare, snapshot);
  const wal = fsyncOffLoop ? new WalSync(`${path}-wal`) : undefined;
  const committer = new GroupCommitter(kysely, {
    makeDurable: wal && (() => wal.sync()),
    whileHeld: checkpointer && (() => checkpointer.checkpointIfDue()),
    runUnitsDirectly: (batch) => allowDirectUnits(batch, statements.prepare),
    whileBatchRuns: snapshot && (() => snapshot.pin()),
  });
  // An in-memory database is private to its connection: its long reads stay on the main thread.
  const readers = path === ':memory:' ? undefined : new SqliteReadPool(path);
  return wrap(kysely, 'sqlite', path, {
    write: (fn) => committer.write(fn),
    writeStatement: (query) => committer.write((tx) => runCompiled(tx, query)),
    checkpoint: async () => {
      await checkpointer?.checkpoint();
    },
    writeStats: () => committer.stats(),
    heavyRead: async (query) => (readers ? readers.run(query.compile()) : (await kysely.executeQuery(query.compile())).rows),
    readerHeaps: async () => (readers ? readers.heapStatistics() : []),
    close: async () => {
      await committer.idle();
      await checkpointer?.close();
      await wal?.close();
      await readers?.close();
      snapshot?.close();
      await kysely.destroy();
    },
  });
}

/** Default budget of kept prepared statements: generated multi-row inserts make some SQL texts long. */
export const DEFAULT_STATEMENT_CACHE_BUDGET: CacheBudget = { entries: 1_000, bytes: 16 * 1024 * 1024 };

// Kysely prepares every query it runs; hot paths repeat the same few hundred SQL texts, so keep their prepared
// statements (better-sqlite3 statements are reusable; queries here are never streamed, so none is busy when reused).
function withStatementCache(handle: SQLite.Database, budget: CacheBudget, beforeWrite?: () => void) {
  // A statement's own memory grows with its SQL text, so the text's size stands for the entry's.
  const kept = boundedCache<string, DriverStatement>(budget, (_stmt, text) => text.length * 2);
  return {
    /** The statement of `text`; `beforeWrite` is called first when it writes (each statement is run once prepared). */
    prepare(text: string) {
      let stmt = kept.get(text);
      if (!stmt) {
        stmt = withLiteralRows(handle.prepare(text));
        kept.set(text, stmt);
      }
      if (!stmt.readonly) beforeWrite?.();
      return stmt;
    },
    close() {
      kept.clear();
      handle.close();
    },
  };
}

// The single SQLite connection is held by the open group-commit transaction while units run; a unit that queried
// through the database instead of its transaction would wait for itself. Refuse that at once instead of hanging, and
// on PostgreSQL too, so that code tested on one database behaves alike on the other.
function guard(driver: Driver): Driver {
  const acquire = driver.acquireConnection.bind(driver);
  driver.acquireConnection = () => {
    if (insideUnitOfWork.getStore()) return Promise.reject(new NestedWriteError('a query outside the transaction'));
    return acquire();
  };
  return driver;
}

class GuardedSqliteDialect extends SqliteDialect {
  readonly #holding: ConnectionHolding;

  constructor(config: SqliteDialectConfig, holding: ConnectionHolding) {
    super(config);
    this.#holding = holding;
  }

  override createDriver() {
    return guard(this.#holding.track(super.createDriver()));
  }

  override createQueryCompiler() {
    return new LiteralLimitSqliteCompiler();
  }
}

class GuardedPostgresDialect extends PostgresDialect {
  override createDriver() {
    return guard(super.createDriver());
  }

  override createQueryCompiler() {
    return new EmptyListPostgresCompiler();
  }
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
  // JIT compilation pays off for long analytical queries; here its planning cost (hundreds of ms when the planner
  // prices a per-row access check highly) dwarfs the short queries every request runs.
  const options = `-c jit=off${schema ? ` -c search_path=${schema}` : ''}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10, types, options });
  // Long reads have connections of their own: sharing the pool, twenty bidMetrics requests held all ten connections
  // and a KV read waited for one behind them (21 req/s). Read-only, as the SQLite readers are.
  const heavyPool = new pg.Pool({
    connectionString: url.toString(),
    max: HEAVY_READ_CONNECTIONS,
    types,
    options: `${options} -c default_transaction_read_only=on`,
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
  const kysely = new Kysely<any>({ dialect: new GuardedPostgresDialect({ pool }) });
  let written = 0;
  return wrap(
    kysely,
    'postgres',
    redact(url) + (schema ? ` (schema ${schema})` : ''),
    {
      write: async (fn) => {
        if (insideUnitOfWork.getStore()) throw new NestedWriteError('db.write()');
        const value = await withRetriedConflicts(() => kysely.transaction().execute((tx) => insideUnitOfWork.run(() => fn(tx))));
        written++;
        return value;
      },
      writeStatement: async (query) => {
        if (insideUnitOfWork.getStore()) throw new NestedWriteError('db.writeStatement()');
        const result = await withRetriedConflicts(() => kysely.executeQuery(query));
        written++;
        return result;
      },
      heavyRead: async (query) => {
        const compiled = query.compile();
        return (await heavyPool.query(compiled.sql, compiled.parameters as unknown[])).rows;
      },
      readerHeaps: async () => [],
      checkpoint: async () => undefined,
      writeStats: () => ({ commits: written, units: written }),
      close: async () => {
        await heavyPool.end();
        await kysely.destroy();
      },
    },
    schema ?? undefined,
  );
}

/**
 * PostgreSQL's answers when it rolled a transaction back to resolve a conflict with another one: a deadlock (two
 * units locking the same rows in opposite orders, as users inviting each other at once do) and a serialization
 * failure. The unit did nothing, so it is run again, after a pause of random length that grows with each attempt.
 */
const CONFLICT_CODES = new Set(['40P01', '40001']);
const UNIT_ATTEMPTS = 5;

async function withRetriedConflicts<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= UNIT_ATTEMPTS || !CONFLICT_CODES.has((error as { code?: string }).code ?? '')) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 4 * attempt));
    }
  }
}

/** Connections for long reads on PostgreSQL: as many as the SQLite readers (one per core but one, at least two). */
const HEAVY_READ_CONNECTIONS = Math.max(2, availableParallelism() - 1);

function redact(url: URL): string {
  const copy = new URL(url.toString());
  if (copy.password) copy.password = '***';
  return copy.toString();
}

// `schema` pins the migration bookkeeping tables to the selected PostgreSQL schema: Kysely's existence check looks at
// every schema, so without it a `<ns>_migrations_lock` in another schema (a parallel test) is taken for ours.
type Paths = Pick<Database, 'write' | 'writeStatement' | 'heavyRead' | 'readerHeaps' | 'writeStats' | 'close' | 'checkpoint'>;

/**
 * Errors of a migration run that read the catalog while another client changed it: 3F000 (a schema dropped under the
 * check), 42P01 and 42703 (a bookkeeping table of the same name in another schema, created or dropped meanwhile, taken
 * for ours). A migration run is transactional on PostgreSQL, so it is simply run again.
 */
const RACED_CATALOG = new Set(['3F000', '42P01', '42703']);

function wrap(kysely: Kysely<any>, dialect: DialectName, describe: string, paths: Paths, schema?: string): Database {
  return {
    kysely,
    dialect,
    describe,
    ...paths,
    async migrate(namespace, migrations) {
      const migrator = new Migrator({
        db: kysely,
        provider: { getMigrations: async () => migrations },
        migrationTableName: `${namespace}_migrations`,
        migrationLockTableName: `${namespace}_migrations_lock`,
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      // Kysely's existence checks read the catalog of every schema (has_schema_privilege on each): a schema dropped
      // meanwhile by another client fails the check with 3F000 "schema ... does not exist". Applied migrations are
      // recorded in the same transaction as their DDL, so running again is safe.
      for (let attempt = 1; ; attempt++) {
        const { error } = await migrator.migrateToLatest();
        if (!error) return;
        if (dialect === 'postgres' && RACED_CATALOG.has((error as { code?: string }).code ?? '') && attempt < 5) continue;
        throw new Error(`migrations of ${namespace} failed: ${(error as Error).message}`, { cause: error });
      }
    },
    async clear(tables) {
      await kysely.transaction().execute(async (tx) => {
        for (const table of tables) await tx.deleteFrom(table).execute();
      });
    },
    async ping() {
      await sql`select 1`.execute(kysely);
    },
  };
}
