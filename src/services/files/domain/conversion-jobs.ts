// The conversions a request may wait long for (a 100 MB CSV takes seconds), as functions of plain values so that
// ops/convert.ts can run them on a worker thread: arguments arrive there as byte arrays, and results go back whole.
import { asBuffer } from '../../../core/thread-bytes.ts';
import { docxOf, xlsxOf } from './export-office.ts';
import { pdfOf } from './export-pdf.ts';
import {
  DOCX,
  EXPORT_LIMIT_BYTES,
  ExportTooLargeError,
  PDF,
  XLSX,
  canExport,
  exportWorkspaceContent,
  importWorkspaceContent,
  isWorkspaceMime,
  parseWorkspaceContent,
  serializeWorkspaceContent,
  type WorkspaceContent,
} from './export.ts';
import { isWorkspace } from './mime.ts';
import { MAX_CONTENT_TEXT, cutContentText, isTextual } from './search-text.ts';

export interface ConvertedUpload {
  data: Buffer;
  mimeType: string;
  /** What fullText searches in it (cut to what is kept). */
  text: string;
}

/** An upload converted to the Workspace type its source converts to (a key of convertibleImports). */
export function importUpload(sourceMime: string, data: Uint8Array): ConvertedUpload {
  const imported = importWorkspaceContent(sourceMime, asBuffer(data));
  return { data: serializeWorkspaceContent(imported.content), mimeType: imported.workspaceMime, text: textOfWorkspace(imported.content, imported.workspaceMime) };
}

/**
 * A stored Workspace file exported to `target`: UnsupportedConversionError when it does not export so,
 * ExportTooLargeError when the export would pass Drive's limit.
 */
export async function exportStored(stored: Uint8Array, target: string, title: string): Promise<Buffer> {
  const content = parseWorkspaceContent(asBuffer(stored));
  let out: Buffer;
  if (target === PDF) out = await pdfOf(content, title, EXPORT_LIMIT_BYTES);
  else if (target === DOCX && content.kind === 'document') out = await docxOf(content, title);
  else if (target === XLSX && content.kind === 'spreadsheet') out = await xlsxOf(content);
  else out = exportWorkspaceContent(content, target, { title });
  if (out.length > EXPORT_LIMIT_BYTES) throw new ExportTooLargeError();
  return out;
}

/** What fullText searches in content of this type: textual bytes as UTF-8, a Workspace file's text; cut. */
export function contentText(data: Uint8Array, mime: string): string | undefined {
  if (isWorkspaceMime(mime)) return textOfWorkspace(parseWorkspaceContent(asBuffer(data)), mime);
  if (!isTextual(mime) && !isWorkspace(mime)) return undefined;
  // Only the searched part is decoded: at most four bytes a character.
  return cutContentText(asBuffer(data).toString('utf8', 0, Math.min(data.byteLength, MAX_CONTENT_TEXT * 4)));
}

function textOfWorkspace(content: WorkspaceContent, mime: string): string {
  for (const target of ['text/plain', 'text/csv']) {
    if (canExport(mime, target)) return cutContentText(exportWorkspaceContent(content, target).toString('utf8'));
  }
  return '';
}
