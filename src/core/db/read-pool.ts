// Long reads away from the event loop. On SQLite a small pool of worker threads, each with its own read-only
// connection (WAL readers never block the writer nor each other), runs queries compiled on the main thread; on
// PostgreSQL the pool's connections already wait off the loop, so the query simply runs there.
import { availableParallelism } from 'node:os';
import type { CompiledQuery } from 'kysely';
import { withBuffers } from '../thread-bytes.ts';
import { WorkerRpc } from '../worker-rpc.ts';

// A reader allocates a long read's rows and drops them once posted: a young generation of a few MB collects them as
// well as V8's default of up to 48 MB, which a reader otherwise keeps committed after one large result.
const READER_LIMITS = { maxYoungGenerationSizeMb: 6 };

export class SqliteReadPool {
  readonly #path: string;
  readonly #size: number;
  #readers: WorkerRpc[] = [];
  #next = 0;

  // One core is left to the event loop that every service shares, so long reads never starve short requests.
  constructor(path: string, size = Math.max(1, availableParallelism() - 1)) {
    this.#path = path;
    this.#size = size;
  }

  async run<R>(query: CompiledQuery<R>): Promise<R[]> {
    const rows = await this.#pick().call<unknown[]>({ sql: query.sql, parameters: query.parameters });
    // Blobs come back as Uint8Arrays; callers expect the Buffers better-sqlite3 gives on the main thread.
    return rows.map(withBuffers) as R[];
  }

  /** Each running reader's V8 heap (used and committed bytes). */
  heapStatistics(): Promise<Array<{ used: number; total: number }>> {
    return Promise.all(this.#readers.filter((r) => r.started).map((r) => r.call<{ used: number; total: number }>({ heapStatistics: true })));
  }

  async close(): Promise<void> {
    const readers = this.#readers;
    this.#readers = [];
    await Promise.all(readers.map((r) => r.terminate()));
  }

  // Least-loaded reader, started lazily: a process that never reads heavily starts no thread.
  #pick(): WorkerRpc {
    if (this.#readers.length < this.#size) {
      const idle = this.#readers.find((r) => r.pending === 0);
      if (idle) return idle;
      const reader = new WorkerRpc(new URL('./read-worker.js', import.meta.url), { workerData: { path: this.#path }, resourceLimits: READER_LIMITS });
      this.#readers.push(reader);
      return reader;
    }
    let best = this.#readers[this.#next++ % this.#readers.length];
    for (const r of this.#readers) if (r.pending < best.pending) best = r;
    return best;
  }
}
