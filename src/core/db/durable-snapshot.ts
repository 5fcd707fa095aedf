// Reads while a group commit holds the connection. A batch holds the one read-write connection from its BEGIN until
// its fsync has finished, and with steady writes that is nearly all the time: every read then queued behind the
// batch and its fsync. A second, read-only connection (in WAL mode readers never wait for the writer) opens a read
// transaction just before the batch begins, when everything committed is also durable, and keeps it until the batch
// is durable: reads in between see exactly what was acknowledged before the batch, never a write that is committed
// but not yet on disk.
//
// The same read transaction also serves the reads of one turn of the event loop while nothing holds the writer (when
// everything committed is durable too): a statement outside a transaction takes and releases the log's read lock
// itself (two fcntl calls and an fstat, about half of a point read), while the reads of one turn then share one. Such
// a share ends at the end of the turn, and before any statement that writes runs on the writer's connection, so a
// read never misses a write that finished before it.
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
  /** Held from `pin` until the batch that pinned it is durable. */
  #batchPinned = false;
  /** Held for the rest of the current turn of the event loop (`readInTurn`). */
  #turnPinned = false;
  /** Direct reads of the current turn so far, while nothing held the writer. */
  #turnReads = 0;
  readonly #turnEnded = (): void => {
    this.#turnReads = 0;
    this.endTurn();
  };

  constructor(path: string, statementsOf: (handle: SQLite.Database) => ConnectionStatements) {
    this.#handle = new SQLite(path, { readonly: true, fileMustExist: true });
    this.#statements = statementsOf(this.#handle);
    this.prepare = this.#statements.prepare;
    this.#begin = this.#handle.prepare('begin');
    // A deferred transaction takes its snapshot at its first read.
    this.#touch = this.#handle.prepare('select count(*) from sqlite_schema');
    this.#end = this.#handle.prepare('commit');
  }

  /** True while a batch or the current turn holds the snapshot. */
  get pinned(): boolean {
    return this.#batchPinned || this.#turnPinned;
  }

  /**
   * Takes the snapshot for a batch: call it while the writer is held and everything committed is durable. Returns
   * what ends it. A snapshot the current turn already holds is shared: nothing has been written since it was taken.
   * If the snapshot cannot be taken, reads simply wait for the writer as before.
   */
  pin(): () => void {
    if (this.#batchPinned || (!this.#turnPinned && !this.#take())) return () => undefined;
    this.#batchPinned = true;
    return () => {
      this.#batchPinned = false;
      this.#releaseIfUnused();
    };
  }

  /**
   * Called for each direct read made while nothing holds the writer: from the second of a turn on, the reads share
   * the snapshot until the turn ends; a lone read (an idle service's) runs outside any transaction as before, sparing
   * it the BEGIN, the snapshot's first read and the COMMIT. True when the read is to run on the snapshot.
   */
  readInTurn(): boolean {
    if (this.#turnPinned) return true;
    if (this.#turnReads++ === 0) {
      setImmediate(this.#turnEnded);
      return false;
    }
    if (!this.#batchPinned && !this.#take()) return false;
    this.#turnPinned = true;
    return true;
  }

  /** Ends the current turn's share (a statement that writes is about to run on the writer's connection). */
  endTurn(): void {
    if (!this.#turnPinned) return;
    this.#turnPinned = false;
    this.#releaseIfUnused();
  }

  /** Begins the read transaction and takes its snapshot now; false when it cannot be taken. */
  #take(): boolean {
    try {
      this.#begin.run();
      this.#touch.get();
      return true;
    } catch {
      if (this.#handle.inTransaction) this.#end.run();
      return false;
    }
  }

  #releaseIfUnused(): void {
    if (!this.pinned && this.#handle.inTransaction) this.#end.run();
  }

  close(): void {
    this.#statements.close();
  }
}
