// One worker thread answering requests by id: started on the first call, referenced only while a call is awaited (an
// idle worker keeps no process alive), replaced after it dies. The worker file answers `{ id, ...request }` with
// `{ id, result }` or `{ id, error: { message, code? } }`; for close(), it closes itself on `{ close: true }`.
import { Worker, type ResourceLimits } from 'node:worker_threads';

interface Waiting {
  resolve(result: unknown): void;
  reject(err: Error): void;
}

export class WorkerRpc {
  readonly #file: URL;
  readonly #workerData: unknown;
  readonly #resourceLimits: ResourceLimits | undefined;
  #worker: Worker | undefined;
  readonly #waiting = new Map<number, Waiting>();
  #ids = 0;

  constructor(file: URL, options: { workerData?: unknown; resourceLimits?: ResourceLimits } = {}) {
    this.#file = file;
    this.#workerData = options.workerData;
    this.#resourceLimits = options.resourceLimits;
  }

  /** Whether the worker thread is running (or starting). */
  get started(): boolean {
    return this.#worker !== undefined;
  }

  /** Calls awaited now (a pool sends the next call to its least busy worker). */
  get pending(): number {
    return this.#waiting.size;
  }

  /** Starts the worker ahead of its first call (its start takes tens of milliseconds). */
  start(): void {
    this.#worker ??= this.#spawn();
  }

  call<R>(request: Record<string, unknown>): Promise<R> {
    const worker = (this.#worker ??= this.#spawn());
    const id = ++this.#ids;
    return new Promise<R>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (r: unknown) => void, reject });
      worker.ref();
      worker.postMessage({ ...request, id });
    });
  }

  /** Lets the worker finish its calls and close what it holds, then waits for it to exit. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.ref();
    worker.postMessage({ close: true });
    await exited;
  }

  /** Stops the worker at once; calls still awaited are refused. */
  async terminate(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #spawn(): Worker {
    // Plain JavaScript: no loader flags inherited from the parent (a TypeScript loader would only slow its start).
    const worker = new Worker(this.#file, { workerData: this.#workerData, execArgv: [], resourceLimits: this.#resourceLimits });
    worker.unref();
    worker.on('message', (msg: { id: number; result?: unknown; error?: { message: string; code?: string } }) => {
      const waiting = this.#waiting.get(msg.id);
      if (!waiting) return;
      this.#waiting.delete(msg.id);
      if (this.#waiting.size === 0) worker.unref();
      if (msg.error) waiting.reject(Object.assign(new Error(msg.error.message), { code: msg.error.code }));
      else waiting.resolve(msg.result);
    });
    // Its error is reported by the exit that follows, to every call still waiting.
    let failure: Error | undefined;
    worker.on('error', (err) => (failure = err));
    worker.once('exit', (code) => {
      if (this.#worker === worker) this.#worker = undefined;
      const error = failure ?? new Error(`worker ${this.#file.pathname.split('/').pop()} exited with code ${code}`);
      for (const waiting of this.#waiting.values()) waiting.reject(error);
      this.#waiting.clear();
    });
    return worker;
  }
}
