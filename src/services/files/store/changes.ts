// The change log: one row per subject (`user:<email>` or `drive:<id>`) per changed item. A row's id is its position
// in the feed; page tokens are ids. An item's newer change replaces its older ones in the same subject's feed, as in
// Drive: a feed read from a token names each item changed since once, at the position of its latest change.
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { inList } from '../../../core/db/in-list.ts';
import type { Space } from '../domain/spaces.ts';

export interface ChangeRecord {
  id: number;
  subject: string;
  fileId: string | null;
  driveId: string | null;
  /** The changed file's space (`drive` for a shared drive's own changes). */
  space: Space;
  changeType: 'file' | 'drive';
  at: number;
}

export type ChangeRow = Omit<ChangeRecord, 'id'>;

const toChange = (r: any): ChangeRecord => ({
  id: Number(r.id),
  subject: r.subject,
  fileId: r.file_id ?? null,
  driveId: r.drive_id ?? null,
  space: r.space ?? 'drive',
  changeType: r.change_type,
  at: Number(r.at),
});

/** What a change is about: a file, or a shared drive's own metadata (whose id is also its root folder's). */
const itemOf = (r: ChangeRow): string => (r.changeType === 'drive' ? `drive:${r.driveId}` : `file:${r.fileId}`);

export async function appendChanges(tx: Kysely<any>, rows: ChangeRow[]): Promise<void> {
  const subjectsByItem = new Map<string, string[]>();
  for (const r of rows) {
    const item = itemOf(r);
    subjectsByItem.set(item, [...(subjectsByItem.get(item) ?? []), r.subject]);
  }
  // Items in one order for every writer, so two PostgreSQL transactions dropping the same rows never deadlock.
  for (const item of [...subjectsByItem.keys()].sort()) {
    await tx.deleteFrom('files_changes').where(inList(tx, 'subject', subjectsByItem.get(item)!)).where('item', '=', item).execute();
  }
  for (let i = 0; i < rows.length; i += 200) {
    await tx
      .insertInto('files_changes')
      .values(rows.slice(i, i + 200).map((r) => ({ subject: r.subject, item: itemOf(r), file_id: r.fileId, drive_id: r.driveId, space: r.space, change_type: r.changeType, at: r.at })))
      .execute();
  }
}

/** The next change id (what a start page token names). */
export async function nextChangeId(db: Kysely<any>): Promise<number> {
  const row = await db.selectFrom('files_changes').select(sql<number>`coalesce(max(id), 0)`.as('m')).executeTakeFirst();
  return Number(row?.m ?? 0) + 1;
}

/**
 * The latest changes only. Writers drop the changes a newer one replaces; two PostgreSQL transactions changing one
 * item at once can each keep theirs, and this keeps the later one.
 */
function latestOnly(q: SelectQueryBuilder<any, any, any>): SelectQueryBuilder<any, any, any> {
  return q.where(({ not, exists, selectFrom }) =>
    not(exists(selectFrom('files_changes as later').select(sql`1`.as('one')).whereRef('later.subject', '=', 'c.subject').whereRef('later.item', '=', 'c.item').whereRef('later.id', '>', 'c.id'))),
  );
}

export async function listChanges(db: Kysely<any>, subjects: string[], spaces: Space[], fromId: number, limit: number): Promise<ChangeRecord[]> {
  const rows = await latestOnly(db.selectFrom('files_changes as c').selectAll('c').where('c.subject', 'in', subjects).where('c.space', 'in', spaces).where('c.id', '>=', fromId))
    .orderBy('c.id')
    .limit(limit)
    .execute();
  return rows.map(toChange);
}

export async function getChange(db: Kysely<any>, subjects: string[], spaces: Space[], id: number): Promise<ChangeRecord | undefined> {
  const row = await latestOnly(db.selectFrom('files_changes as c').selectAll('c').where('c.subject', 'in', subjects).where('c.space', 'in', spaces).where('c.id', '=', id)).executeTakeFirst();
  return row ? toChange(row) : undefined;
}
