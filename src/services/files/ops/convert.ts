// The file storage's use of Workspace conversion: uploads with convert=true, Workspace files created empty, the
// text fullText searches, and exports. Conversions of large content run on a worker thread (core/off-loop.ts): a
// 100 MB CSV took six seconds, during which no service in the process answered.
import { OffLoop } from '../../../core/off-loop.ts';
import { own } from '../../../core/own.ts';
import * as jobs from '../domain/conversion-jobs.ts';
import {
  EXPORT_FORMATS,
  DOCX,
  ExportTooLargeError,
  ImportError,
  PDF,
  XLSX,
  UnsupportedConversionError,
  canExport,
  convertibleImports,
  emptyContent,
  isWorkspaceMime,
  serializeWorkspaceContent,
} from '../domain/export.ts';
import { isWorkspace } from '../domain/mime.ts';
import { badRequest, forbidden, invalidValue } from '../errors.ts';

export const IMPORT_FORMATS = convertibleImports;

/** Content smaller than this converts in place: a worker's round trip costs more than converting it. */
export const IN_PLACE_BYTES = 64 * 1024;
/**
 * The same for the formats that are drawn or zipped, by target: PDF drawing is slower than the text exports (a 60 KB
 * document took 130 ms, a one-line one about 1 ms); a Word or Excel file of a few lines took 8 and 5 ms.
 */
const IN_PLACE_BYTES_OF: Readonly<Record<string, number>> = { [PDF]: 1024, [DOCX]: 0, [XLSX]: 0 };

const offLoop = new OffLoop(new URL('../domain/conversion-jobs.ts', import.meta.url), jobs, { errors: [ImportError, UnsupportedConversionError, ExportTooLargeError] });

/** Bytes to store, their type, and what fullText searches in them. */
export interface PreparedUpload {
  data: Buffer;
  mimeType: string;
  text: string | undefined;
}

/**
 * The bytes and MIME type to store for an upload. `convert` (or a Workspace type named in the metadata) turns a
 * convertible source into that Workspace type; otherwise the metadata's type, else the media's, is kept.
 */
export async function prepareUpload(data: Buffer, mediaMime: string, convert: boolean, requestedMime: string | undefined): Promise<PreparedUpload> {
  const wantsWorkspace = requestedMime !== undefined && isWorkspace(requestedMime);
  if (convert || wantsWorkspace) {
    const target = convertibleImports[mediaMime];
    if (target && (!wantsWorkspace || requestedMime === target)) {
      try {
        return await offLoop.run('importUpload', [mediaMime, data], data.length < IN_PLACE_BYTES);
      } catch (err) {
        // Content that does not convert (an unclosed quote, an over-long cell) is the caller's to fix.
        if (err instanceof ImportError) throw badRequest(err.message);
        throw err;
      }
    }
    if (wantsWorkspace) throw badRequest('The requested conversion is not supported.');
  }
  const mimeType = requestedMime ?? mediaMime;
  return { data, mimeType, text: await contentText(data, mimeType) };
}

/** What fullText searches in stored content of this type (undefined: not searched). */
export function contentText(data: Buffer, mimeType: string): Promise<string | undefined> {
  // Only a Workspace file's text is computed: other text is its first bytes, decoded in place.
  return offLoop.run('contentText', [data, mimeType], !isWorkspaceMime(mimeType) || data.length < IN_PLACE_BYTES);
}

/**
 * The stored content of a file created without an upload: an empty document or spreadsheet, or no bytes for a binary
 * type (Drive creates an empty file: size 0, the MD5 of nothing, downloadable). Undefined for folders and the other
 * Workspace types, which hold no content.
 */
export function emptyFileContent(mime: string): PreparedUpload | undefined {
  if (isWorkspaceMime(mime)) return { data: serializeWorkspaceContent(emptyContent(mime)), mimeType: mime, text: '' };
  if (isWorkspace(mime)) return undefined;
  return { data: Buffer.alloc(0), mimeType: mime, text: undefined };
}

export const exportTargets = (mime: string): string[] => (isWorkspaceMime(mime) ? [...EXPORT_FORMATS[mime]] : []);

export const exportFormatsList = () => Object.entries(EXPORT_FORMATS).map(([source, targets]) => ({ source, targets: [...targets] }));

export async function exportFile(stored: Buffer, mime: string, target: string, title: string): Promise<Buffer> {
  if (!canExport(mime, target)) throw invalidValue('mimeType', 'The requested conversion is not supported.', 'badRequest');
  try {
    return await offLoop.run('exportStored', [stored, target, title], stored.length < (own(IN_PLACE_BYTES_OF, target) ?? IN_PLACE_BYTES));
  } catch (err) {
    if (err instanceof UnsupportedConversionError) throw invalidValue('mimeType', 'The requested conversion is not supported.', 'badRequest');
    // Drive's own answer to an export past its 10 MB limit.
    if (err instanceof ExportTooLargeError) throw forbidden(err.message, 'exportSizeLimitExceeded');
    throw err;
  }
}
