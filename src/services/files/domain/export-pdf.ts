// PDF export of Workspace files, drawn with PDFKit on Letter pages with one-inch margins (Docs' default page): a
// document's paragraphs in Docs' default sizes for each style, a spreadsheet as a grid of its cells, and a
// presentation or drawing (which hold no content here) as one blank page. Text is set in the PDF standard fonts
// (Helvetica), which hold the Windows-1252 characters only: any other character is written as '?'.
import { ExportTooLargeError, type DocumentModel, type ParagraphStyle, type SpreadsheetModel, type WorkspaceContent } from './export.ts';

const MARGIN = 72;
/** Docs' default sizes of each paragraph style, in points. */
const FONT_SIZE: Readonly<Record<ParagraphStyle, number>> = {
  NORMAL_TEXT: 11,
  HEADING_1: 20,
  HEADING_2: 16,
  HEADING_3: 14,
  HEADING_4: 12,
  HEADING_5: 11,
  HEADING_6: 11,
};
const SHEET_FONT_SIZE = 10;
const SHEET_ROW_HEIGHT = 16;
const MIN_COLUMN_WIDTH = 60;
/** A cell never shows more than this many characters, however wide its column: bounds the work of a long cell. */
const MAX_CELL_SHOWN = 200;

/** The PDF of `content`; ExportTooLargeError as soon as it grows past `limitBytes`. */
export async function pdfOf(content: WorkspaceContent, title: string, limitBytes: number): Promise<Buffer> {
  // Loaded on the first export, not at every start of the program.
  const { default: PDFDocument } = await import('pdfkit');
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'LETTER', margin: MARGIN, info: { Title: title }, autoFirstPage: true });
    const chunks: Buffer[] = [];
    let size = 0;
    doc.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    });
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    // Checked between paragraphs and rows: PDFKit writes each finished page's objects as it goes
    // (until the stream flows, on the next tick, what PDFKit writes waits in its buffer).
    const tooLarge = () => size + doc.readableLength > limitBytes;
    try {
      if (content.kind === 'document') drawDocument(doc, content, tooLarge);
      else if (content.kind === 'spreadsheet') drawSpreadsheet(doc, content, tooLarge);
      if (tooLarge()) throw new ExportTooLargeError();
      doc.end();
    } catch (err) {
      reject(err);
    }
  });
}

function drawDocument(doc: PDFKit.PDFDocument, content: DocumentModel, tooLarge: () => boolean): void {
  const width = doc.page.width - 2 * MARGIN;
  for (const { style, text } of content.paragraphs) {
    if (tooLarge()) throw new ExportTooLargeError();
    doc.font(style === 'NORMAL_TEXT' ? 'Helvetica' : 'Helvetica-Bold').fontSize(FONT_SIZE[style]);
    // An empty paragraph is an empty line, as in Docs.
    doc.text(wordsBroken(doc, windows1252(text), width, FONT_SIZE[style]) || ' ', { paragraphGap: style === 'NORMAL_TEXT' ? 4 : 8 });
  }
}

/** Helvetica's widest characters, in ems (`@` is 1.015): a word of fewer characters than width / (this x size) fits. */
const WIDEST_EM = 1.1;

/**
 * `text` with a line break wherever a word wider than `width` reaches the margin, as a word processor breaks it.
 * PDFKit breaks such a word itself, but in time that grows with the square of its length (a word of 100,000
 * characters took 8 s); measured here one character at a time, it is linear. `size` is the font's, in points.
 */
function wordsBroken(doc: PDFKit.PDFDocument, text: string, width: number, size: number): string {
  const widthOf = charWidths(doc);
  const fits = Math.max(1, Math.floor(width / (WIDEST_EM * size)));
  return text.replace(new RegExp(`[^\\s]{${fits},}`, 'g'), (word) => {
    let out = '';
    let line = 0;
    for (const ch of word) {
      const w = widthOf(ch);
      if (line + w > width && line > 0) {
        out += '\n';
        line = 0;
      }
      out += ch;
      line += w;
    }
    return out;
  });
}

/**
 * The cells as a grid: as many columns as fit the page's width, each at least MIN_COLUMN_WIDTH; columns beyond those
 * follow on later pages, as a printed sheet does. A cell shows one line, cut with an ellipsis when it is wider.
 */
function drawSpreadsheet(doc: PDFKit.PDFDocument, sheet: SpreadsheetModel, tooLarge: () => boolean): void {
  // A loop, not Math.max(...): a sheet's rows are too many to pass as arguments.
  let columns = 0;
  for (const row of sheet.rows) columns = Math.max(columns, row.length);
  const usable = doc.page.width - 2 * MARGIN;
  const perPage = Math.max(1, Math.floor(usable / MIN_COLUMN_WIDTH));
  const width = usable / Math.min(perPage, Math.max(columns, 1));
  const bottom = doc.page.height - MARGIN;
  // Grey rules, black text (the fill colour, set once for every cell).
  doc.font('Helvetica').fontSize(SHEET_FONT_SIZE).lineWidth(0.5).strokeColor('#c0c0c0').fillColor('black');
  const widthOf = charWidths(doc);
  for (let first = 0; first < columns; first += perPage) {
    if (first > 0) doc.addPage();
    let y = MARGIN;
    for (const row of sheet.rows) {
      if (tooLarge()) throw new ExportTooLargeError();
      if (y + SHEET_ROW_HEIGHT > bottom) {
        doc.addPage();
        y = MARGIN;
      }
      for (let c = first; c < Math.min(columns, first + perPage); c++) {
        const x = MARGIN + (c - first) * width;
        doc.rect(x, y, width, SHEET_ROW_HEIGHT).stroke();
        const cell = fitted(widthOf, windows1252(row[c] ?? ''), width - 6);
        if (cell) doc.text(cell, x + 3, y + 4, { lineBreak: false });
      }
      y += SHEET_ROW_HEIGHT;
    }
  }
}

/** `text` on one line within `width` points (`widthOf` measures a character): cut, with an ellipsis, when wider. */
function fitted(widthOf: (ch: string) => number, text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  const shown = flat.slice(0, MAX_CELL_SHOWN);
  if (shown.length === flat.length) {
    let total = 0;
    for (const ch of shown) total += widthOf(ch);
    if (total <= width) return shown;
  }
  // As much as fits beside the ellipsis, measured once per character.
  const room = width - widthOf('…');
  let used = 0;
  let end = 0;
  for (const ch of shown) {
    used += widthOf(ch);
    if (used > room) break;
    end += ch.length;
  }
  return end > 0 ? `${shown.slice(0, end)}…` : '';
}

/** The width of one character at the document's current font, each measured once. */
function charWidths(doc: PDFKit.PDFDocument): (ch: string) => number {
  const widths = new Map<string, number>();
  return (ch) => {
    let w = widths.get(ch);
    if (w === undefined) widths.set(ch, (w = doc.widthOfString(ch)));
    return w;
  };
}

/** Characters the standard fonts' encoding (Windows-1252) has beyond Latin-1. */
const WINDOWS_1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** `text` with every character the standard fonts cannot show written as '?', and tabs as spaces. */
export function windows1252(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\n' || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WINDOWS_1252_EXTRA.has(ch)) out += ch;
    else if (ch === '\t') out += '    ';
    else out += '?';
  }
  return out;
}
