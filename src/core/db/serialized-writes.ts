// Units of work of one kind that run one after another on PostgreSQL too. SQLite runs every unit alone; PostgreSQL
// runs units at once, and a service whose units read, decide and then lock rows of several owners (a calendar
// event's write also writes each attendee's copy) can deadlock there: two users inviting each other at the same
// moment each hold their own calendar and wait for the other's. A transaction-scoped advisory lock taken first makes
// those units queue instead, each reading what the one before it committed.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './dialect.ts';

/**
 * Inside a unit of work (`tx`): waits until no other unit holding `name`'s lock runs, and holds it until this unit
 * commits or rolls back. Nothing on SQLite, where units already run one at a time.
 */
export async function serializeWith(tx: Kysely<any>, name: string): Promise<void> {
  if (dialectOf(tx) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(tx);
}
