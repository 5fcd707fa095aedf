// A file's content: each change is a revision holding one reference to a blob. Old unpinned revisions beyond the
// keep limit are pruned, as Drive does.
import type { PreparedBlob } from '../../../core/blobs/index.ts';
import { newRevisionId } from '../domain/ids.ts';
import { imageDimensions } from '../domain/image-metadata.ts';
import { searchText } from '../domain/search-text.ts';
import { SERVICE, type Unit } from '../service.ts';
import type { FileRecord } from '../store/files.ts';
import { deleteRevision, getRevision, insertRevision, listRevisions } from '../store/revisions.ts';

/** Unpinned revisions kept besides the head. */
export const KEEP_UNPINNED = 100;

export interface ContentOptions {
  newRevision: boolean;
  pinned: boolean;
}

/**
 * Makes `blob` the file's content (a new head revision, or the head replaced with newRevision=false); `text` is what
 * fullText searches in it, computed before the write (ops/convert.ts contentText).
 */
export async function putContent(u: Unit, file: FileRecord, blob: PreparedBlob, mimeType: string, text: string | undefined, options: ContentOptions): Promise<void> {
  await u.svc.blobs.attach(u.tx, SERVICE, blob);
  const head = file.headRevisionId ? await getRevision(u.tx, file.id, file.headRevisionId) : undefined;
  const revision = { fileId: file.id, blobHash: blob.hash, mimeType, originalFilename: file.originalFilename, pinned: options.pinned, published: false, modifiedAt: u.now, modifyingEmail: u.caller?.email ?? null };
  if (!options.newRevision && head) {
    await u.tx.updateTable('files_revisions').set({ blob_hash: blob.hash, mime_type: mimeType, modified_at: u.now, modifying_email: revision.modifyingEmail }).where('file_id', '=', file.id).where('id', '=', head.id).execute();
    await u.release(head.blobHash);
  } else {
    const id = newRevisionId();
    await insertRevision(u.tx, { ...revision, id });
    file.headRevisionId = id;
    await pruneRevisions(u, file.id, id);
  }
  file.blobHash = blob.hash;
  file.fileSize = blob.size;
  file.md5 = blob.md5;
  file.extra.contentText = text;
  const image = imageDimensions(blob.data, mimeType);
  if (image) file.extra.imageMediaMetadata = image;
  else delete file.extra.imageMediaMetadata;
  refreshSearchText(file);
}

async function pruneRevisions(u: Unit, fileId: string, headId: string): Promise<void> {
  const unpinned = (await listRevisions(u.tx, fileId)).filter((r) => !r.pinned && r.id !== headId);
  for (const r of unpinned.slice(0, Math.max(0, unpinned.length - KEEP_UNPINNED))) {
    await deleteRevision(u.tx, fileId, r.id);
    await u.release(r.blobHash);
  }
}

export function refreshSearchText(file: FileRecord): void {
  file.searchText = searchText({
    title: file.title,
    description: file.description,
    indexableText: typeof file.extra.indexableText === 'string' ? file.extra.indexableText : undefined,
    contentText: typeof file.extra.contentText === 'string' ? file.extra.contentText : undefined,
  });
}

/** Releases every revision's content of a file (before its rows go). */
export async function releaseAllContent(u: Unit, fileId: string): Promise<void> {
  for (const r of await listRevisions(u.tx, fileId)) await u.release(r.blobHash);
}
