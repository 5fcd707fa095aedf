// The wire shapes of Drive v2 resources, built from stored records for one caller.
import { sql, type Kysely } from 'kysely';
import { inList } from '../../core/db/in-list.ts';
import { etagOf } from './domain/etag.ts';
import { fileExtension, isFolder, isWorkspace } from './domain/mime.ts';
import { isShortcut, shortcutOf } from './domain/shortcuts.ts';
import { atLeast, permissionIdForEmail, wireRole, type Role } from './domain/roles.ts';
import type { FilesService } from './service.ts';
import { rolesOf } from './store/access.ts';
import { parentsOf, type FileRecord } from './store/files.ts';
import { modificationsBy } from './store/modifications.ts';
import { granteeValue, listPermissions, type PermissionRecord } from './store/permissions.ts';
import { listProperties, type PropertyRecord } from './store/properties.ts';
import type { RevisionRecord } from './store/revisions.ts';
import type { Caller, DriveUser } from './users.ts';
import { preparedByShape } from '../../core/db/prepared.ts';

export const API_PATH = '/storage/v2';
export const iso = (ms: number | null | undefined): string | undefined => (ms === null || ms === undefined ? undefined : new Date(ms).toISOString());

/** Everything a File resource needs beside its row, loaded for a page of files at once. */
export interface FileContext {
  parents: string[];
  role: Role | undefined;
  permissions: PermissionRecord[];
  properties: PropertyRecord[];
  viewedAt: number | undefined;
  /** The caller's own last change of the file. */
  modifiedByMeAt: number | undefined;
}

type View = { file_id: string; viewed_at: number };
const viewsQuery = preparedByShape<View>();

/** `roles`: the caller's roles when already known (the access check just read them), which saves their query. */
export async function loadContexts(db: Kysely<any>, caller: Caller, files: FileRecord[], now: number, roles?: Map<string, Role>): Promise<Map<string, FileContext>> {
  const ids = files.map((f) => f.id);
  const [parents, roleOf, permissions, properties, views, modifications] = await Promise.all([
    parentsOf(db, ids),
    roles && ids.every((id) => roles.has(id)) ? roles : rolesOf(db, ids, caller.keys, now),
    listPermissions(db, ids),
    listProperties(db, ids),
    ids.length ? viewsQuery(db, [ids], [...ids, caller.email], (d) => sql<View>`select file_id, viewed_at from files_views where ${inList(d, 'file_id', ids)} and email = ${caller.email}`).then((r) => r.rows) : [],
    modificationsBy(db, ids, caller.email),
  ]);
  const out = new Map<string, FileContext>();
  for (const id of ids) {
    out.set(id, {
      parents: parents.get(id) ?? [],
      role: roleOf.get(id),
      permissions: permissions.filter((p) => p.fileId === id),
      properties: properties.filter((p) => p.fileId === id),
      viewedAt: views.find((v: any) => v.file_id === id)?.viewed_at as number | undefined,
      modifiedByMeAt: modifications.get(id),
    });
  }
  return out;
}

export function userJson(user: DriveUser, caller?: Caller): Record<string, unknown> {
  return {
    kind: 'drive#user',
    displayName: user.name,
    emailAddress: user.email,
    permissionId: permissionIdForEmail(user.email),
    isAuthenticatedUser: caller !== undefined && caller.email === user.email,
  };
}

export function parentJson(base: string, fileId: string, parentId: string, rootId: string): Record<string, unknown> {
  return {
    kind: 'drive#parentReference',
    id: parentId,
    selfLink: `${base}${API_PATH}/files/${fileId}/parents/${parentId}`,
    parentLink: `${base}${API_PATH}/files/${parentId}`,
    isRoot: parentId === rootId,
  };
}

export function childJson(base: string, folderId: string, childId: string): Record<string, unknown> {
  return { kind: 'drive#childReference', id: childId, selfLink: `${base}${API_PATH}/files/${folderId}/children/${childId}`, childLink: `${base}${API_PATH}/files/${childId}` };
}

export async function permissionJson(svc: FilesService, p: PermissionRecord): Promise<Record<string, unknown>> {
  const value = granteeValue(p);
  const out: Record<string, unknown> = {
    kind: 'drive#permission',
    etag: etagOf(`${p.fileId}/${p.id}`, p.version),
    id: p.id,
    selfLink: `${svc.ctx.baseUrl}${API_PATH}/files/${p.fileId}/permissions/${p.id}`,
    type: p.type,
    ...wireRole(p.role),
    withLink: p.withLink,
  };
  if (p.type === 'user' || p.type === 'group') {
    const user = await svc.users.describe(value!);
    out.emailAddress = value;
    out.name = user.name;
    out.domain = user.domain;
  }
  if (p.type === 'domain') {
    out.domain = value;
    out.name = value;
  }
  if (p.expiresAt !== null) out.expirationDate = iso(p.expiresAt);
  return out;
}

export function propertyJson(base: string, p: PropertyRecord): Record<string, unknown> {
  return {
    kind: 'drive#property',
    etag: etagOf(`${p.fileId}/${p.visibility}/${p.key}`, p.version),
    selfLink: `${base}${API_PATH}/files/${p.fileId}/properties/${encodeURIComponent(p.key)}?visibility=${p.visibility}`,
    key: p.key,
    value: p.value,
    visibility: p.visibility,
  };
}

/** `content`: the size and MD5 of the revision's bytes, which only binary revisions show (as Drive's File does). */
export async function revisionJson(svc: FilesService, caller: Caller, r: RevisionRecord, content: { size: number; md5: string }): Promise<Record<string, unknown>> {
  const base = svc.ctx.baseUrl;
  const out: Record<string, unknown> = {
    kind: 'drive#revision',
    etag: etagOf(`${r.fileId}/rev/${r.id}`, (r.pinned ? 2 : 1) + (r.published ? 4 : 0)),
    id: r.id,
    selfLink: `${base}${API_PATH}/files/${r.fileId}/revisions/${r.id}`,
    mimeType: r.mimeType,
    modifiedDate: iso(r.modifiedAt),
    pinned: r.pinned,
    published: r.published,
    publishAuto: false,
    publishedOutsideDomain: false,
  };
  if (r.originalFilename !== null) out.originalFilename = r.originalFilename;
  if (!isWorkspace(r.mimeType)) {
    out.md5Checksum = content.md5;
    out.fileSize = String(content.size);
    out.downloadUrl = `${base}${API_PATH}/files/${r.fileId}?alt=media&revisionId=${r.id}`;
  }
  if (r.modifyingEmail) {
    const user = await svc.users.describe(r.modifyingEmail);
    out.lastModifyingUser = userJson(user, caller);
    out.lastModifyingUserName = user.name;
  }
  return out;
}

export async function fileJson(svc: FilesService, caller: Caller, f: FileRecord, c: FileContext, exportTargets: (mime: string) => string[]): Promise<Record<string, unknown>> {
  const base = svc.ctx.baseUrl;
  const self = `${base}${API_PATH}/files/${f.id}`;
  const role = c.role;
  const ownedByMe = f.ownerEmail !== null && f.ownerEmail === caller.email;
  const canEdit = atLeast(role, 'writer');
  const shortcut = shortcutOf(f);
  // A shortcut's permissions cannot be changed directly (it has its parent's access).
  const canShare = !isShortcut(f.mimeType) && (atLeast(role, 'organizer') || role === 'owner' || (canEdit && f.writersCanShare));
  const binary = !isWorkspace(f.mimeType) && f.blobHash !== null;
  const direct = c.permissions.find((p) => caller.keys.includes(p.grantee) && p.role !== 'owner');
  const out: Record<string, unknown> = {
    kind: 'drive#file',
    id: f.id,
    etag: etagOf(f.id, f.version),
    selfLink: self,
    alternateLink: `${base}/file/d/${f.id}/view`,
    iconLink: `${base}/icons/${encodeURIComponent(f.mimeType)}.png`,
    title: f.title,
    mimeType: f.mimeType,
    labels: { starred: f.starred, hidden: f.hidden, trashed: f.trashed, restricted: f.restricted, viewed: c.viewedAt !== undefined },
    createdDate: iso(f.createdAt),
    modifiedDate: iso(f.modifiedAt),
    version: String(f.version),
    parents: c.parents.map((p) => parentJson(base, f.id, p, caller.rootId)),
    explicitlyTrashed: f.explicitlyTrashed,
    quotaBytesUsed: String(f.driveId || !binary ? 0 : (f.fileSize ?? 0)),
    ownedByMe,
    editable: canEdit,
    copyable: !isFolder(f.mimeType),
    canComment: atLeast(role, 'commenter'),
    shareable: canShare,
    writersCanShare: f.writersCanShare,
    copyRequiresWriterPermission: f.extra.copyRequiresWriterPermission === true,
    shared: c.permissions.some((p) => p.role !== 'owner'),
    appDataContents: f.space === 'appDataFolder',
    spaces: [f.space],
    userPermission: {
      kind: 'drive#permission',
      id: 'me',
      selfLink: `${self}/permissions/me`,
      type: 'user',
      ...(role ? wireRole(role) : { role: 'reader' }),
    },
    capabilities: {
      canAddChildren: isFolder(f.mimeType) && canEdit,
      canChangeCopyRequiresWriterPermission: canEdit,
      canComment: atLeast(role, 'commenter'),
      canCopy: !isFolder(f.mimeType),
      canDelete: f.driveId ? atLeast(role, 'organizer') : ownedByMe,
      canDownload: true,
      canEdit,
      canListChildren: isFolder(f.mimeType),
      canModifyContent: canEdit,
      canMoveItemWithinDrive: canEdit,
      canReadRevisions: true,
      canRemoveChildren: isFolder(f.mimeType) && canEdit,
      canRename: canEdit,
      canShare,
      canTrash: f.driveId ? atLeast(role, 'fileOrganizer') : ownedByMe,
      canUntrash: f.driveId ? atLeast(role, 'fileOrganizer') : ownedByMe,
    },
    properties: c.properties.map((p) => propertyJson(base, p)),
  };
  if (f.description !== null) out.description = f.description;
  if (c.modifiedByMeAt !== undefined) out.modifiedByMeDate = iso(c.modifiedByMeAt);
  if (c.viewedAt !== undefined) out.lastViewedByMeDate = iso(c.viewedAt);
  if (direct && !ownedByMe) out.sharedWithMeDate = iso(direct.createdAt);
  if (f.trashed && f.trashedAt !== null) out.trashedDate = iso(f.trashedAt);
  if (f.trashingUser) out.trashingUser = userJson(await svc.users.describe(f.trashingUser), caller);
  if (f.driveId) {
    out.driveId = f.driveId;
    out.teamDriveId = f.driveId;
  }
  if (f.ownerEmail) {
    const owner = await svc.users.describe(f.ownerEmail);
    out.owners = [userJson(owner, caller)];
    out.ownerNames = [owner.name];
  } else {
    out.owners = [];
    out.ownerNames = [];
  }
  if (f.lastModifyingEmail) {
    const last = await svc.users.describe(f.lastModifyingEmail);
    out.lastModifyingUser = userJson(last, caller);
    out.lastModifyingUserName = last.name;
  }
  if (binary) {
    out.downloadUrl = `${self}?alt=media`;
    out.webContentLink = `${base}/uc?id=${f.id}&export=download`;
    out.md5Checksum = f.md5;
    out.fileSize = String(f.fileSize ?? 0);
    out.headRevisionId = f.headRevisionId;
    if (f.extra.imageMediaMetadata) out.imageMediaMetadata = f.extra.imageMediaMetadata;
  }
  if (f.originalFilename !== null) out.originalFilename = f.originalFilename;
  const ext = isFolder(f.mimeType) || isWorkspace(f.mimeType) ? undefined : fileExtension(f.title);
  if (ext) Object.assign(out, ext);
  if (isWorkspace(f.mimeType)) {
    const targets = exportTargets(f.mimeType);
    if (targets.length) out.exportLinks = Object.fromEntries(targets.map((t) => [t, `${self}/export?mimeType=${encodeURIComponent(t)}`]));
  }
  if (typeof f.extra.folderColorRgb === 'string') out.folderColorRgb = f.extra.folderColorRgb;
  if (shortcut) out.shortcutDetails = { targetId: shortcut.targetId, targetMimeType: shortcut.targetMimeType };
  return out;
}
