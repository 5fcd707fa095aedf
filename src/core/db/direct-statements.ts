// Prepared statements run straight on the SQLite connection when nothing else can be using it. Through Kysely a
// compiled query still passes its executor, the connection's mutex and two promise turns before better-sqlite3
// answers synchronously: about as long as SQLite takes to run a point query or a one-row insert.
// - A read on the database runs at once when no one holds the connection (no group commit's batch, which keeps it
//   from BEGIN until its fsync, and no other transaction): it cannot see anything uncommitted or not yet durable.
//   While a batch holds it, a read runs at once on the batch's snapshot of what is durable (durable-snapshot.ts).
// - Any statement of a unit of work runs at once on the batch's connection: while the batch runs a unit, the
//   connection is that unit's alone (units run one after another, each in its savepoint).
import type { Driver, Kysely, QueryResult } from 'kysely';
import type { DriverStatement } from './literal-rows.ts';
import { insideUnitOfWork } from './group-commit.ts';

type DirectRunner = (sql: string, parameters: readonly unknown[]) => Promise<QueryResult<any>> | undefined;
type Prepare = (sql: string) => DriverStatement;

const runners = new WeakMap<object, DirectRunner>();

/**
 * The result of `sql` run at once on `db`'s connection, or undefined when it must go through Kysely: `db` is neither
 * a SQLite database's own Kysely nor a group-commit batch's connection, the connection is held, or (on the database
 * itself) the statement writes.
 */
export function directStatement<R>(db: Kysely<any>, sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> | undefined {
  return runners.get(db)?.(sql, parameters);
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

/** Runs `stmt` as Kysely's SQLite driver would, its result (or error) in a settled promise. */
function runNow(stmt: DriverStatement, parameters: readonly unknown[]): Promise<QueryResult<any>> {
  try {
    if (stmt.reader) return Promise.resolve({ rows: stmt.all(parameters) as any[] });
    const { changes, lastInsertRowid } = stmt.run(parameters);
    return Promise.resolve({ numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] });
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * Lets `directStatement` run reads of `kysely` (a SQLite database's own instance) on `prepare`'s statements while
 * `holding` says the connection is free and `inTransaction` says no transaction is open on it.
 */
export function allowDirectReads(
  kysely: Kysely<any>,
  holding: ConnectionHolding,
  connection: { readonly inTransaction: boolean },
  prepare: Prepare,
  snapshot?: { readonly pinned: boolean; prepare: Prepare; readInTurn(): boolean },
): void {
  runners.set(kysely, (sql, parameters) => {
    // Inside a unit of work the query must fail as it would through Kysely (NestedWriteError), not run.
    if (insideUnitOfWork.getStore()) return undefined;
    // While a group commit holds the connection, its snapshot of what is durable answers (durable-snapshot.ts); an
    // open transaction is checked too, though every one today is begun on a held connection. While nothing holds it,
    // the reads of one turn share the snapshot too (everything committed is durable then).
    const held = holding.held || connection.inTransaction;
    if (held && !snapshot?.pinned) return undefined;
    const onSnapshot = held || (snapshot !== undefined && snapshot.readInTurn());
    const stmt = (onSnapshot ? snapshot!.prepare : prepare)(sql);
    // A statement that writes (`insert ... returning` reads rows too) goes the way every write goes.
    if (!stmt.reader || !stmt.readonly) return undefined;
    return runNow(stmt, parameters);
  });
}

/**
 * Lets `directStatement` run every statement on `batch`, a group-commit batch's connection, until the returned
 * function is called (when the batch has committed or rolled back).
 */
export function allowDirectUnits(batch: Kysely<any>, prepare: Prepare): () => void {
  runners.set(batch, (sql, parameters) => runNow(prepare(sql), parameters));
  return () => runners.delete(batch);
}
