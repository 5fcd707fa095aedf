// Group commit: the durable write path of every service. On SQLite, units of work that arrive together share one
// transaction and therefore one fsync; each runs in a savepoint of its own, so a unit that throws rolls back only its
// own changes and its caller gets its own error. A caller's promise settles only after the commit that carries its
// work is durable, so an HTTP answer is never sent before its write is on disk. The fsync itself runs off the event
// loop (makeDurable) while the batch still holds the connection: every service keeps serving meanwhile, and no query
// on the connection sees the batch before it is durable.
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { releaseHeldWrites } from '../coalesced-writes.ts';
import { directStatement } from './direct-statements.ts';

export type UnitOfWork<T> = (tx: Transaction<any>) => Promise<T>;

interface Pending {
  fn: UnitOfWork<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Set while a unit of work runs: a query that bypasses its transaction would wait for that same transaction. On Node
 * 20 an AsyncLocalStorage in use installs promise hooks that tax every promise of the process (about a tenth of a hot
 * read's time), so the check is on where programming errors are looked for: under the test runner (which sets
 * NODE_TEST_CONTEXT) or with TWINSTACK_CHECK_NESTED_WRITES=1.
 */
const nestedWritesChecked = process.env.NODE_TEST_CONTEXT !== undefined || process.env.TWINSTACK_CHECK_NESTED_WRITES === '1';
const unitContext = new AsyncLocalStorage<true>();

export const insideUnitOfWork = {
  getStore: (): true | undefined => (nestedWritesChecked ? unitContext.getStore() : undefined),
  run: <R>(fn: () => R): R => (nestedWritesChecked ? unitContext.run(true, fn) : fn()),
};

export class NestedWriteError extends Error {
  constructor(what: string) {
    super(`${what} inside db.write(): use the transaction handed to the unit of work (it would wait for itself)`);
  }
}

/** Most units folded into one commit: bounds the latency the first of them waits for the last. */
const MAX_BATCH = 512;
/**
 * Most time a batch's units run before it commits: they run back to back on the event loop, and 1,280 catalog
 * entries of twenty batch requests once made one batch that held every service for over 100 ms. The units left
 * wait for the next batch, after the event loop has gone round.
 */
export const BATCH_BUDGET_MS = 4;

export interface GroupCommitOptions {
  /**
   * Makes what the last commit wrote durable: a batch then commits with synchronous=NORMAL (no fsync inside COMMIT)
   * and this fsyncs the WAL on the thread pool. Absent, a commit is taken as durable when it returns (the
   * connection's own setting: FULL fsyncs inside COMMIT, blocking the event loop; NORMAL traded durability away).
   */
  makeDurable?: () => Promise<void>;
  /**
   * Runs after each batch is durable and its callers are answered, while the batch still holds the connection, so
   * that no query of the process writes to the log meanwhile: the log's checkpoint. It must not throw.
   */
  whileHeld?: () => Promise<void>;
  /**
   * Lets the statements of units run straight on the batch's connection (SQLite), from the batch's BEGIN until it
   * has committed or rolled back; returns what ends that.
   */
  runUnitsDirectly?: (batch: Kysely<any>) => () => void;
  /**
   * Called once the batch holds the connection, before its BEGIN (everything committed is durable then); what it
   * returns is called once the batch is durable or has failed. The durable snapshot of reads uses it.
   */
  whileBatchRuns?: () => () => void;
}

/** `query` on the batch's connection: at once when the connection allows it, else through Kysely. */
const execute = (conn: Kysely<any>, query: CompiledQuery): Promise<unknown> => directStatement(conn, query.sql, []) ?? conn.executeQuery(query);

// The statements around units, compiled once: they run for every unit of every batch.
const BEGIN = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to unit');
// Writes outside the group-commit path (migrations, loads) keep the connection's FULL setting.
const RELAXED_SYNC = CompiledQuery.raw('pragma synchronous = NORMAL');
const FULL_SYNC = CompiledQuery.raw('pragma synchronous = FULL');

export class GroupCommitter {
  readonly #kysely: Kysely<any>;
  readonly #makeDurable: (() => Promise<void>) | undefined;
  readonly #whileHeld: (() => Promise<void>) | undefined;
  readonly #runUnitsDirectly: ((batch: Kysely<any>) => () => void) | undefined;
  readonly #whileBatchRuns: (() => () => void) | undefined;
  #queue: Pending[] = [];
  #draining = false;
  #batches = 0;
  #units = 0;

  constructor(kysely: Kysely<any>, options: GroupCommitOptions = {}) {
    this.#kysely = kysely;
    this.#makeDurable = options.makeDurable;
    this.#whileHeld = options.whileHeld;
    this.#runUnitsDirectly = options.runUnitsDirectly;
    this.#whileBatchRuns = options.whileBatchRuns;
  }

  write<T>(fn: UnitOfWork<T>): Promise<T> {
    if (insideUnitOfWork.getStore()) return Promise.reject(new NestedWriteError('db.write()'));
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ fn: fn as UnitOfWork<unknown>, resolve: resolve as (v: unknown) => void, reject });
      if (!this.#draining) void this.#drain();
    });
  }

  /** Commits and units so far (for tests and the bench: units / commits is the batching achieved). */
  stats(): { commits: number; units: number } {
    return { commits: this.#batches, units: this.#units };
  }

  /** Resolves when nothing is queued or being committed. */
  async idle(): Promise<void> {
    while (this.#draining || this.#queue.length > 0) await new Promise((r) => setImmediate(r));
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      while (this.#queue.length > 0) await this.#commitBatch();
    } finally {
      this.#draining = false;
    }
  }

  async #commitBatch(): Promise<void> {
    // better-sqlite3 answers synchronously, so a batch would otherwise run to its commit before the event loop reads
    // the requests that arrived meanwhile: yield once (setImmediate runs after pending I/O) so they join this batch.
    await new Promise((resolve) => setImmediate(resolve));
    // The last batch's answers may still be held for the end of this turn: send them before this batch's units run.
    releaseHeldWrites();
    const batch: Pending[] = [];
    const outcomes: Outcome[] = [];
    try {
      // One connection held from BEGIN to durability: other queries of the process wait for it, as they would for an
      // fsync inside COMMIT, but the event loop does not.
      await this.#kysely.connection().execute(async (conn) => {
        const endBatch = this.#whileBatchRuns?.();
        try {
          await this.#runBatch(conn, batch, outcomes);
        } finally {
          endBatch?.();
        }
        this.#settle(batch, outcomes);
        await this.#whileHeld?.();
      });
    } catch (error) {
      // BEGIN, the commit or the fsync failed (disk full, I/O error): nothing in the batch is known to be durable.
      for (const p of batch.length > 0 ? batch : this.#queue.splice(0, MAX_BATCH)) p.reject(error);
    }
  }

  /** Runs the queued units that fit in one transaction on `conn`, commits it and makes it durable. */
  async #runBatch(conn: Kysely<any>, batch: Pending[], outcomes: Outcome[]): Promise<void> {
    const endDirect = this.#runUnitsDirectly?.(conn);
    try {
      if (this.#makeDurable) await execute(conn, RELAXED_SYNC);
      try {
        await execute(conn, BEGIN);
        try {
          // Units that arrive while earlier ones run join this batch, up to MAX_BATCH and BATCH_BUDGET_MS.
          const started = performance.now();
          while (this.#queue.length > 0 && batch.length < MAX_BATCH && performance.now() - started < BATCH_BUDGET_MS) {
            const pending = this.#queue.shift()!;
            batch.push(pending);
            outcomes.push(await runInSavepoint(conn, pending.fn));
          }
          await execute(conn, COMMIT);
        } catch (error) {
          await execute(conn, ROLLBACK).catch(() => undefined);
          throw error;
        }
      } finally {
        if (this.#makeDurable) await execute(conn, FULL_SYNC);
      }
    } finally {
      endDirect?.();
    }
    await this.#makeDurable?.();
  }

  /** Answers the batch's callers: each gets its own unit's value or error. */
  #settle(batch: Pending[], outcomes: Outcome[]): void {
    this.#batches += 1;
    this.#units += batch.length;
    batch.forEach((p, i) => {
      const o = outcomes[i];
      if (o.ok) p.resolve(o.value);
      else p.reject(o.error);
    });
  }
}

/** Runs one unit in a savepoint of the batch's transaction: its failure undoes its own writes only. */
async function runInSavepoint(conn: Kysely<any>, fn: UnitOfWork<unknown>): Promise<Outcome> {
  await execute(conn, SAVEPOINT);
  try {
    // The unit sees a Kysely bound to the batch's connection, inside its transaction.
    const value = await insideUnitOfWork.run(() => fn(conn as Transaction<any>));
    await execute(conn, RELEASE);
    return { ok: true, value };
  } catch (error) {
    await execute(conn, ROLLBACK_TO);
    await execute(conn, RELEASE);
    return { ok: false, error };
  }
}
