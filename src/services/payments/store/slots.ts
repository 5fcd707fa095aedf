// A keyed slot held until an expiry: inserting claims it; a unique violation means someone holds it, unless its time
// has passed, in which case a conditional update takes it over (the row count decides between racing requests).
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../../core/db/dialect.ts';

export async function claimExpiringSlot(db: Kysely<any>, table: string, key: Record<string, string | number>, expiresAt: number, nowMs: number): Promise<boolean> {
  try {
    await db.insertInto(table).values({ ...key, expires_at: expiresAt }).execute();
    return true;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    let q = db.updateTable(table).set({ expires_at: expiresAt }).where('expires_at', '<=', nowMs);
    for (const [column, value] of Object.entries(key)) q = q.where(column, '=', value);
    const res = await q.executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }
}
