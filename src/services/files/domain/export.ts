import { parse as parseDelimited } from 'csv-parse/sync';
import { own } from '../../../core/own.ts';

// Workspace (Docs Editors) files: the content model they are stored as, what converts into them on upload with
// convert=true, and what they export to.

export const DOCUMENT = 'application/vnd.google-apps.document';
export const SPREADSHEET = 'application/vnd.google-apps.spreadsheet';
export const PRESENTATION = 'application/vnd.google-apps.presentation';
export const DRAWING = 'application/vnd.google-apps.drawing';
export type WorkspaceMime = typeof DOCUMENT | typeof SPREADSHEET | typeof PRESENTATION | typeof DRAWING;

/** The exportLinks Drive v2 advertises for each Workspace type (also About.exportFormats). */
export const EXPORT_FORMATS: Readonly<Record<WorkspaceMime, readonly string[]>> = {
  [DOCUMENT]: [
    'text/plain',
    'text/html',
    'application/rtf',
    'application/vnd.oasis.opendocument.text',
    'application/pdf',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/epub+zip',
    'application/zip',
  ],
  [SPREADSHEET]: [
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/x-vnd.oasis.opendocument.spreadsheet',
    'application/pdf',
    'text/csv',
    'text/tab-separated-values',
    'application/zip',
  ],
  [PRESENTATION]: ['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'application/vnd.oasis.opendocument.presentation', 'application/pdf', 'text/plain'],
  [DRAWING]: ['application/pdf', 'image/png', 'image/jpeg', 'image/svg+xml'],
};

export const PDF = 'application/pdf';
export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The targets this implementation really converts to; a subset of EXPORT_FORMATS. */
const CONVERTERS: Readonly<Record<WorkspaceMime, readonly string[]>> = {
  [DOCUMENT]: ['text/plain', 'text/html', PDF, DOCX],
  [SPREADSHEET]: ['text/csv', 'text/tab-separated-values', PDF, XLSX],
  [PRESENTATION]: ['text/plain', PDF],
  [DRAWING]: ['image/svg+xml', PDF],
};

/** Drive's limit on what one export returns: 10 MB. */
export const EXPORT_LIMIT_BYTES = 10 * 1024 * 1024;

/** Source MIME types an upload with convert=true turns into a Workspace file. */
export const convertibleImports: Readonly<Record<string, WorkspaceMime>> = {
  'text/plain': DOCUMENT,
  'text/html': DOCUMENT,
  'text/csv': SPREADSHEET,
  'text/tab-separated-values': SPREADSHEET,
};

export function isWorkspaceMime(mime: string): mime is WorkspaceMime {
  return Object.hasOwn(EXPORT_FORMATS, mime);
}

/** True when `targetMime` is one this implementation converts the Workspace type to. */
export function canExport(workspaceMime: string, targetMime: string): boolean {
  return isWorkspaceMime(workspaceMime) && CONVERTERS[workspaceMime].includes(targetMime);
}

// ---- content models ----

export type ParagraphStyle = 'NORMAL_TEXT' | 'HEADING_1' | 'HEADING_2' | 'HEADING_3' | 'HEADING_4' | 'HEADING_5' | 'HEADING_6';

/** A paragraph of plain text; a `\n` inside `text` is a line break within the paragraph. */
export interface Paragraph {
  style: ParagraphStyle;
  text: string;
}

export interface DocumentModel {
  kind: 'document';
  paragraphs: Paragraph[];
}

/** One sheet of plain cell values. */
export interface SpreadsheetModel {
  kind: 'spreadsheet';
  rows: string[][];
}

/** Presentations and drawings have no editable content here: they are created empty and export as empty. */
export type WorkspaceContent = DocumentModel | SpreadsheetModel | { kind: 'presentation' } | { kind: 'drawing' };

/** A conversion this implementation does not make; the service answers 400 "The requested conversion is not supported.". */
export class UnsupportedConversionError extends Error {
  override readonly name = 'UnsupportedConversionError';
}

/** An export larger than EXPORT_LIMIT_BYTES; the service answers 403 `exportSizeLimitExceeded`. */
export class ExportTooLargeError extends Error {
  override readonly name = 'ExportTooLargeError';
  constructor(message = 'This file is too large to be exported.') {
    super(message);
  }
}

/** Uploaded bytes that do not convert (a CSV with an unclosed quote); the service answers 400. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
}

const KIND_OF: Readonly<Record<WorkspaceMime, WorkspaceContent['kind']>> = {
  [DOCUMENT]: 'document',
  [SPREADSHEET]: 'spreadsheet',
  [PRESENTATION]: 'presentation',
  [DRAWING]: 'drawing',
};

/** The content of a Workspace file created without an upload. */
export function emptyContent(workspaceMime: WorkspaceMime): WorkspaceContent {
  switch (workspaceMime) {
    case DOCUMENT:
      return { kind: 'document', paragraphs: [] };
    case SPREADSHEET:
      return { kind: 'spreadsheet', rows: [] };
    default:
      return { kind: KIND_OF[workspaceMime] } as WorkspaceContent;
  }
}

/** Converts uploaded bytes for convert=true; the source must be a key of convertibleImports. */
export function importWorkspaceContent(sourceMime: string, data: Buffer): { workspaceMime: WorkspaceMime; content: WorkspaceContent } {
  switch (sourceMime) {
    case 'text/plain':
    case 'text/html':
      return { workspaceMime: DOCUMENT, content: importDocument(sourceMime, data) };
    case 'text/csv':
    case 'text/tab-separated-values':
      return { workspaceMime: SPREADSHEET, content: importSpreadsheet(sourceMime, data) };
    default:
      throw new UnsupportedConversionError(`${sourceMime} does not convert to a Workspace type.`);
  }
}

/**
 * The bytes of a Workspace file exported to a text format (`targetMime`); `title` names the HTML document. PDF is
 * drawn by `pdfOf` (export-pdf.ts), Word and Excel files written by export-office.ts.
 */
export function exportWorkspaceContent(content: WorkspaceContent, targetMime: string, options: { title?: string } = {}): Buffer {
  switch (content.kind) {
    case 'document':
      if (targetMime === 'text/plain' || targetMime === 'text/html') return exportDocument(content, targetMime, options);
      break;
    case 'spreadsheet':
      if (targetMime === 'text/csv' || targetMime === 'text/tab-separated-values') return exportSpreadsheet(content, targetMime);
      break;
    case 'presentation':
      if (targetMime === 'text/plain') return Buffer.alloc(0);
      break;
    case 'drawing':
      if (targetMime === 'image/svg+xml') return Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"/>\n');
      break;
  }
  throw new UnsupportedConversionError(`A ${content.kind} does not export to ${targetMime}.`);
}

/** Stored form of a Workspace file's content. */
export function serializeWorkspaceContent(content: WorkspaceContent): Buffer {
  return Buffer.from(JSON.stringify(content));
}

export function parseWorkspaceContent(stored: Buffer): WorkspaceContent {
  return JSON.parse(stored.toString('utf8')) as WorkspaceContent;
}

// ---- documents ----

export function importDocument(sourceMime: 'text/plain' | 'text/html', data: Buffer): DocumentModel {
  const text = decodeText(data);
  if (sourceMime === 'text/plain') return { kind: 'document', paragraphs: text.split('\n').map((line) => ({ style: 'NORMAL_TEXT', text: line })) };
  return { kind: 'document', paragraphs: new HtmlImport(text).paragraphs };
}

/** text/plain: paragraphs joined by LF. text/html: a minimal document that importDocument reads back unchanged. */
export function exportDocument(doc: DocumentModel, targetMime: 'text/plain' | 'text/html', options: { title?: string } = {}): Buffer {
  if (targetMime === 'text/plain') return Buffer.from(doc.paragraphs.map((p) => p.text).join('\n'));
  const body = doc.paragraphs.map(({ style, text }) => {
    const tag = style === 'NORMAL_TEXT' ? 'p' : `h${style.slice(-1)}`;
    return `<${tag}>${escapeHtml(text)}</${tag}>`;
  });
  // pre-wrap keeps runs of spaces, tabs and newlines as they are, in a browser and in importDocument.
  return Buffer.from(
    `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(options.title ?? '')}</title></head>` +
      `<body style="white-space:pre-wrap">${body.join('')}</body></html>\n`,
  );
}

/** UTF-8 without a byte order mark, with CRLF and CR line ends made LF. */
function decodeText(data: Buffer): string {
  return data.toString('utf8').replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Blocks that are a paragraph of their own: closing one always yields a paragraph, even an empty one. */
const PARAGRAPH_BLOCKS = new Set(['p', 'li', 'pre', ...HEADINGS]);
/** Other elements whose start and end break the flow into paragraphs. */
const CONTAINER_BLOCKS = new Set(
  'address article aside blockquote body caption dd details div dl dt fieldset figcaption figure footer form header hr html main nav ol section table tbody td tfoot th thead tr ul'.split(' '),
);
const VOID_ELEMENTS = new Set('area base br col embed hr img input link meta param source track wbr'.split(' '));
/** Elements whose text is never content. Script, style, title and textarea are raw text to their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea']);
const HIDDEN = new Set(['head', 'template', 'noscript']);
const PRESERVES_WHITESPACE = /white-space\s*:\s*(pre|pre-wrap|pre-line|break-spaces)\b/i;

interface OpenElement {
  tag: string;
  /** Inherited: this element or an ancestor keeps whitespace as written. */
  preserveWhitespace: boolean;
  /** Inherited: the style of the innermost heading around this element. */
  style: ParagraphStyle;
  paragraphsAtOpen: number;
}

/** Deeper elements are read as their content only, so hostile nesting costs linear time. */
const MAX_OPEN_ELEMENTS = 256;

/** A run of text in the paragraph being built; a collapsible run is HTML inter-word whitespace. */
interface Run {
  text: string;
  collapsible: boolean;
  lineBreak?: boolean;
}

/** Reads HTML into paragraphs as a browser would lay them out as blocks; unknown markup is ignored, not refused. */
class HtmlImport {
  readonly paragraphs: Paragraph[] = [];
  private readonly stack: OpenElement[] = [];
  private runs: Run[] = [];
  private hiddenDepth = 0;
  private skipNewline = false;

  constructor(html: string) {
    // The lookahead after a start tag's name keeps the name whole: without it, a `<` followed by a long run of
    // letters and no `>` was retried with every shorter name, the attributes taking the rest (quadratic time).
    const markup = /<!--[\s\S]*?(?:-->|$)|<[!?][^>]*>?|<\/([A-Za-z][A-Za-z0-9-]*)[^>]*>?|<([A-Za-z][A-Za-z0-9-]*)(?![A-Za-z0-9-])((?:[^<>"']|"[^"]*"|'[^']*')*)>/g;
    let at = 0;
    for (let match = markup.exec(html); match !== null; match = markup.exec(html)) {
      this.text(html.slice(at, match.index));
      at = markup.lastIndex;
      if (match[1] !== undefined) this.close(match[1].toLowerCase());
      else if (match[2] !== undefined) {
        const tag = match[2].toLowerCase();
        if (RAW_TEXT.has(tag)) {
          const end = new RegExp(`</${tag}\\s*>`, 'ig');
          end.lastIndex = at;
          at = end.exec(html) === null ? html.length : end.lastIndex;
          markup.lastIndex = at;
        } else {
          this.open(tag, match[3]);
        }
      }
    }
    this.text(html.slice(at));
    while (this.stack.length > 0) this.close(this.stack[this.stack.length - 1].tag);
    this.flush(false, 'NORMAL_TEXT');
  }

  private open(tag: string, attributes: string): void {
    if (tag === 'br') {
      if (this.hiddenDepth === 0) this.runs.push({ text: '\n', collapsible: false, lineBreak: true });
      return;
    }
    if (PARAGRAPH_BLOCKS.has(tag) || CONTAINER_BLOCKS.has(tag)) this.flush(false, this.style());
    if (VOID_ELEMENTS.has(tag) || this.stack.length >= MAX_OPEN_ELEMENTS) return;
    if (HIDDEN.has(tag)) this.hiddenDepth++;
    const css = /\sstyle\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/i.exec(attributes)?.[1] ?? '';
    const parent = this.stack.at(-1);
    this.stack.push({
      tag,
      preserveWhitespace: (parent?.preserveWhitespace ?? false) || tag === 'pre' || PRESERVES_WHITESPACE.test(decodeEntities(css)),
      style: HEADINGS.has(tag) ? (`HEADING_${tag[1]}` as ParagraphStyle) : this.style(),
      paragraphsAtOpen: this.paragraphs.length,
    });
    // As in browsers, a newline right after <pre> is not content.
    this.skipNewline = tag === 'pre';
  }

  private close(tag: string): void {
    let index = this.stack.length - 1;
    while (index >= 0 && this.stack[index].tag !== tag) index--;
    if (index < 0) return;
    while (this.stack.length > index) {
      const element = this.stack[this.stack.length - 1];
      if (PARAGRAPH_BLOCKS.has(element.tag)) {
        this.flush(this.paragraphs.length === element.paragraphsAtOpen, this.style());
      } else if (CONTAINER_BLOCKS.has(element.tag)) {
        this.flush(false, this.style());
      }
      this.stack.pop();
      if (HIDDEN.has(element.tag)) this.hiddenDepth--;
    }
  }

  private text(raw: string): void {
    if (raw === '' || this.hiddenDepth > 0) return;
    let text = decodeEntities(raw.replace(/\r\n?/g, '\n'));
    if (this.skipNewline && text.startsWith('\n')) text = text.slice(1);
    this.skipNewline = false;
    if (this.stack.at(-1)?.preserveWhitespace) {
      if (text !== '') this.runs.push({ text, collapsible: false });
      return;
    }
    for (const piece of text.split(/([ \t\n\f]+)/)) {
      if (piece === '') continue;
      const collapsible = /^[ \t\n\f]/.test(piece);
      if (collapsible && this.runs.at(-1)?.collapsible) continue;
      this.runs.push({ text: collapsible ? ' ' : piece, collapsible });
    }
  }

  /** Ends the paragraph being built; `always` keeps it even when it has no content. */
  private flush(always: boolean, style: ParagraphStyle): void {
    const runs = this.runs;
    this.runs = [];
    // Inter-word whitespace disappears at the start and end of a line.
    const kept = runs.filter((run, i) => !run.collapsible || (i > 0 && i < runs.length - 1 && !runs[i - 1].lineBreak && !runs[i + 1].lineBreak));
    let text = kept.map((run) => run.text).join('');
    // A block holding nothing but <br> is an empty line.
    if (kept.length === 1 && kept[0].lineBreak) text = '';
    // Whitespace alone between blocks is layout, not a paragraph (a no-break space is content).
    const hasContent = /[^ \t\n\f]/.test(text) || kept.some((run) => run.lineBreak);
    if (always || hasContent) this.paragraphs.push({ style, text });
  }

  private style(): ParagraphStyle {
    return this.stack.at(-1)?.style ?? 'NORMAL_TEXT';
  }
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '\u00a9', reg: '\u00ae', trade: '\u2122',
  hellip: '\u2026', mdash: '\u2014', ndash: '\u2013', lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c', rdquo: '\u201d',
  laquo: '\u00ab', raquo: '\u00bb', bull: '\u2022', middot: '\u00b7', euro: '\u20ac', pound: '\u00a3', yen: '\u00a5',
  cent: '\u00a2', sect: '\u00a7', para: '\u00b6', deg: '\u00b0', plusmn: '\u00b1', times: '\u00d7', divide: '\u00f7',
  shy: '\u00ad', iexcl: '\u00a1', iquest: '\u00bf', zwj: '\u200d', zwnj: '\u200c', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009',
};

/** Decodes character references; an unknown named reference stays as written, as browsers leave it. */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,8});?|#[xX]([0-9a-fA-F]{1,7});?|([A-Za-z][A-Za-z0-9]*);)/g, (whole, decimal?: string, hex?: string, name?: string) => {
    // Only the table's own names: `&constructor;` is unknown text, not Object.prototype's member.
    if (name !== undefined) return own(NAMED_ENTITIES, name) ?? whole;
    const code = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
    const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return valid ? String.fromCodePoint(code) : '\ufffd';
  });
}

// ---- spreadsheets ----

/** The most characters a spreadsheet cell holds (Sheets' limit). */
export const MAX_CELL_CHARS = 50_000;

export function importSpreadsheet(sourceMime: 'text/csv' | 'text/tab-separated-values', data: Buffer): SpreadsheetModel {
  const text = decodeText(data);
  const delimiter = sourceMime === 'text/csv' ? ',' : '\t';
  const tooLong = () => new ImportError(`The ${sourceMime} upload has a cell of more than ${MAX_CELL_CHARS} characters, the most a spreadsheet cell holds.`);
  // Checked before parsing: the parser reads a long unquoted cell at about half a second a megabyte. A run this long
  // without a delimiter or line break holds a longer cell even if quoted (quotes and doubled quotes counted).
  if (longestRun(text, delimiter) > 2 * MAX_CELL_CHARS + 2) throw tooLong();
  let rows: string[][];
  try {
    rows = parseDelimited(text, { ...(delimiter === ',' ? {} : { delimiter, quote: false as const }), relax_column_count: true, relax_quotes: true }) as string[][];
  } catch (err) {
    throw new ImportError(`The ${sourceMime} upload cannot be read as rows: ${(err as Error).message}`);
  }
  if (rows.some((row) => row.some((cell) => cell.length > MAX_CELL_CHARS))) throw tooLong();
  return { kind: 'spreadsheet', rows };
}

/** The longest stretch of `text` without `delimiter` or a line break. */
function longestRun(text: string, delimiter: string): number {
  const stop = delimiter.charCodeAt(0);
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === stop || c === 10 || c === 13) run = 0;
    else if (++run > longest) longest = run;
  }
  return longest;
}

/** CSV as RFC 4180 (fields quoted when needed, CRLF between rows); TSV with tabs and line breaks in cells made spaces. */
export function exportSpreadsheet(sheet: SpreadsheetModel, targetMime: 'text/csv' | 'text/tab-separated-values'): Buffer {
  const lines = sheet.rows.map((row) => {
    if (targetMime === 'text/tab-separated-values') return row.map((cell) => cell.replace(/[\t\r\n]/g, ' ')).join('\t');
    // A row of one empty cell is written "" so it is not read back as no row at all.
    if (row.length === 1 && row[0] === '') return '""';
    return row.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(',');
  });
  return Buffer.from(lines.join(targetMime === 'text/csv' ? '\r\n' : '\n'));
}
