// Trash, untrash, permanent deletion, emptying the trash, copies and touch.
import { subtreeOf, deleteFileRows, getFile, getFiles, rebuildClosure, saveFile, type FileRecord } from '../store/files.ts';
import { getRevision, insertRevision } from '../store/revisions.ts';
import { listProperties } from '../store/properties.ts';
import { SERVICE, type Unit } from '../service.ts';
import { refreshSearchText, releaseAllContent } from './content.ts';
import { createFile, markModifiedBy, type InsertOptions } from './files.ts';
import { inheritedParents } from './parents.ts';
import type { FilePatch } from '../domain/file-input.ts';
import { newRevisionId } from '../domain/ids.ts';
import { atLeast, type Role } from '../domain/roles.ts';
import { appDataNotTrashable, badRequest, fieldNotWritable, insufficientPermissions } from '../errors.ts';
import { isShortcut, shortcutOf } from '../domain/shortcuts.ts';

/**
 * Who may move a file into or out of the trash, by files.trash, files.untrash or `labels.trashed` in an update: its
 * owner, or a file organizer of its shared drive. A root folder never moves, nor a file of the application data folder.
 */
export function checkTrashable(file: FileRecord, role: Role): void {
  if (file.isRoot || (file.driveId && file.id === file.driveId)) throw badRequest('The root folder cannot be trashed.', 'cannotTrashRoot');
  if (file.space === 'appDataFolder') throw appDataNotTrashable();
  if (file.driveId ? !atLeast(role, 'fileOrganizer') : role !== 'owner') throw insufficientPermissions();
}

/**
 * Trashing a folder trashes everything below it; only the target is `explicitlyTrashed`. Untrashing restores the
 * target and the descendants that were not trashed on their own.
 */
export async function setTrashed(u: Unit, target: FileRecord, trashed: boolean, explicit = true): Promise<void> {
  const ids = await subtreeOf(u.tx, target.id);
  const files = await getFiles(u.tx, ids);
  for (const f of files.values()) {
    const isTarget = f.id === target.id;
    if (!trashed && !isTarget && f.explicitlyTrashed) continue;
    if (trashed && f.trashed && !isTarget) continue;
    await u.touch(f.id, trashed ? 'trash' : 'untrash');
    f.trashed = trashed;
    if (isTarget) f.explicitlyTrashed = trashed && explicit;
    f.trashedAt = trashed ? u.now : null;
    f.trashingUser = trashed ? (u.caller?.email ?? null) : null;
    f.version += 1;
    await saveFile(u.tx, f);
  }
  Object.assign(target, files.get(target.id) ?? {});
}

/**
 * Deletes a file for good with the descendants its deleter owns (every descendant in a shared drive, where items have
 * no owner), as Drive does. Other users' files below it survive without the deleted folders as parents; one that was
 * in the trash only through a deleted folder leaves the trash.
 */
export async function deleteTree(u: Unit, rootId: string): Promise<void> {
  const ids = await subtreeOf(u.tx, rootId);
  const files = await getFiles(u.tx, ids);
  const deleter = u.caller?.email;
  const doomed = new Set(ids.filter((id) => id === rootId || files.get(id)?.driveId || files.get(id)?.ownerEmail === deleter));
  const kept = ids.filter((id) => !doomed.has(id));
  for (const id of ids) await (doomed.has(id) ? u.touch(id, 'remove') : u.touch(id, 'update', ['parents']));
  for (const id of doomed) {
    await releaseAllContent(u, id);
    await deleteFileRows(u.tx, id);
  }
  for (const id of kept) await rebuildClosure(u.tx, id);
  for (const id of kept) {
    // Read again: untrashing one survivor also untrashes the survivors below it.
    const f = (await getFile(u.tx, id))!;
    if (f.trashed && !f.explicitlyTrashed && !(await underExplicitTrash(u, id))) await setTrashed(u, f, false, false);
  }
}

/** Whether a folder above the file (not the file itself) was trashed on its own. */
async function underExplicitTrash(u: Unit, fileId: string): Promise<boolean> {
  const row = await u.tx
    .selectFrom('files_ancestors as a')
    .innerJoin('files_files as f', 'f.id', 'a.ancestor_id')
    .select('f.id')
    .where('a.file_id', '=', fileId)
    .where('a.ancestor_id', '<>', fileId)
    .where('f.explicitly_trashed', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Permanently deletes every file the caller owns that sits in the trash (or, with a drive, that drive's trash). */
export async function emptyTrash(u: Unit, driveId?: string): Promise<number> {
  let q = u.tx.selectFrom('files_files').select('id').where('explicitly_trashed', '=', 1);
  q = driveId ? q.where('drive_id', '=', driveId) : q.where('owner_email', '=', u.caller!.email);
  const roots = (await q.execute()).map((r) => r.id as string);
  for (const id of roots) if (await getFile(u.tx, id)) await deleteTree(u, id);
  return roots.length;
}

/** A copy: a new file with the source's metadata, overridden by the body, sharing its head content. */
export async function copyFile(u: Unit, source: FileRecord, patch: FilePatch, options: InsertOptions): Promise<FileRecord> {
  // A copy of a shortcut is a shortcut to the same target (Drive's way to have one in a second folder), and only a
  // shortcut's copy is one: the target is set on insert only.
  const shortcut = shortcutOf(source);
  if (patch.shortcutTargetId !== undefined && patch.shortcutTargetId !== shortcut?.targetId) throw fieldNotWritable('shortcutDetails.targetId');
  if (patch.mimeType !== undefined && patch.mimeType !== source.mimeType && (isShortcut(patch.mimeType) || isShortcut(source.mimeType))) {
    throw badRequest('A copy of a shortcut stays a shortcut, and only a shortcut can be copied as one.', 'invalidMimeType');
  }
  const parents = patch.parents ?? (await inheritedParents(u, source.id));
  const merged: FilePatch = {
    // Drive names a copy made without a title after its source.
    title: `Copy of ${source.title}`,
    description: source.description,
    mimeType: source.mimeType,
    writersCanShare: source.writersCanShare,
    ...patch,
    parents,
    properties: [...(await listProperties(u.tx, [source.id])).map((p) => ({ key: p.key, value: p.value, visibility: p.visibility })), ...(patch.properties ?? [])],
  };
  const copy = await createFile(u, merged, undefined, { ...options, shortcut });
  const head = source.headRevisionId ? await getRevision(u.tx, source.id, source.headRevisionId) : undefined;
  if (head) {
    await u.svc.blobs.retain(u.tx, SERVICE, head.blobHash);
    const id = newRevisionId();
    await insertRevision(u.tx, { fileId: copy.id, id, blobHash: head.blobHash, mimeType: head.mimeType, originalFilename: source.originalFilename, pinned: false, published: false, modifiedAt: u.now, modifyingEmail: u.caller!.email });
    Object.assign(copy, { blobHash: source.blobHash, fileSize: source.fileSize, md5: source.md5, headRevisionId: id, mimeType: head.mimeType, originalFilename: source.originalFilename });
    copy.extra = { ...copy.extra, contentText: source.extra.contentText, imageMediaMetadata: source.extra.imageMediaMetadata };
    refreshSearchText(copy);
    await saveFile(u.tx, copy);
  }
  return (await getFile(u.tx, copy.id))!;
}

/** files.touch, and the mark every other change of the file's metadata leaves: modified now, by the caller. */
export async function touchFile(u: Unit, file: FileRecord): Promise<FileRecord> {
  await u.touch(file.id, 'update');
  file.modifiedAt = u.now;
  await markModifiedBy(u, file, u.now);
  file.version += 1;
  await saveFile(u.tx, file);
  return file;
}
