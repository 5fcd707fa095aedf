// Group commit: the durable write path of every service. On SQLite, units of work that arrive together share one
// transaction and therefore one fsync; each runs in a savepoint of its own, so a unit that throws rolls back only its
// own changes and its caller gets its own error. A caller's promise settles only after the commit that carries its
// work, so an HTTP answer is never sent before its write is durable.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely, Transaction } from 'kysely';

export type UnitOfWork<T> = (tx: Transaction<any>) => Promise<T>;

interface Pending {
  fn: UnitOfWork<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Set while a unit of work runs: a query that bypasses its transaction would wait for that same transaction. */
export const insideUnitOfWork = new AsyncLocalStorage<true>();

export class NestedWriteError extends Error {
  constructor(what: string) {
    super(`${what} inside db.write(): use the transaction handed to the unit of work (it would wait for itself)`);
  }
}

/** Most units folded into one commit: bounds the latency the first of them waits for the last. */
const MAX_BATCH = 512;

export class GroupCommitter {
  readonly #kysely: Kysely<any>;
  #queue: Pending[] = [];
  #draining = false;
  #batches = 0;
  #units = 0;

  constructor(kysely: Kysely<any>) {
    this.#kysely = kysely;
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
    const batch: Pending[] = [];
    const outcomes: Outcome[] = [];
    let trx;
    try {
      trx = await this.#kysely.startTransaction().execute();
    } catch (error) {
      for (const p of this.#queue.splice(0, MAX_BATCH)) p.reject(error);
      return;
    }
    try {
      // Units that arrive while earlier ones run join this batch, up to MAX_BATCH.
      while (this.#queue.length > 0 && batch.length < MAX_BATCH) {
        const pending = this.#queue.shift()!;
        batch.push(pending);
        outcomes.push(await runInSavepoint(trx, pending.fn));
      }
      await trx.commit().execute();
    } catch (error) {
      // The commit itself failed (disk full, connection lost): nothing in the batch is durable.
      await trx.rollback().execute().catch(() => undefined);
      for (const p of batch) p.reject(error);
      return;
    }
    this.#batches += 1;
    this.#units += batch.length;
    batch.forEach((p, i) => {
      const o = outcomes[i];
      if (o.ok) p.resolve(o.value);
      else p.reject(o.error);
    });
  }
}

async function runInSavepoint(trx: Transaction<any> & { savepoint: any }, fn: UnitOfWork<unknown>): Promise<Outcome> {
  const sp = await trx.savepoint('unit').execute();
  try {
    const value = await insideUnitOfWork.run(true, () => fn(sp));
    await sp.releaseSavepoint('unit').execute();
    return { ok: true, value };
  } catch (error) {
    await sp.rollbackToSavepoint('unit').execute();
    await sp.releaseSavepoint('unit').execute();
    return { ok: false, error };
  }
}
