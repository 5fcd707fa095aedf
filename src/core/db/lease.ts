// Claiming rows for work across instances: a row is free when its lease is absent or expired, and a claim is a
// conditional update that re-checks that, so two workers can never both claim one row.
import type { ExpressionBuilder, Kysely } from 'kysely';

/** Rows whose `locked_until` lease is absent or older than `wallNow`. */
export const leaseIsFree = (wallNow: number) => (eb: ExpressionBuilder<any, any>) =>
  eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', wallNow)]);

/**
 * Claims row `id` of `table` if it still has `status` = 'pending' and a free lease; sets the lease and `extra`.
 * Returns the claimed row, or undefined when another worker won.
 */
export async function claimRow(
  db: Kysely<any>,
  table: string,
  id: string,
  wallNow: number,
  leaseMs: number,
  extra: Record<string, unknown> = {},
): Promise<Record<string, any> | undefined> {
  return db
    .updateTable(table)
    .set({ ...extra, locked_until: wallNow + leaseMs })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where(leaseIsFree(wallNow))
    .returningAll()
    .executeTakeFirst();
}

/** Exponential backoff: 2^attempts seconds, capped. */
export const backoffMs = (attempts: number, capMs: number): number => Math.min(2 ** attempts * 1000, capMs);

/** Runs `work` at most once at a time; callers arriving while it runs share its result. */
export class SingleFlight<T> {
  #running: Promise<T> | null = null;
  run(work: () => Promise<T>): Promise<T> {
    this.#running ??= work().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  /**
   * Like `run`, but never joins a pass that was already under way when called: it waits for that one, then runs
   * (or joins a pass that started after this call). Use it when the work must see a change made just before.
   */
  async runFresh(work: () => Promise<T>): Promise<T> {
    if (this.#running) await this.#running.catch(() => undefined);
    return this.run(work);
  }
}
