// Placing a file in folders: the `root` alias, write access to each new parent, folders only, one drive, no cycles.
import { badRequest, fileNotFound, invalidValue } from '../errors.ts';
import { isFolder } from '../domain/mime.ts';
import type { Unit } from '../service.ts';
import { isAncestor } from '../store/files.ts';

/** Checks the parents a file is given and answers the shared drive they are in (null for My Drive). */
export async function checkParents(u: Unit, parents: string[], supportsAllDrives: boolean, fileId?: string): Promise<{ ids: string[]; driveId: string | null }> {
  const caller = u.caller!;
  const ids = [...new Set(parents.map((p) => u.svc.resolveId(caller, p)))];
  let driveId: string | null | undefined;
  for (const [i, id] of ids.entries()) {
    const { file } = await u.svc.access(u.tx, caller, id, { need: 'writer', supportsAllDrives: true, readOnly: true }).catch((err) => {
      if (err?.status === 404) throw fileNotFound(parents[i], 'parents');
      throw err;
    });
    if (file.driveId && !supportsAllDrives) throw fileNotFound(parents[i], 'parents');
    if (!isFolder(file.mimeType)) throw invalidValue('parents', `The parent ${parents[i]} is not a folder.`);
    if (driveId !== undefined && driveId !== file.driveId) throw badRequest('A file cannot have parents in different drives.', 'invalidParent');
    driveId = file.driveId;
    if (fileId && (id === fileId || (await isAncestor(u.tx, fileId, id)))) throw badRequest('A folder cannot be placed inside itself or its own descendants.', 'invalidParent');
  }
  return { ids, driveId: driveId ?? null };
}
