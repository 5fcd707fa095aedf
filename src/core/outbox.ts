// Outbound messages: e-mail and SMS are recorded as delivered (this is where a user reads them), webhooks are really
// POSTed with retries. Everything stays visible through the admin API.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from './clock.ts';
import { SingleFlight, backoffMs, claimRow, leaseIsFree } from './db/lease.ts';
import { sortableId } from './ids.ts';

export type Channel = 'email' | 'sms' | 'webhook';

export interface OutboxMessage {
  id: string;
  service: string;
  channel: Channel;
  recipient: string;
  subject: string | null;
  body: string;
  headers: Record<string, string>;
  correlation: string | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  lastStatus: number | null;
  createdAt: number;
  deliveredAt: number | null;
}

const MAX_WEBHOOK_ATTEMPTS = 8;
const WEBHOOK_TIMEOUT_MS = 5000;

export class Outbox {
  readonly #db: Kysely<any>;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #wallNow: () => number;
  readonly #pass = new SingleFlight<number>();

  constructor(db: Kysely<any>, clock: Clock, log: Logger, wallNow: () => number) {
    this.#db = db;
    this.#clock = clock;
    this.#log = log;
    this.#wallNow = wallNow;
  }

  /**
   * Queues a message. `deliverAfter` holds it (for example an SMS outside polite hours) until that time. Pass `tx` to
   * queue inside a unit of work (`db.write`): the message then exists exactly when the change that caused it does.
   */
  async enqueue(input: {
    service: string;
    channel: Channel;
    recipient: string;
    subject?: string;
    body: string;
    headers?: Record<string, string>;
    correlation?: string;
    deliverAfter?: number;
  }, tx?: Kysely<any>): Promise<string> {
    const id = sortableId();
    const now = this.#clock.now();
    await (tx ?? this.#db)
      .insertInto('core_outbox')
      .values({
        id,
        service: input.service,
        channel: input.channel,
        recipient: input.recipient,
        subject: input.subject ?? null,
        body: input.body,
        headers: JSON.stringify(input.headers ?? {}),
        correlation: input.correlation ?? null,
        status: 'pending',
        attempts: 0,
        next_attempt_at: Math.max(now, input.deliverAfter ?? now),
        created_at: now,
      })
      .execute();
    return id;
  }

  async list(filter: { service?: string; channel?: Channel; correlation?: string; status?: string; limit?: number } = {}): Promise<OutboxMessage[]> {
    let q = this.#db.selectFrom('core_outbox').selectAll().orderBy('created_at').orderBy('id').limit(Math.min(filter.limit ?? 500, 5000));
    if (filter.service) q = q.where('service', '=', filter.service);
    if (filter.channel) q = q.where('channel', '=', filter.channel);
    if (filter.correlation) q = q.where('correlation', '=', filter.correlation);
    if (filter.status) q = q.where('status', '=', filter.status);
    return (await q.execute()).map(toMessage);
  }

  /** Delivers every message that is due; resolves with how many were attempted. Concurrent calls share one pass. */
  deliverDue(options: { fresh?: boolean } = {}): Promise<number> {
    return options.fresh ? this.#pass.runFresh(() => this.#drain()) : this.#pass.run(() => this.#drain());
  }

  async #drain(): Promise<number> {
    const now = this.#clock.now();
    const wall = this.#wallNow();
    const due = await this.#db
      .selectFrom('core_outbox')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where(leaseIsFree(wall))
      .orderBy('next_attempt_at')
      .limit(100)
      .execute();
    let attempted = 0;
    for (const row of due) {
      const claimed = await claimRow(this.#db, 'core_outbox', row.id, wall, 30_000);
      if (!claimed) continue;
      attempted++;
      await this.#deliver(toMessage(claimed));
    }
    return attempted;
  }

  async #deliver(msg: OutboxMessage): Promise<void> {
    const attempts = msg.attempts + 1;
    if (msg.channel !== 'webhook') {
      await this.#db
        .updateTable('core_outbox')
        .set({ status: 'delivered', attempts, delivered_at: this.#clock.now(), locked_until: null })
        .where('id', '=', msg.id)
        .execute();
      return;
    }
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await fetch(msg.recipient, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...msg.headers },
        body: msg.body,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        redirect: 'manual',
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
      if (res.status < 200 || res.status >= 300) error = `HTTP ${res.status}`;
    } catch (err) {
      error = (err as Error).message;
    }
    const delivered = error === null;
    const failed = !delivered && attempts >= MAX_WEBHOOK_ATTEMPTS;
    if (!delivered) this.#log.warn({ outbox: msg.id, attempts, error }, 'webhook delivery failed');
    await this.#db
      .updateTable('core_outbox')
      .set({
        status: delivered ? 'delivered' : failed ? 'failed' : 'pending',
        attempts,
        last_status: status,
        last_error: error,
        delivered_at: delivered ? this.#clock.now() : null,
        next_attempt_at: this.#clock.now() + backoffMs(attempts, 600_000),
        locked_until: null,
      })
      .where('id', '=', msg.id)
      .execute();
  }
}

function toMessage(r: any): OutboxMessage {
  return {
    id: r.id,
    service: r.service,
    channel: r.channel,
    recipient: r.recipient,
    subject: r.subject ?? null,
    body: r.body,
    headers: JSON.parse(r.headers),
    correlation: r.correlation ?? null,
    status: r.status,
    attempts: Number(r.attempts),
    nextAttemptAt: Number(r.next_attempt_at),
    lastError: r.last_error ?? null,
    lastStatus: r.last_status == null ? null : Number(r.last_status),
    createdAt: Number(r.created_at),
    deliveredAt: r.delivered_at == null ? null : Number(r.delivered_at),
  };
}
