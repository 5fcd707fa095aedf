// A keyed slot held until an expiry, claimed in one statement: the insert takes a free key, the conflict update takes
// over an expired one, and an unexpired holder makes it return no row. Safe inside a transaction on both databases.
import type { Kysely } from 'kysely';

export async function claimExpiringSlot(db: Kysely<any>, table: string, key: Record<string, string | number>, expiresAt: number, nowMs: number): Promise<boolean> {
  const columns = Object.keys(key);
  const row = await db
    .insertInto(table)
    .values({ ...key, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(columns).doUpdateSet({ expires_at: expiresAt }).where(`${table}.expires_at`, '<=', nowMs))
    .returning(columns[0])
    .executeTakeFirst();
  return row !== undefined;
}
