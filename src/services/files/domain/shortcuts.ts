// Shortcuts: files of type application/vnd.google-apps.shortcut that point at another file. Drive sets the target on
// files.insert only and copies the target's MIME type into the shortcut then (a snapshot, never refreshed).
import type { FileRecord } from '../store/files.ts';
import { SHORTCUT } from './mime.ts';

export interface ShortcutDetails {
  targetId: string;
  /** The target's MIME type when the shortcut was made. */
  targetMimeType: string;
}

export const isShortcut = (mime: string): boolean => mime === SHORTCUT;

/** The target a shortcut file records (kept in `extra`), or undefined for any other file. */
export function shortcutOf(file: FileRecord): ShortcutDetails | undefined {
  const details = file.extra.shortcut as Partial<ShortcutDetails> | undefined;
  if (!isShortcut(file.mimeType) || typeof details?.targetId !== 'string' || typeof details.targetMimeType !== 'string') return undefined;
  return { targetId: details.targetId, targetMimeType: details.targetMimeType };
}
