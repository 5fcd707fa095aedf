// MIME types the file storage treats specially, and the checks on caller-supplied ones.
export const FOLDER = 'application/vnd.google-apps.folder';
export const SHORTCUT = 'application/vnd.google-apps.shortcut';
export const WORKSPACE_PREFIX = 'application/vnd.google-apps.';
export const DEFAULT_BINARY = 'application/octet-stream';

export const isFolder = (mime: string): boolean => mime === FOLDER;
/** Docs Editors and other Workspace types: no binary content to download, only exports. */
export const isWorkspace = (mime: string): boolean => mime.startsWith(WORKSPACE_PREFIX);

const MIME = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;

/** A bare `type/subtype` (parameters dropped), or undefined when malformed. */
export function normaliseMime(value: string): string | undefined {
  const bare = value.split(';')[0].trim().toLowerCase();
  return MIME.test(bare) ? bare : undefined;
}

export function fileExtension(title: string): { fileExtension: string; fullFileExtension: string } | undefined {
  const dot = title.indexOf('.', 1);
  if (dot < 0 || dot === title.length - 1) return undefined;
  const full = title.slice(dot + 1);
  return { fullFileExtension: full, fileExtension: full.slice(full.lastIndexOf('.') + 1) };
}
