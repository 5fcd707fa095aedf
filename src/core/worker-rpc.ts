// One worker thread answering requests by id: started on the first call, referenced only while a call is awaited (an
// idle worker keeps no process alive), replaced after it dies. The worker file answers `{ id, ...request }` with
// `{ id, result }` or `{ id, error: { message, code? } }`; for close(), it closes itself on `{ close: true }`.
import { Worker, type ResourceLimits } from 'node:worker_threads';

interface Waiting {
  resolve(result: unknown): void;
  reject(err: Error): void;
}

/** A running worker and the calls awaiting its answers (a replaced worker fails only its own calls). */
interface Running {
  worker: Worker;
  waiting: Map<number, Waiting>;
}

export class WorkerRpc {
  readonly #file: URL;
  readonly #workerData: unknown;
  readonly #resourceLimits: ResourceLimits | undefined;
  #running: Running | undefined;
  #ids = 0;

  constructor(file: URL, options: { workerData?: unknown; resourceLimits?: ResourceLimits } = {}) {
    this.#file = file;
    this.#workerData = options.workerData;
    this.#resourceLimits = options.resourceLimits;
  }

  /** Whether the worker thread is running (or starting). */
  get started(): boolean {
    return this.#running !== undefined;
  }

  /** Calls awaited now (a pool sends the next call to its least busy worker). */
  get pending(): number {
    return this.#running?.waiting.size ?? 0;
  }

  /** Starts the worker ahead of its first call (its start takes tens of milliseconds). */
  start(): void {
    this.#running ??= this.#spawn();
  }

  call<R>(request: Record<string, unknown>): Promise<R> {
    const { worker, waiting } = (this.#running ??= this.#spawn());
    const id = ++this.#ids;
    return new Promise<R>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (r: unknown) => void, reject });
      worker.ref();
      worker.postMessage({ ...request, id });
    });
  }

  /** Lets the worker finish its calls and close what it holds, then waits for it to exit; a later call starts another. */
  async close(): Promise<void> {
    const running = this.#running;
    this.#running = undefined;
    if (!running) return;
    const exited = new Promise((resolve) => running.worker.once('exit', resolve));
    running.worker.ref();
    running.worker.postMessage({ close: true });
    await exited;
  }

  /** Stops the worker at once; calls still awaited are refused. */
  async terminate(): Promise<void> {
    const running = this.#running;
    this.#running = undefined;
    await running?.worker.terminate();
  }

  #spawn(): Running {
    // Plain JavaScript: no loader flags inherited from the parent (a TypeScript loader would only slow its start).
    const worker = new Worker(this.#file, { workerData: this.#workerData, execArgv: [], resourceLimits: this.#resourceLimits });
    const running: Running = { worker, waiting: new Map() };
    worker.unref();
    worker.on('message', (msg: { id: number; result?: unknown; error?: { message: string; code?: string } }) => {
      const waiting = running.waiting.get(msg.id);
      if (!waiting) return;
      running.waiting.delete(msg.id);
      if (running.waiting.size === 0) worker.unref();
      if (msg.error) waiting.reject(Object.assign(new Error(msg.error.message), { code: msg.error.code }));
      else waiting.resolve(msg.result);
    });
    // Its error is reported by the exit that follows, to every call still waiting for this worker.
    let failure: Error | undefined;
    worker.on('error', (err) => (failure = err));
    worker.once('exit', (code) => {
      if (this.#running === running) this.#running = undefined;
      const error = failure ?? new Error(`worker ${this.#file.pathname.split('/').pop()} exited with code ${code}`);
      for (const waiting of running.waiting.values()) waiting.reject(error);
      running.waiting.clear();
    });
    return running;
  }
}
