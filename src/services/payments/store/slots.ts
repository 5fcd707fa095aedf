// A keyed slot held until an expiry, claimed in one statement: the insert takes a free key, the conflict update takes
// over an expired one, and an unexpired holder makes it return no row. Safe inside a transaction on both databases,
// and a unit of work on its own (Database.writeStatement).
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import { preparedStatement, runCompiled } from '../../../core/db/prepared.ts';

export type SlotClaim = (db: Kysely<any>, key: Array<string | number>, expiresAt: number, nowMs: number) => Promise<boolean>;
/** The claim as a statement, for a claim that is a unit of work of its own. */
export type SlotClaimStatement = (key: Array<string | number>, expiresAt: number, nowMs: number) => CompiledQuery<Record<string, unknown>>;

/** Whether the claim's statement took the slot. */
export const slotTaken = (result: QueryResult<unknown>): boolean => result.rows.length > 0;

/**
 * The claim of a slot of `table` keyed by `columns`, compiled once (a claim runs on every request that carries a
 * one-time key); `template` is a database of the same dialect, and the returned claim runs on the `db` it is given.
 */
export function expiringSlotClaim(template: Kysely<any>, table: string, columns: string[]): SlotClaim {
  const statement = expiringSlotStatement(template, table, columns);
  return async (db, key, expiresAt, nowMs) => slotTaken(await runCompiled(db, statement(key, expiresAt, nowMs)));
}

/** `expiringSlotClaim`'s statement with a claim's parameters. */
export function expiringSlotStatement(template: Kysely<any>, table: string, columns: string[]): SlotClaimStatement {
  const query = preparedStatement<Record<string, unknown>>(() =>
    template
      .insertInto(table)
      .values({ ...Object.fromEntries(columns.map((c) => [c, ''])), expires_at: 0 })
      .onConflict((oc) => oc.columns(columns).doUpdateSet({ expires_at: 0 }).where(`${table}.expires_at`, '<=', 0))
      .returning(columns[0]),
  );
  // Parameters in the order of the SQL: the key's values and the expiry inserted, the expiry set, the time compared.
  return (key, expiresAt, nowMs) => query(...key, expiresAt, expiresAt, nowMs);
}
