// Point reads run straight on the SQLite connection when nothing holds it. Through Kysely a compiled query still
// passes its executor, the connection's mutex and two promise turns before better-sqlite3 answers synchronously:
// about as long as SQLite takes to run a point query. When no one holds the connection (no group commit's batch, which
// keeps it from BEGIN until its fsync, and no other transaction) a read cannot see anything uncommitted or not yet
// durable, so it may run at once.
import type { Driver, Kysely, QueryResult } from 'kysely';
import type { DriverStatement } from './literal-rows.ts';
import { insideUnitOfWork } from './group-commit.ts';

type DirectReader = (sql: string, parameters: readonly unknown[]) => Promise<QueryResult<any>> | undefined;

const readers = new WeakMap<object, DirectReader>();

/**
 * The result of `sql` run at once on `db`'s connection, or undefined when it must go through Kysely: `db` is not a
 * SQLite database's own Kysely (a transaction, PostgreSQL), the connection is held, or the statement writes.
 */
export function directRead<R>(db: Kysely<any>, sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> | undefined {
  return readers.get(db)?.(sql, parameters);
}

/**
 * Tracks whether `driver`'s one connection is held or asked for, from the request to acquire it to its release: a
 * read that finds anyone waiting goes through Kysely and queues behind them.
 */
export class ConnectionHolding {
  #claims = 0;

  get held(): boolean {
    return this.#claims > 0;
  }

  track(driver: Driver): Driver {
    const acquire = driver.acquireConnection.bind(driver);
    const release = driver.releaseConnection.bind(driver);
    // Counted when asked rather than when granted: no extra promise turn on every query that goes through Kysely.
    driver.acquireConnection = () => {
      this.#claims += 1;
      return acquire();
    };
    driver.releaseConnection = (connection) => {
      this.#claims -= 1;
      return release(connection);
    };
    return driver;
  }
}

/**
 * Lets `directRead` run reads of `kysely` (a SQLite database's own instance) on `prepare`'s statements while
 * `holding` says the connection is free and `inTransaction` says no transaction is open on it.
 */
export function allowDirectReads(
  kysely: Kysely<any>,
  holding: ConnectionHolding,
  connection: { readonly inTransaction: boolean },
  prepare: (sql: string) => DriverStatement,
): void {
  readers.set(kysely, (sql, parameters) => {
    // Inside a unit of work the query must fail as it would through Kysely (NestedWriteError), not run; an open
    // transaction is checked too, though every one today is begun on a held connection.
    if (holding.held || connection.inTransaction || insideUnitOfWork.getStore()) return undefined;
    const stmt = prepare(sql);
    // A statement that writes (`insert ... returning` reads rows too) goes the way every write goes.
    if (!stmt.reader || !stmt.readonly) return undefined;
    try {
      return Promise.resolve({ rows: stmt.all(parameters) as any[] });
    } catch (err) {
      return Promise.reject(err);
    }
  });
}
