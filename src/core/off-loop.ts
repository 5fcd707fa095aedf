// Long computations of a request (a 100 MB upload converted to a spreadsheet) run on a worker thread, so one request
// never stalls every service sharing the event loop. Small inputs run in place: a worker's round trip costs more than
// they do.
import { withBuffers } from './thread-bytes.ts';
import { WorkerRpc } from './worker-rpc.ts';

type AnyFunction = (...args: any[]) => unknown;
/** The names of a module's exported functions (it may export classes and constants too). */
type FunctionName<M> = { [K in keyof M]: M[K] extends AnyFunction ? K : never }[keyof M] & string;
type Args<F> = F extends (...args: infer A) => unknown ? A : never;
type Result<F> = F extends (...args: any[]) => infer R ? Awaited<R> : never;
type ErrorClass = new (message: string) => Error;

export interface OffLoopOptions {
  /** Error classes the functions throw on purpose, by name: a worker's error comes back as one of these. */
  errors?: ErrorClass[];
  /** How long the worker stays after its last call (it holds some 40 MB); the next call starts another. */
  idleMs?: number;
}

const DEFAULT_IDLE_MS = 30_000;

export class OffLoop<M extends object> {
  readonly #inline: M;
  readonly #rpc: WorkerRpc;
  readonly #errors: Map<string, ErrorClass>;
  readonly #idleMs: number;
  #idleTimer: NodeJS.Timeout | undefined;

  /**
   * `moduleUrl` is the module exporting `functions` (the worker loads it by URL; this thread calls them in place), so
   * both threads run the same code.
   */
  constructor(moduleUrl: URL, functions: M, options: OffLoopOptions = {}) {
    this.#inline = functions;
    this.#rpc = new WorkerRpc(new URL('./module-worker.js', import.meta.url), { workerData: { module: moduleUrl.href } });
    // Keyed by the name an instance reports (a bundler may rename the class itself).
    this.#errors = new Map((options.errors ?? []).map((c) => [new c('').name, c]));
    this.#idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  }

  /** Whether the worker thread is running (it stops after `idleMs` without calls). */
  get started(): boolean {
    return this.#rpc.started;
  }

  /**
   * Runs `functions[fn](...args)`, on the worker unless `inPlace`. Arguments are copied to the worker; byte arrays in
   * the result come back as Buffers.
   */
  async run<K extends FunctionName<M>>(fn: K, args: Args<M[K]>, inPlace: boolean): Promise<Result<M[K]>> {
    if (inPlace) return (await (this.#inline[fn] as AnyFunction)(...args)) as Result<M[K]>;
    clearTimeout(this.#idleTimer);
    let result: unknown;
    try {
      result = await this.#rpc.call({ fn, args });
    } catch (err) {
      const known = this.#errors.get((err as { code?: string }).code ?? '');
      throw known ? new known((err as Error).message) : err;
    } finally {
      if (this.#rpc.pending === 0) {
        this.#idleTimer = setTimeout(() => void this.#rpc.close(), this.#idleMs);
        this.#idleTimer.unref();
      }
    }
    return withBuffers(result) as Result<M[K]>;
  }

  close(): Promise<void> {
    clearTimeout(this.#idleTimer);
    return this.#rpc.close();
  }
}
