// Rows of files_revisions: each content change of a binary file is a revision holding one blob reference.
import type { Kysely } from 'kysely';

export interface RevisionRecord {
  fileId: string;
  id: string;
  seq: number;
  blobHash: string;
  mimeType: string;
  originalFilename: string | null;
  pinned: boolean;
  published: boolean;
  modifiedAt: number;
  modifyingEmail: string | null;
}

const toRevision = (r: any): RevisionRecord => ({
  fileId: r.file_id,
  id: r.id,
  seq: Number(r.seq),
  blobHash: r.blob_hash,
  mimeType: r.mime_type,
  originalFilename: r.original_filename ?? null,
  pinned: Number(r.pinned) === 1,
  published: Number(r.published) === 1,
  modifiedAt: Number(r.modified_at),
  modifyingEmail: r.modifying_email ?? null,
});

export async function listRevisions(db: Kysely<any>, fileId: string): Promise<RevisionRecord[]> {
  const rows = await db.selectFrom('files_revisions').selectAll().where('file_id', '=', fileId).orderBy('seq').execute();
  return rows.map(toRevision);
}

export async function getRevision(db: Kysely<any>, fileId: string, id: string): Promise<RevisionRecord | undefined> {
  const row = await db.selectFrom('files_revisions').selectAll().where('file_id', '=', fileId).where('id', '=', id).executeTakeFirst();
  return row ? toRevision(row) : undefined;
}

export async function insertRevision(tx: Kysely<any>, r: Omit<RevisionRecord, 'seq'>): Promise<RevisionRecord> {
  const last = await tx.selectFrom('files_revisions').select((eb) => eb.fn.max('seq').as('m')).where('file_id', '=', r.fileId).executeTakeFirst();
  const seq = Number(last?.m ?? 0) + 1;
  await tx
    .insertInto('files_revisions')
    .values({
      file_id: r.fileId,
      id: r.id,
      seq,
      blob_hash: r.blobHash,
      mime_type: r.mimeType,
      original_filename: r.originalFilename,
      pinned: r.pinned ? 1 : 0,
      published: r.published ? 1 : 0,
      modified_at: r.modifiedAt,
      modifying_email: r.modifyingEmail,
    })
    .execute();
  return { ...r, seq };
}

export async function updateRevisionFlags(tx: Kysely<any>, fileId: string, id: string, flags: { pinned: boolean; published: boolean }): Promise<void> {
  await tx.updateTable('files_revisions').set({ pinned: flags.pinned ? 1 : 0, published: flags.published ? 1 : 0 }).where('file_id', '=', fileId).where('id', '=', id).execute();
}

export async function deleteRevision(tx: Kysely<any>, fileId: string, id: string): Promise<void> {
  await tx.deleteFrom('files_revisions').where('file_id', '=', fileId).where('id', '=', id).execute();
}

/** Blob references per hash held by the service (what the content store reconciles against). */
export async function liveBlobRefs(db: Kysely<any>): Promise<Array<{ hash: string; refs: number }>> {
  const rows = await db.selectFrom('files_revisions').select(['blob_hash', (eb) => eb.fn.countAll().as('n')]).groupBy('blob_hash').execute();
  return rows.map((r) => ({ hash: r.blob_hash as string, refs: Number(r.n) }));
}
