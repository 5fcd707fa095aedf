// What a new file records of its target when it is a shortcut, and the checks Drive makes on the way.
import { ApiError } from '../../../core/errors.ts';
import type { FilePatch } from '../domain/file-input.ts';
import { SHORTCUT } from '../domain/mime.ts';
import { isShortcut, type ShortcutDetails } from '../domain/shortcuts.ts';
import { badRequest, fileNotFound, invalidValue, requiredValue, shortcutParentLimit } from '../errors.ts';
import type { Unit } from '../service.ts';

const TARGET = 'shortcutDetails.targetId';

/**
 * The target of a file being created: for a shortcut, `given` (a copy keeps its source's) or the file the body names,
 * which the caller must be able to see; undefined for any other file, which may not name a target. `title` is the
 * target's, which Drive gives a shortcut made without one.
 */
export async function newShortcutTarget(
  u: Unit,
  patch: FilePatch,
  mimeType: string,
  parents: string[],
  options: { hasContent: boolean; supportsAllDrives: boolean; given?: ShortcutDetails },
): Promise<(ShortcutDetails & { title?: string }) | undefined> {
  if (!isShortcut(mimeType)) {
    if (patch.shortcutTargetId !== undefined) throw invalidValue(TARGET, `Only a shortcut (mimeType ${SHORTCUT}) has a target.`);
    return undefined;
  }
  if (options.hasContent) throw badRequest('A shortcut has no content.');
  if (parents.length > 1) throw shortcutParentLimit();
  if (options.given) return options.given;
  if (patch.shortcutTargetId === undefined) throw requiredValue(TARGET, `Required: ${TARGET} (a shortcut must name its target).`);
  let target;
  try {
    target = (await u.svc.access(u.tx, u.caller!, patch.shortcutTargetId, { supportsAllDrives: options.supportsAllDrives, readOnly: true })).file;
  } catch (err) {
    // A target the caller cannot see is unknown to them, reported against the field that names it.
    if (err instanceof ApiError && err.status === 404) throw fileNotFound(patch.shortcutTargetId, TARGET);
    throw err;
  }
  if (isShortcut(target.mimeType)) throw invalidValue(TARGET, 'A shortcut cannot point to another shortcut.');
  return { targetId: target.id, targetMimeType: target.mimeType, title: target.title };
}
