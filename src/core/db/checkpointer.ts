// Keeps a SQLite write-ahead log short without blocking the event loop. A checkpoint copies the log's pages into the
// database file and fsyncs both; run by the writing connection (SQLite's default, once the log passes 1,000 pages) it
// held every service for milliseconds at a time. Here a worker thread with its own connection runs it (PASSIVE), at
// most every CHECKPOINT_INTERVAL_MS, in the group commit's window after a batch is durable and answered: the batch
// still holds the connection, so no commit appends to the log while the worker fsyncs it (an append to a page being
// written back would wait for it). The writing connection's own automatic checkpoint stays as a backstop.
import { WorkerRpc } from '../worker-rpc.ts';

/** Least time between two checkpoints: bounds both their share of the connection's time and the log's growth. */
export const CHECKPOINT_INTERVAL_MS = 250;
/**
 * The writing connection's own automatic checkpoint, in pages: reached only by writes outside the group commit (a bulk
 * load of tens of megabytes), where SQLite's default is 1,000.
 */
export const BACKSTOP_PAGES = 16_000;

export interface CheckpointResult {
  /** 1 when a reader or writer kept the checkpoint from finishing (PASSIVE never waits). */
  busy: number;
  /** Frames in the log, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

export class WalCheckpointer {
  readonly #worker: WorkerRpc;
  #running: Promise<CheckpointResult> | undefined;
  #lastStarted = 0;
  #closed = false;

  constructor(databasePath: string) {
    this.#worker = new WorkerRpc(new URL('./checkpoint-worker.js', import.meta.url), { workerData: { path: databasePath } });
  }

  /** Checkpoints when the last one started long enough ago; a failure is left to the next one (never thrown). */
  async checkpointIfDue(): Promise<void> {
    if (this.#closed || this.#running || Date.now() - this.#lastStarted < CHECKPOINT_INTERVAL_MS) return;
    if (!this.#worker.started) {
      // Started now and used next time: its start (tens of milliseconds) would be spent holding the connection.
      this.#worker.start();
      this.#lastStarted = Date.now();
      return;
    }
    await this.checkpoint().catch(() => undefined);
  }

  /** Runs one checkpoint now (or joins the one running). */
  checkpoint(): Promise<CheckpointResult> {
    if (this.#closed) return Promise.reject(new Error('the checkpointer is closed'));
    if (!this.#running) {
      this.#lastStarted = Date.now();
      this.#running = this.#worker.call<CheckpointResult>({ checkpoint: true }).finally(() => (this.#running = undefined));
    }
    return this.#running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#running?.catch(() => undefined);
    // Its connection is closed before the writer's, so the writer's close is the last and removes the log.
    await this.#worker.close();
  }
}
