// A keyed slot held until an expiry, claimed in one statement: the insert takes a free key, the conflict update takes
// over an expired one, and an unexpired holder makes it return no row. Safe inside a transaction on both databases.
import type { Kysely } from 'kysely';
import { prepared } from '../../../core/db/prepared.ts';

export type SlotClaim = (db: Kysely<any>, key: Array<string | number>, expiresAt: number, nowMs: number) => Promise<boolean>;

/**
 * The claim of a slot of `table` keyed by `columns`, compiled once (a claim runs on every request that carries a
 * one-time key); `template` is a database of the same dialect, and the returned claim runs on the `db` it is given.
 */
export function expiringSlotClaim(template: Kysely<any>, table: string, columns: string[]): SlotClaim {
  const query = prepared<Record<string, unknown>>(() =>
    template
      .insertInto(table)
      .values({ ...Object.fromEntries(columns.map((c) => [c, ''])), expires_at: 0 })
      .onConflict((oc) => oc.columns(columns).doUpdateSet({ expires_at: 0 }).where(`${table}.expires_at`, '<=', 0))
      .returning(columns[0]),
  );
  // Parameters in the order of the SQL: the key's values and the expiry inserted, the expiry set, the time compared.
  return async (db, key, expiresAt, nowMs) => (await query(db, ...key, expiresAt, expiresAt, nowMs)).rows.length > 0;
}
