// Rows of files_modifications: when each user last changed a file (the File resource's `modifiedByMeDate`, which
// Drive keeps per user and shows only to that user).
import { sql, type Kysely } from 'kysely';
import { inList } from '../../../core/db/in-list.ts';
import { preparedByShape } from '../../../core/db/prepared.ts';

export async function recordModification(tx: Kysely<any>, fileId: string, email: string, at: number): Promise<void> {
  await tx
    .insertInto('files_modifications')
    .values({ file_id: fileId, email, modified_at: at })
    .onConflict((oc) => oc.columns(['file_id', 'email']).doUpdateSet({ modified_at: at }))
    .execute();
}

const modificationsQuery = preparedByShape<{ file_id: string; modified_at: number }>();

/** The user's last modification of each of the files they ever changed. */
export async function modificationsBy(db: Kysely<any>, fileIds: string[], email: string): Promise<Map<string, number>> {
  if (fileIds.length === 0) return new Map();
  const { rows } = await modificationsQuery(db, [fileIds], [...fileIds, email], (d) =>
    sql<{ file_id: string; modified_at: number }>`select file_id, modified_at from files_modifications where ${inList(d, 'file_id', fileIds)} and email = ${email}`,
  );
  return new Map(rows.map((r) => [r.file_id, Number(r.modified_at)]));
}
