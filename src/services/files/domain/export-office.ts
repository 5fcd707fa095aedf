// Office Open XML exports of Workspace files: a document as Word (.docx, with the `docx` package) and a spreadsheet
// as Excel (.xlsx, with `write-excel-file`). Both are slow enough (8 and 5 ms for a few lines) to run on the
// conversion worker only.
import type { Cell } from 'write-excel-file/node';
import type { DocumentModel, SpreadsheetModel } from './export.ts';

// Both packages are loaded on the first export, not at every start of the program.

/** A Word document of the paragraphs, each heading in Word's heading style of its level, titled by the file. */
export async function docxOf(content: DocumentModel, title: string): Promise<Buffer> {
  const { Document, HeadingLevel, Packer, Paragraph, TextRun } = await import('docx');
  const paragraphs = content.paragraphs.map(({ style, text }) => {
    // A line break inside a paragraph stays one, as it is in Docs.
    const runs = xmlText(text).split('\n').map((line, i) => new TextRun({ text: line, break: i > 0 ? 1 : undefined }));
    // HEADING_1 .. HEADING_6 are the names of Word's levels too.
    return new Paragraph({ children: runs, heading: style === 'NORMAL_TEXT' ? undefined : HeadingLevel[style] });
  });
  return Packer.toBuffer(new Document({ title: xmlText(title), sections: [{ children: paragraphs }] }));
}

/** The most characters an Excel cell holds. */
export const EXCEL_CELL_CHARS = 32_767;

/**
 * An Excel workbook of one sheet, `Sheet1` (Sheets' first sheet), with the cells: a cell written as a plain decimal
 * number (as Sheets reads one on import) is a number, an empty one is empty, any other is text, cut to the most an
 * Excel cell holds.
 */
export async function xlsxOf(sheet: SpreadsheetModel): Promise<Buffer> {
  const { default: writeXlsxFile } = await import('write-excel-file/node');
  const rows: Cell[][] = sheet.rows.map((row) => row.map(cellOf));
  return writeXlsxFile(rows, { sheet: 'Sheet1' }).toBuffer();
}

/** Decimal numbers a double holds exactly as written (at most 15 significant digits). */
const PLAIN_NUMBER = /^-?(?:0|[1-9]\d{0,14})(?:\.\d{1,14})?$/;

function cellOf(text: string): Cell {
  if (text === '') return null;
  if (PLAIN_NUMBER.test(text) && text.replace(/[-.]/g, '').replace(/^0+/, '').length <= 15) return Number(text);
  return xmlText(text).slice(0, EXCEL_CELL_CHARS);
}

/** Text XML 1.0 can hold: the control characters it forbids, and lone surrogates, become U+FFFD. */
export function xmlText(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
