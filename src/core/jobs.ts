// Durable scheduled work. A job is a row: it survives restarts, and when several instances share one PostgreSQL a
// conditional claim (status + lease re-checked in the UPDATE itself) lets exactly one of them run it.
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from './clock.ts';
import { SingleFlight, backoffMs, claimRow, leaseIsFree } from './db/lease.ts';
import { sortableId } from './ids.ts';
import { nextDailyAt } from './time.ts';

export interface Job {
  id: string;
  service: string;
  kind: string;
  key: string | null;
  payload: any;
  runAt: number;
  attempts: number;
}

/** Runs one job. Throwing retries it later with backoff; returning normally completes it. */
export type JobHandler = (job: Job, ctx: any) => Promise<void>;

const LEASE_MS = 60_000;
const MAX_ATTEMPTS = 10;

export class Jobs {
  readonly #db: Kysely<any>;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #handlers = new Map<string, { handler: JobHandler; ctx: unknown }>();
  readonly #worker = `${hostname()}:${process.pid}:${sortableId().slice(-8)}`;
  /** Lease times are wall-clock: they measure process liveness, not domain time, which a manual clock may freeze. */
  readonly #wallNow: () => number;
  readonly #pass = new SingleFlight<number>();
  #completed = 0;

  constructor(db: Kysely<any>, clock: Clock, log: Logger, wallNow: () => number) {
    this.#db = db;
    this.#clock = clock;
    this.#log = log;
    this.#wallNow = wallNow;
  }

  register(service: string, kind: string, handler: JobHandler, ctx: unknown): void {
    this.#handlers.set(`${service}/${kind}`, { handler, ctx });
  }

  /**
   * Schedules a job at `runAt`. With a `key`, scheduling again replaces the pending job of that key
   * (so a retried request never doubles work). Pass `tx` to schedule inside a unit of work (`db.write`), so the job
   * exists exactly when the change that caused it does.
   */
  async schedule(input: { service: string; kind: string; runAt: number; payload?: unknown; key?: string }, tx?: Kysely<any>): Promise<string> {
    const id = sortableId();
    const row = {
      id,
      service: input.service,
      kind: input.kind,
      job_key: input.key ?? null,
      payload: JSON.stringify(input.payload ?? null),
      run_at: input.runAt,
      recur: null,
      status: 'pending',
      attempts: 0,
      created_at: this.#clock.now(),
    };
    await (tx ?? this.#db)
      .insertInto('core_jobs')
      .values(row)
      .onConflict((oc) => oc.column('job_key').doUpdateSet({ run_at: input.runAt, payload: row.payload, status: 'pending', attempts: 0 }))
      .execute();
    return id;
  }

  /** Ensures a recurring job runs every day at `at` (HH:MM) wall time in `timeZone`. Idempotent per key. */
  async daily(input: { service: string; kind: string; key: string; at: string; timeZone?: string; payload?: unknown }): Promise<void> {
    const recur = `daily ${input.at} ${input.timeZone ?? 'UTC'}`;
    const existing = await this.#db.selectFrom('core_jobs').select(['recur']).where('job_key', '=', input.key).executeTakeFirst();
    if (existing?.recur === recur) return;
    const runAt = nextDailyAt(this.#clock.now(), input.at, input.timeZone ?? 'UTC');
    await this.#db
      .insertInto('core_jobs')
      .values({
        id: sortableId(),
        service: input.service,
        kind: input.kind,
        job_key: input.key,
        payload: JSON.stringify(input.payload ?? null),
        run_at: runAt,
        recur,
        status: 'pending',
        attempts: 0,
        created_at: this.#clock.now(),
      })
      .onConflict((oc) => oc.column('job_key').doUpdateSet({ run_at: runAt, recur, status: 'pending' }))
      .execute();
  }

  async cancel(key: string, tx?: Kysely<any>): Promise<void> {
    await (tx ?? this.#db).deleteFrom('core_jobs').where('job_key', '=', key).where('status', '=', 'pending').execute();
  }

  async list(service?: string): Promise<Array<Job & { status: string; recur: string | null; lastError: string | null }>> {
    let q = this.#db.selectFrom('core_jobs').selectAll().orderBy('run_at').limit(1000);
    if (service) q = q.where('service', '=', service);
    return (await q.execute()).map((r) => ({ ...toJob(r), status: r.status, recur: r.recur, lastError: r.last_error }));
  }

  /** How many jobs this instance has run since it started (a caller diffs it around an action). */
  get completed(): number {
    return this.#completed;
  }

  /** Runs every job that is due now, one at a time; resolves with how many ran. Concurrent calls share one pass. */
  runDue(options: { fresh?: boolean } = {}): Promise<number> {
    return options.fresh ? this.#pass.runFresh(() => this.#drain()) : this.#pass.run(() => this.#drain());
  }

  async #drain(): Promise<number> {
    let ran = 0;
    for (;;) {
      const job = await this.#claim();
      if (!job) return ran;
      await this.#run(job);
      ran++;
      this.#completed++;
    }
  }

  async #claim(): Promise<(Job & { recur: string | null }) | undefined> {
    const now = this.#clock.now();
    const wall = this.#wallNow();
    const kinds = [...this.#handlers.keys()];
    if (kinds.length === 0) return undefined;
    const candidates = await this.#db
      .selectFrom('core_jobs')
      .select(['id', 'service', 'kind'])
      .where('status', '=', 'pending')
      .where('run_at', '<=', now)
      .where(leaseIsFree(wall))
      .orderBy('run_at')
      .limit(20)
      .execute();
    for (const c of candidates) {
      if (!this.#handlers.has(`${c.service}/${c.kind}`)) continue;
      const claimed = await claimRow(this.#db, 'core_jobs', c.id, wall, LEASE_MS, { locked_by: this.#worker });
      if (claimed) return { ...toJob(claimed), recur: claimed.recur };
    }
    return undefined;
  }

  async #run(job: Job & { recur: string | null }): Promise<void> {
    const entry = this.#handlers.get(`${job.service}/${job.kind}`)!;
    try {
      await entry.handler(job, entry.ctx);
      if (job.recur) {
        const [, at, zone] = job.recur.split(' ');
        const next = nextDailyAt(Math.max(job.runAt, this.#clock.now()), at, zone);
        await this.#db
          .updateTable('core_jobs')
          .set({ run_at: next, attempts: 0, locked_by: null, locked_until: null, last_error: null })
          .where('id', '=', job.id)
          .execute();
      } else {
        await this.#db.deleteFrom('core_jobs').where('id', '=', job.id).where('locked_by', '=', this.#worker).execute();
      }
    } catch (err) {
      const attempts = job.attempts + 1;
      const message = (err as Error)?.message ?? String(err);
      this.#log.warn({ job: job.id, kind: `${job.service}/${job.kind}`, attempts, err: message }, 'job failed');
      await this.#db
        .updateTable('core_jobs')
        .set({
          attempts,
          run_at: this.#clock.now() + backoffMs(attempts, 3_600_000),
          status: attempts >= MAX_ATTEMPTS && !job.recur ? 'failed' : 'pending',
          locked_by: null,
          locked_until: null,
          last_error: message.slice(0, 2000),
        })
        .where('id', '=', job.id)
        .execute();
    }
  }
}

function toJob(r: any): Job {
  return {
    id: r.id,
    service: r.service,
    kind: r.kind,
    key: r.job_key ?? null,
    payload: JSON.parse(r.payload),
    runAt: Number(r.run_at),
    attempts: Number(r.attempts),
  };
}
