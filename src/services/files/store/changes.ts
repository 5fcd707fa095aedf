// The change log: one row per subject (`user:<email>` or `drive:<id>`) per change. A row's id is its position in the
// feed; page tokens are ids.
import { sql, type Kysely } from 'kysely';
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

export async function appendChanges(tx: Kysely<any>, rows: ChangeRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    await tx
      .insertInto('files_changes')
      .values(rows.slice(i, i + 200).map((r) => ({ subject: r.subject, file_id: r.fileId, drive_id: r.driveId, space: r.space, change_type: r.changeType, at: r.at })))
      .execute();
  }
}

/** The next change id (what a start page token names). */
export async function nextChangeId(db: Kysely<any>): Promise<number> {
  const row = await db.selectFrom('files_changes').select(sql<number>`coalesce(max(id), 0)`.as('m')).executeTakeFirst();
  return Number(row?.m ?? 0) + 1;
}

export async function listChanges(db: Kysely<any>, subjects: string[], spaces: Space[], fromId: number, limit: number): Promise<ChangeRecord[]> {
  const rows = await db
    .selectFrom('files_changes')
    .selectAll()
    .where('subject', 'in', subjects)
    .where('space', 'in', spaces)
    .where('id', '>=', fromId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toChange);
}

export async function getChange(db: Kysely<any>, subjects: string[], spaces: Space[], id: number): Promise<ChangeRecord | undefined> {
  const row = await db.selectFrom('files_changes').selectAll().where('subject', 'in', subjects).where('space', 'in', spaces).where('id', '=', id).executeTakeFirst();
  return row ? toChange(row) : undefined;
}
