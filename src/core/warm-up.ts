// Work a service does once its listener is open rather than before: building an in-memory index, loading a shipped
// data set into an empty database. Requests that need the result wait for it (they are answered as if the work had
// finished before the start), so the program is reachable at once and no answer differs; only the first requests
// of such a service may take longer.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ApiError } from './errors.ts';
import type { ServiceContext } from './service.ts';

export type WarmUpState = 'warming' | 'ready' | 'failed';

/** While set, warm-ups begun wait for it: a program starting its listeners lets them open first. */
let held: Promise<unknown> = Promise.resolve();

/** Holds back every warm-up begun from now until the function returned is called (once the program is up). */
export function holdWarmUps(): () => void {
  let release!: () => void;
  held = new Promise<void>((resolve) => (release = resolve));
  return () => {
    held = Promise.resolve();
    release();
  };
}

export class WarmUp {
  readonly #what: string;
  readonly #log?: Logger;
  #done: Promise<void> = Promise.resolve();
  #state: WarmUpState = 'ready';
  #failure?: Error;
  #abort?: AbortController;

  /** `what` names the work in errors ("the entity graph"). */
  constructor(what: string, log?: Logger) {
    this.#what = what;
    this.#log = log;
  }

  get state(): WarmUpState {
    return this.#state;
  }

  /**
   * Runs `task` once the previous one has settled (told to stop first: the new task supersedes it, as after a reset);
   * `ready()` waits for it. The signal fires when a newer task begins and at `stop()`.
   */
  begin(task: (signal: AbortSignal) => Promise<void>): void {
    this.#abort?.abort();
    const abort = new AbortController();
    const previous = Promise.all([this.#done, held]);
    this.#abort = abort;
    this.#state = 'warming';
    this.#failure = undefined;
    this.#done = previous
      .then(() => {
        abort.signal.throwIfAborted(); // stopped or superseded before it could begin
        return task(abort.signal);
      })
      .then(
        () => {
          if (this.#abort === abort) this.#state = 'ready';
        },
        (err: Error) => {
          if (this.#abort !== abort) return;
          this.#state = 'failed';
          this.#failure = err;
          if (!abort.signal.aborted) this.#log?.error({ err }, `${this.#what} could not be loaded`);
        },
      );
  }

  /** Resolves once the latest task has finished; a failed task makes every waiting request fail with a 503. */
  async ready(): Promise<void> {
    for (;;) {
      const done = this.#done;
      await done;
      if (done === this.#done) break; // a task begun meanwhile (a reset) is waited for as well
    }
    if (this.#state === 'failed') throw new ApiError(503, `${this.#what} could not be loaded: ${this.#failure?.message}`);
  }

  /** Makes every request of this Fastify scope wait for the work (the family's error handler renders a failure). */
  gate(app: FastifyInstance): void {
    // A callback hook: once ready (nearly always), it costs no promise.
    app.addHook('onRequest', (_req, _reply, done) => {
      if (this.#state === 'ready') done();
      else this.ready().then(() => done(), done);
    });
  }

  /** Asks the running task to stop and waits until it has (at shutdown, before the database closes). */
  async stop(): Promise<void> {
    this.#abort?.abort();
    await this.#done;
  }
}

const warmUps = new WeakMap<ServiceContext, WarmUp>();

/** The service's warm-up (made on first use); `what` names its work in errors ("the entity graph"). */
export function warmUpOf(ctx: ServiceContext, what: string): WarmUp {
  let warmUp = warmUps.get(ctx);
  if (!warmUp) warmUps.set(ctx, (warmUp = new WarmUp(what, ctx.log)));
  return warmUp;
}

/** Waits for the warm-ups of these services (a runtime without listeners must hand over finished data). */
export async function whenWarm(ctxs: Iterable<ServiceContext>): Promise<void> {
  for (const ctx of ctxs) await warmUps.get(ctx)?.ready();
}
