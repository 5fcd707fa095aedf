// The file storage's use of Workspace conversion: uploads with convert=true, Workspace files created empty, the
// text fullText searches, and exports.
import {
  EXPORT_FORMATS,
  ImportError,
  UnsupportedConversionError,
  canExport,
  convertibleImports,
  emptyContent,
  exportWorkspaceContent,
  importWorkspaceContent,
  isWorkspaceMime,
  parseWorkspaceContent,
  serializeWorkspaceContent,
} from '../domain/export.ts';
import { isWorkspace } from '../domain/mime.ts';
import { badRequest, invalidValue } from '../errors.ts';

export const IMPORT_FORMATS = convertibleImports;

/**
 * The bytes and MIME type to store for an upload. `convert` (or a Workspace type named in the metadata) turns a
 * convertible source into that Workspace type; otherwise the metadata's type, else the media's, is kept.
 */
export function prepareUpload(data: Buffer, mediaMime: string, convert: boolean, requestedMime: string | undefined): { data: Buffer; mimeType: string } {
  const wantsWorkspace = requestedMime !== undefined && isWorkspace(requestedMime);
  if (convert || wantsWorkspace) {
    const target = convertibleImports[mediaMime];
    if (target && (!wantsWorkspace || requestedMime === target)) {
      let imported: ReturnType<typeof importWorkspaceContent>;
      try {
        imported = importWorkspaceContent(mediaMime, data);
      } catch (err) {
        // Content that does not convert (an unclosed quote, an over-long cell) is the caller's to fix.
        if (err instanceof ImportError) throw badRequest(err.message);
        throw err;
      }
      return { data: serializeWorkspaceContent(imported.content), mimeType: imported.workspaceMime };
    }
    if (wantsWorkspace) throw badRequest('The requested conversion is not supported.');
  }
  return { data, mimeType: requestedMime ?? mediaMime };
}

/** The stored content of a Workspace file created without an upload; undefined for other types. */
export function emptyWorkspaceContent(mime: string): Buffer | undefined {
  if (!isWorkspaceMime(mime)) return undefined;
  return serializeWorkspaceContent(emptyContent(mime));
}

export const exportTargets = (mime: string): string[] => (isWorkspaceMime(mime) ? [...EXPORT_FORMATS[mime]] : []);

export const exportFormatsList = () => Object.entries(EXPORT_FORMATS).map(([source, targets]) => ({ source, targets: [...targets] }));

export function exportFile(stored: Buffer, mime: string, target: string, title: string): Buffer {
  if (!canExport(mime, target)) throw invalidValue('mimeType', 'The requested conversion is not supported.', 'badRequest');
  try {
    return exportWorkspaceContent(parseWorkspaceContent(stored), target, { title });
  } catch (err) {
    if (err instanceof UnsupportedConversionError) throw invalidValue('mimeType', 'The requested conversion is not supported.', 'badRequest');
    throw err;
  }
}

/** Text of content for fullText: textual bytes as UTF-8, a Workspace file's plain-text (or CSV) export. */
export function documentText(data: Buffer, mime: string): string {
  if (!isWorkspaceMime(mime)) return data.toString('utf8');
  for (const target of ['text/plain', 'text/csv']) {
    if (canExport(mime, target)) return exportWorkspaceContent(parseWorkspaceContent(data), target).toString('utf8');
  }
  return '';
}
