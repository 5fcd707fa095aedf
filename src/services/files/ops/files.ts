// Creating and changing files: insert (with or without content), update/patch, and the parent and label rules they
// share. Every function runs inside a unit of work.
import type { PreparedBlob } from '../../../core/blobs/index.ts';
import { inList } from '../../../core/db/in-list.ts';
import type { FilePatch } from '../domain/file-input.ts';
import { isIdFormat, newFileId } from '../domain/ids.ts';
import { DEFAULT_BINARY, FOLDER, isFolder, isWorkspace } from '../domain/mime.ts';
import { MAX_PER_VISIBILITY } from '../domain/properties.ts';
import { granteeKey, permissionIdForEmail, type Role } from '../domain/roles.ts';
import { appDataNotTrashable, badRequest, conflict, fieldNotWritable, forbidden, insufficientPermissions, invalidValue, notSupportedForAppData, shortcutParentLimit, spacesNotGranted } from '../errors.ts';
import { isShortcut, shortcutOf, type ShortcutDetails } from '../domain/shortcuts.ts';
import type { Space } from '../domain/spaces.ts';
import { newFileRecord, type Unit } from '../service.ts';
import { getFile, insertFile, parentsOf, saveFile, setParents, type FileRecord } from '../store/files.ts';
import { putPermission } from '../store/permissions.ts';
import { recordModification } from '../store/modifications.ts';
import { countProperties, putProperty } from '../store/properties.ts';
import { putContent, refreshSearchText } from './content.ts';
import { checkParents } from './parents.ts';
import { checkTrashable, setTrashed } from './lifecycle.ts';
import { newShortcutTarget } from './shortcuts.ts';

export interface NewContent {
  blob: PreparedBlob;
  mimeType: string;
  /** What fullText searches in it (ops/convert.ts). */
  text: string | undefined;
}

export interface InsertOptions {
  supportsAllDrives: boolean;
  pinned: boolean;
  /** A copy of a shortcut points where its source does, whether or not the target is still there. */
  shortcut?: ShortcutDetails;
}

export const MODIFIED_DATE_BEHAVIORS = ['fromBody', 'fromBodyIfNeeded', 'fromBodyOrNow', 'noChange', 'now', 'nowIfNeeded'] as const;
export type ModifiedDateBehavior = (typeof MODIFIED_DATE_BEHAVIORS)[number];

export interface UpdateOptions extends InsertOptions {
  addParents: string[];
  removeParents: string[];
  newRevision: boolean;
  modifiedDateBehavior?: ModifiedDateBehavior;
  setModifiedDate: boolean;
  updateViewedDate: boolean;
}

export async function createFile(u: Unit, patch: FilePatch, content: NewContent | undefined, options: InsertOptions): Promise<FileRecord> {
  const caller = u.caller!;
  // A file without parents is in the drive space, and so is one placed in My Drive's root by default.
  if (!patch.parents?.length && !caller.spaces.has('drive')) throw spacesNotGranted('parents');
  const { ids: parents, driveId, space = 'drive' } = await checkParents(u, patch.parents ?? [caller.rootId], options.supportsAllDrives);
  const id = patch.id === undefined ? newFileId() : await claimGeneratedId(u, patch.id, space);
  if (patch.trashed && space === 'appDataFolder') throw appDataNotTrashable();
  const mimeType = content?.mimeType ?? patch.mimeType ?? DEFAULT_BINARY;
  if (content && isFolder(mimeType)) throw badRequest('A folder cannot have content.');
  const shortcut = await newShortcutTarget(u, patch, mimeType, parents, { hasContent: content !== undefined, supportsAllDrives: options.supportsAllDrives, given: options.shortcut });
  // Drive names a shortcut made without a title after its target.
  const file = newFileRecord({ id, ownerEmail: driveId ? null : caller.email, driveId, space, title: patch.title ?? shortcut?.title ?? 'Untitled', mimeType, now: u.now });
  if (shortcut) file.extra.shortcut = { targetId: shortcut.targetId, targetMimeType: shortcut.targetMimeType };
  applyMetadata(file, patch);
  if (patch.modifiedDate !== undefined) file.modifiedAt = patch.modifiedDate;
  await markModifiedBy(u, file, file.modifiedAt);
  file.originalFilename = patch.originalFilename ?? (content ? (patch.title ?? null) : null);
  await u.touch(id, 'add');
  if (content) await putContent(u, file, content.blob, content.mimeType, content.text, { newRevision: true, pinned: options.pinned });
  refreshSearchText(file);
  await insertFile(u.tx, file, parents);
  if (!driveId) {
    await putPermission(u.tx, { fileId: id, id: permissionIdForEmail(caller.email), type: 'user', role: 'owner', grantee: granteeKey('user', caller.email), withLink: false, expiresAt: null, createdAt: u.now, version: 1 });
  }
  if (patch.properties) await setProperties(u, id, patch.properties);
  if (patch.lastViewedByMeDate !== undefined) await markViewed(u, id, patch.lastViewedByMeDate);
  const parentTrashed = await u.tx.selectFrom('files_files').select('id').where(inList(u.tx, 'id', parents)).where('trashed', '=', 1).executeTakeFirst();
  if (parentTrashed || patch.trashed) await setTrashed(u, (await getFile(u.tx, id))!, true, patch.trashed === true);
  return (await getFile(u.tx, id))!;
}

export async function updateFile(u: Unit, file: FileRecord, role: Role, patch: FilePatch, content: NewContent | undefined, options: UpdateOptions): Promise<FileRecord> {
  const caller = u.caller!;
  if (file.isRoot && (patch.title !== undefined || patch.parents || options.addParents.length || content)) throw forbidden('The root folder cannot be changed.', 'cannotModifyRoot');
  // Trashing by `labels.trashed` follows the rules of files.trash, checked before anything changes.
  if (patch.trashed !== undefined && patch.trashed !== file.trashed) checkTrashable(file, role);
  // A shortcut's target is set on insert only; a body sent back whole repeats it unchanged.
  if (patch.shortcutTargetId !== undefined && patch.shortcutTargetId !== shortcutOf(file)?.targetId) throw fieldNotWritable('shortcutDetails.targetId');
  if (content && (isShortcut(file.mimeType) || isShortcut(content.mimeType))) throw badRequest('A shortcut has no content.');
  const changed: string[] = [];
  await u.touch(file.id, 'update');
  applyMetadata(file, patch, role);
  if (patch.mimeType !== undefined && patch.mimeType !== file.mimeType && !content) {
    if (isFolder(file.mimeType) || patch.mimeType === FOLDER || isWorkspace(patch.mimeType) || isWorkspace(file.mimeType)) {
      throw badRequest('The MIME type of a folder or a Workspace document cannot be changed.', 'invalidMimeType');
    }
    file.mimeType = patch.mimeType;
  }
  if (patch.parents || options.addParents.length || options.removeParents.length) {
    const current = (await parentsOf(u.tx, [file.id])).get(file.id) ?? [];
    const resolve = (ids: string[]) => ids.map((p) => u.svc.resolveId(caller, p));
    let next = patch.parents ? resolve(patch.parents) : current;
    next = [...new Set([...next.filter((p) => !resolve(options.removeParents).includes(p)), ...resolve(options.addParents)])];
    const added = next.filter((p) => !current.includes(p));
    const { driveId, space } = await checkParents(u, added, options.supportsAllDrives, file.id);
    // Files never move between spaces: into or out of the application data folder.
    if (added.length && space !== file.space) throw notSupportedForAppData();
    if (added.length && driveId !== file.driveId) throw badRequest('Moving items between My Drive and a shared drive is not supported.', 'teamDrivesParentLimit');
    if (next.length === 0 && !file.driveId) next = [file.space === 'appDataFolder' ? caller.appDataId : caller.rootId];
    if (next.length === 0) throw badRequest('A shared drive item must keep a parent.', 'teamDrivesParentLimit');
    if (isShortcut(file.mimeType) && next.length > 1) throw shortcutParentLimit();
    await setParents(u.tx, file.id, next);
    changed.push('parents');
  }
  if (content) {
    if (isFolder(file.mimeType)) throw badRequest('A folder cannot have content.');
    file.mimeType = content.mimeType;
    await putContent(u, file, content.blob, content.mimeType, content.text, { newRevision: options.newRevision, pinned: options.pinned });
    changed.push('content');
  }
  if (patch.properties) {
    await setProperties(u, file.id, patch.properties);
    changed.push('properties');
  }
  if (patch.lastViewedByMeDate !== undefined) await markViewed(u, file.id, patch.lastViewedByMeDate);
  else if (options.updateViewedDate) await markViewed(u, file.id, u.now);
  const dated = modifiedDate(file, patch, options, u.now);
  file.modifiedAt = dated.at;
  // Drive: setting modifiedDate also sets the setter's modifiedByMeDate; any other change is theirs as of now.
  await markModifiedBy(u, file, dated.fromBody ? dated.at : u.now);
  file.version += 1;
  refreshSearchText(file);
  await saveFile(u.tx, file);
  if (patch.trashed !== undefined && patch.trashed !== file.trashed) await setTrashed(u, file, patch.trashed, true);
  await u.touch(file.id, 'update', changed);
  return (await getFile(u.tx, file.id))!;
}

/** The file's next modifiedDate, and whether it is the one the body gave. */
function modifiedDate(file: FileRecord, patch: FilePatch, options: UpdateOptions, now: number): { at: number; fromBody: boolean } {
  // Drive documents setModifiedDate=true as fromBodyOrNow, and fromBody without a value in the body as no change.
  const behavior = options.modifiedDateBehavior ?? (options.setModifiedDate ? 'fromBodyOrNow' : 'now');
  const fromBody = patch.modifiedDate;
  switch (behavior) {
    case 'fromBody':
      return fromBody === undefined ? { at: file.modifiedAt, fromBody: false } : { at: fromBody, fromBody: true };
    case 'fromBodyIfNeeded':
    case 'fromBodyOrNow':
      return fromBody === undefined ? { at: now, fromBody: false } : { at: fromBody, fromBody: true };
    case 'noChange':
      return { at: file.modifiedAt, fromBody: false };
    case 'now':
    case 'nowIfNeeded':
      return { at: now, fromBody: false };
  }
}

/** The caller changed the file: they become its last modifier, and `at` their own `modifiedByMeDate` of it. */
export async function markModifiedBy(u: Unit, file: FileRecord, at: number): Promise<void> {
  const email = u.caller!.email;
  file.lastModifyingEmail = email;
  await recordModification(u.tx, file.id, email, at);
}

function applyMetadata(file: FileRecord, patch: FilePatch, role: Role = 'owner'): void {
  if (patch.title !== undefined) file.title = patch.title;
  if (patch.description !== undefined) file.description = patch.description;
  if (patch.starred !== undefined) file.starred = patch.starred;
  if (patch.hidden !== undefined) file.hidden = patch.hidden;
  if (patch.restricted !== undefined) file.restricted = patch.restricted;
  if (patch.writersCanShare !== undefined) {
    if (role !== 'owner' && role !== 'organizer' && patch.writersCanShare !== file.writersCanShare) throw insufficientPermissions('Only the owner can change who may share the file.');
    file.writersCanShare = patch.writersCanShare;
  }
  if (patch.copyRequiresWriterPermission !== undefined) file.extra.copyRequiresWriterPermission = patch.copyRequiresWriterPermission;
  if (patch.indexableText !== undefined) file.extra.indexableText = patch.indexableText;
  if (patch.folderColorRgb !== undefined) file.extra.folderColorRgb = patch.folderColorRgb;
  if (patch.originalFilename !== undefined) file.originalFilename = patch.originalFilename;
}

async function setProperties(u: Unit, fileId: string, properties: NonNullable<FilePatch['properties']>): Promise<void> {
  for (const p of properties) await putProperty(u.tx, fileId, p);
  for (const visibility of ['PRIVATE', 'PUBLIC'] as const) {
    if ((await countProperties(u.tx, fileId, visibility)) > MAX_PER_VISIBILITY) {
      throw invalidValue('properties', `A file can have at most ${MAX_PER_VISIBILITY} ${visibility.toLowerCase()} properties.`);
    }
  }
}

export async function markViewed(u: Unit, fileId: string, at: number): Promise<void> {
  const email = u.caller!.email;
  await u.tx
    .insertInto('files_views')
    .values({ file_id: fileId, email, viewed_at: at })
    .onConflict((oc) => oc.columns(['file_id', 'email']).doUpdateSet({ viewed_at: at }))
    .execute();
}

/** An id from generateIds, reserved by this caller for the new file's space and not used yet. */
async function claimGeneratedId(u: Unit, id: string, space: Space): Promise<string> {
  if (!isIdFormat(id)) throw invalidValue('id', `The provided file ID is not usable: ${id}`, 'fileIdNotUsable');
  if (await getFile(u.tx, id)) throw conflict('A file already exists with the provided ID.', 'fileIdInUse');
  const claimed = await u.tx.deleteFrom('files_generated_ids').where('id', '=', id).where('email', '=', u.caller!.email).where('space', '=', space).executeTakeFirst();
  if (Number(claimed.numDeletedRows) === 0) throw invalidValue('id', `The provided file ID is not usable: ${id}`, 'fileIdNotUsable');
  return id;
}
