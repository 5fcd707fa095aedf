// Serialised answers of a read route whose data changes rarely and only through this process (the entity graph): a
// repeated request still has its credential and the framework's hooks checked, but not its lookup, rendering and JSON.
// What a route may keep is an answer of 200 to the same path and query, every parameter (fields, prettyPrint, the
// API key) being part of the key; the owner calls `invalidate` whenever anything an answer may show changes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { boundedCache, type BoundedCache, type CacheBudget } from '../cache.ts';

/** The content type Fastify gives a JSON answer it serialised itself: a kept answer is sent with the same. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** On a request whose answer may be kept: its key and the generation it was computed in. */
const PENDING = Symbol('answer to keep');

interface Pending {
  key: string;
  generation: number;
}

export class AnswerCache {
  readonly #entries: BoundedCache<string, string>;
  #generation = 0;

  /** Keeps answers within `budget`, serialised on `app` (whose onSend hook sees them). */
  constructor(app: FastifyInstance, budget: CacheBudget) {
    this.#entries = boundedCache(budget, (answer) => answer.length * 2);
    // A callback hook: an async one costs a promise and a microtask turn per request.
    app.addHook('onSend', (req, reply, payload, done) => {
      const pending = (req as unknown as Record<symbol, Pending | undefined>)[PENDING];
      // An answer computed while the data changed may show either side of the change: not kept.
      if (pending && pending.generation === this.#generation && reply.statusCode === 200 && typeof payload === 'string') {
        this.#entries.set(pending.key, payload);
      }
      done(null, payload);
    });
  }

  /**
   * Sends the kept answer to `req` (true), or marks `req` so that its answer is kept once serialised (false). Called
   * after the request's credential and parameters are checked, so a refusal is never kept or skipped.
   */
  answered(req: FastifyRequest, reply: FastifyReply): boolean {
    const key = req.url;
    const kept = this.#entries.get(key);
    if (kept !== undefined) {
      void reply.type(JSON_TYPE).send(kept);
      return true;
    }
    (req as unknown as Record<symbol, Pending>)[PENDING] = { key, generation: this.#generation };
    return false;
  }

  /** Forgets every answer, and any being computed now. */
  invalidate(): void {
    this.#generation++;
    this.#entries.clear();
  }
}
