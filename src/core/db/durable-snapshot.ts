// Reads while a group commit holds the connection. A batch holds the one read-write connection from its BEGIN until
// its fsync has finished, and with steady writes that is nearly all the time: every read then queued behind the
// batch and its fsync. A second, read-only connection (in WAL mode readers never wait for the writer) opens a read
// transaction just before the batch begins, when everything committed is also durable, and keeps it until the batch
// is durable: reads in between see exactly what was acknowledged before the batch, never a write that is committed
// but not yet on disk.
import SQLite from 'better-sqlite3';
import type { DriverStatement } from './literal-rows.ts';

/** The statements of a connection, kept as the database keeps its own. */
export interface ConnectionStatements {
  prepare(sql: string): DriverStatement;
  /** Closes the connection too. */
  close(): void;
}

export class DurableSnapshot {
  /** Statements run on the snapshot while it is pinned. */
  readonly prepare: (sql: string) => DriverStatement;
  readonly #statements: ConnectionStatements;
  readonly #handle: SQLite.Database;
  readonly #begin: SQLite.Statement;
  readonly #touch: SQLite.Statement;
  readonly #end: SQLite.Statement;
  #pinned = false;

  constructor(path: string, statementsOf: (handle: SQLite.Database) => ConnectionStatements) {
    this.#handle = new SQLite(path, { readonly: true, fileMustExist: true });
    this.#statements = statementsOf(this.#handle);
    this.prepare = this.#statements.prepare;
    this.#begin = this.#handle.prepare('begin');
    // A deferred transaction takes its snapshot at its first read.
    this.#touch = this.#handle.prepare('select count(*) from sqlite_schema');
    this.#end = this.#handle.prepare('commit');
  }

  /** True from `pin` until the function it returned is called. */
  get pinned(): boolean {
    return this.#pinned;
  }

  /**
   * Takes the snapshot: call it while the writer is held and everything committed is durable. Returns what ends it.
   * If the snapshot cannot be taken, reads simply wait for the writer as before.
   */
  pin(): () => void {
    if (this.#pinned) return () => undefined;
    try {
      this.#begin.run();
      this.#touch.get();
    } catch {
      if (this.#handle.inTransaction) this.#end.run();
      return () => undefined;
    }
    this.#pinned = true;
    return () => {
      this.#pinned = false;
      this.#end.run();
    };
  }

  close(): void {
    this.#statements.close();
  }
}
