// Keeps a SQLite write-ahead log short without blocking the event loop. A checkpoint copies the log's pages into the
// database file and fsyncs both; run by the writing connection (SQLite's default, once the log passes 1,000 pages) it
// held every service for milliseconds at a time. Here a worker thread with its own connection runs it (PASSIVE), at
// most every CHECKPOINT_INTERVAL_MS, in the group commit's window after a batch is durable and answered: the batch
// still holds the connection, so no commit appends to the log while the worker fsyncs it (an append to a page being
// written back would wait for it). The writing connection's own automatic checkpoint stays as a backstop.
import { Worker } from 'node:worker_threads';

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
  readonly #path: string;
  #worker: Worker | undefined;
  #running: Promise<CheckpointResult> | undefined;
  #lastStarted = 0;
  #ids = 0;
  #closed = false;
  #checkpoints = 0;

  constructor(databasePath: string) {
    this.#path = databasePath;
  }

  /** Checkpoints completed by the worker so far. */
  get checkpoints(): number {
    return this.#checkpoints;
  }

  /** Checkpoints when the last one started long enough ago; a failure is left to the next one (never thrown). */
  async checkpointIfDue(): Promise<void> {
    if (this.#closed || this.#running || Date.now() - this.#lastStarted < CHECKPOINT_INTERVAL_MS) return;
    if (!this.#worker) {
      // Started now and used next time: its start (tens of milliseconds) would be spent holding the connection.
      this.#worker = this.#spawn();
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
      this.#running = this.#post().finally(() => (this.#running = undefined));
    }
    return this.#running;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#running?.catch(() => undefined);
    const worker = this.#worker;
    this.#worker = undefined;
    if (!worker) return;
    // Its connection is closed before the writer's, so the writer's close is the last and removes the log. Referenced
    // meanwhile: an unreferenced worker would let the process end while its close is awaited.
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.ref();
    worker.postMessage({ close: true });
    await exited;
  }

  #post(): Promise<CheckpointResult> {
    const worker = (this.#worker ??= this.#spawn());
    const id = ++this.#ids;
    // Referenced while a checkpoint is awaited, so the process does not end under it; idle, it keeps nothing alive.
    worker.ref();
    return new Promise((resolve, reject) => {
      const onMessage = (msg: { id: number; result?: CheckpointResult; error?: { message: string } }) => {
        if (msg.id !== id) return;
        worker.unref();
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        if (msg.error) reject(new Error(msg.error.message));
        else {
          this.#checkpoints++;
          resolve(msg.result!);
        }
      };
      const onExit = (code: number) => {
        worker.off('message', onMessage);
        reject(new Error(`checkpoint worker exited with code ${code}`));
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.postMessage({ id });
    });
  }

  #spawn(): Worker {
    // Plain JavaScript: no loader flags inherited from the parent (a TypeScript loader would only slow its start).
    const worker = new Worker(new URL('./checkpoint-worker.js', import.meta.url), { workerData: { path: this.#path }, execArgv: [] });
    worker.unref();
    // A worker that died (its error is reported to the caller of that checkpoint) is replaced at the next one.
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      if (this.#worker === worker) this.#worker = undefined;
    });
    return worker;
  }
}
