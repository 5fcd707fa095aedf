// Long reads away from the event loop. On SQLite a small pool of worker threads, each with its own read-only
// connection (WAL readers never block the writer nor each other), runs queries compiled on the main thread; on
// PostgreSQL the pool's connections already wait off the loop, so the query simply runs there.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';

interface Waiting {
  resolve(rows: unknown[]): void;
  reject(err: Error): void;
}

interface Reader {
  worker: Worker;
  waiting: Map<number, Waiting>;
}

// A reader allocates a long read's rows and drops them once posted: a young generation of a few MB collects them as
// well as V8's default of up to 48 MB, which a reader otherwise keeps committed after one large result.
const READER_LIMITS = { maxYoungGenerationSizeMb: 6 };

export class SqliteReadPool {
  readonly #path: string;
  readonly #size: number;
  #readers: Reader[] = [];
  #next = 0;
  #ids = 0;

  // One core is left to the event loop that every service shares, so long reads never starve short requests.
  constructor(path: string, size = Math.max(1, availableParallelism() - 1)) {
    this.#path = path;
    this.#size = size;
  }

  run<R>(query: CompiledQuery<R>): Promise<R[]> {
    const reader = this.#pick();
    const id = ++this.#ids;
    return new Promise<R[]>((resolve, reject) => {
      reader.waiting.set(id, { resolve: resolve as (rows: unknown[]) => void, reject });
      reader.worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
    });
  }

  /** Each running reader's V8 heap (used and committed bytes). */
  heapStatistics(): Promise<Array<{ used: number; total: number }>> {
    return Promise.all(
      this.#readers.map((reader) => {
        const id = ++this.#ids;
        return new Promise<{ used: number; total: number }>((resolve, reject) => {
          reader.waiting.set(id, { resolve: (rows) => resolve(rows[0] as { used: number; total: number }), reject });
          reader.worker.postMessage({ id, heapStatistics: true });
        });
      }),
    );
  }

  async close(): Promise<void> {
    const readers = this.#readers;
    this.#readers = [];
    await Promise.all(readers.map((r) => r.worker.terminate()));
  }

  // Least-loaded reader, started lazily: a process that never reads heavily starts no thread.
  #pick(): Reader {
    if (this.#readers.length < this.#size) {
      const idle = this.#readers.find((r) => r.waiting.size === 0);
      if (idle) return idle;
      const reader = this.#spawn();
      this.#readers.push(reader);
      return reader;
    }
    let best = this.#readers[this.#next++ % this.#readers.length];
    for (const r of this.#readers) if (r.waiting.size < best.waiting.size) best = r;
    return best;
  }

  #spawn(): Reader {
    // Plain JavaScript: no loader flags inherited from the parent (a TypeScript loader would only slow its start).
    const worker = new Worker(new URL('./read-worker.js', import.meta.url), { workerData: { path: this.#path }, execArgv: [], resourceLimits: READER_LIMITS });
    const reader: Reader = { worker, waiting: new Map() };
    worker.unref();
    worker.on('message', (msg: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      const w = reader.waiting.get(msg.id);
      if (!w) return;
      reader.waiting.delete(msg.id);
      if (msg.error) w.reject(Object.assign(new Error(msg.error.message), { code: msg.error.code }));
      else w.resolve(msg.rows!.map(restoreBuffers));
    });
    worker.on('error', (err) => this.#fail(reader, err));
    worker.on('exit', (code) => this.#fail(reader, new Error(`read worker exited with code ${code}`)));
    return reader;
  }

  #fail(reader: Reader, err: Error): void {
    for (const w of reader.waiting.values()) w.reject(err);
    reader.waiting.clear();
    this.#readers = this.#readers.filter((r) => r !== reader);
  }
}

// Blobs cross the thread boundary as Uint8Array; callers expect the Buffer better-sqlite3 gives on the main thread.
function restoreBuffers(row: unknown): unknown {
  if (!row || typeof row !== 'object') return row;
  const out = row as Record<string, unknown>;
  for (const [k, v] of Object.entries(out)) {
    if (v instanceof Uint8Array && !Buffer.isBuffer(v)) out[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  }
  return out;
}
