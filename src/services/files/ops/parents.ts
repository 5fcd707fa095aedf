// Placing a file in folders: the `root` alias, write access to each new parent, folders only, one drive, no cycles.
import { badRequest, fileNotFound, insufficientPermissions, invalidValue, notSupportedForAppData } from '../errors.ts';
import type { Space } from '../domain/spaces.ts';
import { isFolder } from '../domain/mime.ts';
import { atLeast } from '../domain/roles.ts';
import type { Unit } from '../service.ts';
import { rolesOf } from '../store/access.ts';
import { getFiles, isAncestor, parentsOf } from '../store/files.ts';

/**
 * Checks the parents a file is given and answers the shared drive they are in (null for My Drive) and their space
 * (undefined without parents); parents in two spaces are refused as Drive refuses a move between them. The folders and
 * the caller's roles on them are read in one query each, however many parents the request names; on PostgreSQL the
 * folders stay locked (shared) until the commit, as `access` locks one.
 */
export async function checkParents(u: Unit, parents: string[], supportsAllDrives: boolean, fileId?: string): Promise<{ ids: string[]; driveId: string | null; space: Space | undefined }> {
  const caller = u.caller!;
  const ids = [...new Set(parents.map((p) => u.svc.resolveId(caller, p)))];
  const folders = await getFiles(u.tx, ids, u.svc.ctx.db.dialect === 'postgres' ? 'share' : undefined);
  const roles = await rolesOf(u.tx, ids, caller.keys, u.svc.now());
  let driveId: string | null | undefined;
  let space: Space | undefined;
  for (const [i, id] of ids.entries()) {
    const file = folders.get(id);
    const role = roles.get(id);
    // What `access` answers: no file or no role is a 404 (named after the parents field), a weaker role a 403.
    if (!file || !role || !caller.spaces.has(file.space)) throw fileNotFound(parents[i], 'parents');
    if (!atLeast(role, 'writer')) throw insufficientPermissions();
    if (file.driveId && !supportsAllDrives) throw fileNotFound(parents[i], 'parents');
    if (!isFolder(file.mimeType)) throw invalidValue('parents', `The parent ${parents[i]} is not a folder.`);
    if (driveId !== undefined && driveId !== file.driveId) throw badRequest('A file cannot have parents in different drives.', 'invalidParent');
    driveId = file.driveId;
    if (space !== undefined && space !== file.space) throw notSupportedForAppData();
    space = file.space;
    if (fileId && (id === fileId || (await isAncestor(u.tx, fileId, id)))) throw badRequest('A folder cannot be placed inside itself or its own descendants.', 'invalidParent');
  }
  return { ids, driveId: driveId ?? null, space };
}

/**
 * Where a copy made without `parents` goes: the source's parents that the caller can see and add files to (Drive's
 * "inherits any discoverable parent of the source file"); undefined when there is none, so the copy goes to the
 * caller's root as an insert would.
 */
export async function inheritedParents(u: Unit, sourceId: string): Promise<string[] | undefined> {
  const parents = (await parentsOf(u.tx, [sourceId])).get(sourceId) ?? [];
  const roles = await rolesOf(u.tx, parents, u.caller!.keys, u.svc.now());
  const writable = parents.filter((id) => atLeast(roles.get(id), 'writer'));
  return writable.length ? writable : undefined;
}
