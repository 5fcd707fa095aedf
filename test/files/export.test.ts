import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  DOCUMENT,
  DRAWING,
  EXPORT_FORMATS,
  ImportError,
  MAX_CELL_CHARS,
  PRESENTATION,
  SPREADSHEET,
  UnsupportedConversionError,
  canExport,
  convertibleImports,
  decodeEntities,
  emptyContent,
  exportDocument,
  exportSpreadsheet,
  exportWorkspaceContent,
  importDocument,
  importSpreadsheet,
  importWorkspaceContent,
  parseWorkspaceContent,
  serializeWorkspaceContent,
  type DocumentModel,
  type Paragraph,
  type ParagraphStyle,
  DOCX,
  EXPORT_LIMIT_BYTES,
  ExportTooLargeError,
  PDF,
  XLSX,
} from '../../src/services/files/domain/export.ts';
import { exportStored } from '../../src/services/files/domain/conversion-jobs.ts';
import { EXCEL_CELL_CHARS, docxOf, xlsxOf, xmlText } from '../../src/services/files/domain/export-office.ts';
import { pdfOf, windows1252 } from '../../src/services/files/domain/export-pdf.ts';
import { readDocx, readXlsx } from './office-zip.ts';
import { readPdf } from './pdf-text.ts';

const html = (text: string) => importDocument('text/html', Buffer.from(text)).paragraphs;
const normal = (text: string): Paragraph => ({ style: 'NORMAL_TEXT', text });
const toHtml = (doc: DocumentModel, title?: string) => exportDocument(doc, 'text/html', { title }).toString();

describe('importDocument from text/plain', () => {
  it('makes each line a paragraph, reading CRLF, CR and a byte order mark', () => {
    assert.deepEqual(importDocument('text/plain', Buffer.from('\uFEFFone\r\ntwo\rthree\n\nfive')).paragraphs, ['one', 'two', 'three', '', 'five'].map(normal));
    assert.deepEqual(importDocument('text/plain', Buffer.alloc(0)).paragraphs, [normal('')]);
  });

  it('round-trips any LF text through the document exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }).filter((t) => !t.includes('\r') && !t.startsWith('\uFEFF')), (text) => {
        assert.equal(exportDocument(importDocument('text/plain', Buffer.from(text)), 'text/plain').toString(), text);
      }),
    );
  });
});

describe('importDocument from text/html', () => {
  it('keeps paragraphs, headings and line breaks', () => {
    assert.deepEqual(html('<h1>Title</h1><p>First <b>bold</b>\n  para.</p><h3>Sub</h3><p>line<br>break</p><ul><li>one</li><li>two</li></ul>'), [
      { style: 'HEADING_1', text: 'Title' },
      normal('First bold para.'),
      { style: 'HEADING_3', text: 'Sub' },
      normal('line\nbreak'),
      normal('one'),
      normal('two'),
    ]);
  });

  it('reads loose text, divs, unclosed paragraphs and empty lines as a browser lays them out', () => {
    assert.deepEqual(html('loose <div>in div</div>after<p>a<p>b'), ['loose', 'in div', 'after', 'a', 'b'].map(normal));
    assert.deepEqual(html('<p></p><div><br></div><div>   </div><p>x</p>'), ['', '', 'x'].map(normal));
    assert.deepEqual(html('<pre>\n  keep   this\n\tand that</pre>'), [normal('  keep   this\n\tand that')]);
  });

  it('reads hostile nesting and unmatched tags', () => {
    assert.deepEqual(html('<div>'.repeat(200) + '<h2>deep</h2>' + '</div>'.repeat(200) + '</span>'.repeat(100) + 'tail'), [{ style: 'HEADING_2', text: 'deep' }, normal('tail')]);
    // Past 256 open elements only the text is kept.
    assert.deepEqual(html('<div>'.repeat(5000) + '<h2>deeper</h2>' + '</div>'.repeat(5000) + 'tail'), ['deeper', 'tail'].map(normal));
    assert.deepEqual(html('<h1><span>a</span><p>inside</p></h1>'), [{ style: 'HEADING_1', text: 'a' }, { style: 'HEADING_1', text: 'inside' }]);
  });

  it('reads a start tag left open over a long run of letters as text', () => {
    // Each shorter tag name was once tried in turn against the rest of the run: quadratic, minutes for this upload.
    const run = 'b'.repeat(300_000);
    assert.deepEqual(html(`<p>x</p><a${run}`), ['x', `<a${run}`].map(normal));
    assert.deepEqual(html(`<p>x</p><a${run} <i>y</i>`), ['x', `<a${run} y`].map(normal));
  });

  it('decodes character references', () => {
    assert.deepEqual(html('<p>&lt;tag&gt; &amp; &quot;q&quot; &#39;s&#39; &#x1F600; &#233;&nbsp;&copy; &unknown; &#0;</p>'), [normal('<tag> & "q" \'s\' \u{1F600} \u00e9\u00a0\u00a9 &unknown; \ufffd')]);
    assert.equal(decodeEntities('&#xD800;&#1114112;&AMP;'), '\ufffd\ufffd&AMP;');
  });

  it('leaves a reference named like an Object.prototype member as written', () => {
    const names = '&constructor; &valueOf; &toString; &hasOwnProperty; &__proto__;';
    assert.equal(decodeEntities(names), names);
    assert.deepEqual(html(`<p>${names} &amp;</p>`), [normal(`${names} &`)]);
  });

  it('drops scripts, styles, the head, comments and unknown markup', () => {
    const page = `<!DOCTYPE html><html><head><title>T</title><style>p { color: red } </p></style><script>if (a < b) document.write("<p>x</p>")</script></head>
      <body><!-- <p>comment</p> --><p>shown<script type="x">hidden()</script></p><noscript>no</noscript><custom-tag data-x='a>b'>inline</custom-tag></body></html>`;
    assert.deepEqual(html(page), ['shown', 'inline'].map(normal));
  });
});

describe('exportDocument', () => {
  it('writes a minimal well-formed HTML document', () => {
    const doc: DocumentModel = { kind: 'document', paragraphs: [{ style: 'HEADING_2', text: 'Head' }, normal('a  b\nc')] };
    assert.equal(
      toHtml(doc, 'My doc'),
      '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>My doc</title></head><body style="white-space:pre-wrap"><h2>Head</h2><p>a  b\nc</p></body></html>\n',
    );
    assert.equal(exportDocument(doc, 'text/plain').toString(), 'Head\na  b\nc');
  });

  it('escapes hostile text so it stays text', () => {
    const hostile = `</p><script>alert("x")</script><img src=x onerror='y'> & </title></body>`;
    const out = toHtml({ kind: 'document', paragraphs: [normal(hostile)] }, '</title><script>t()</script>');
    const [, title, body] = /<title>(.*)<\/title><\/head><body style="white-space:pre-wrap"><p>(.*)<\/p><\/body><\/html>\n$/.exec(out)!;
    assert.doesNotMatch(title + body, /[<>]/);
    assert.match(out, /&lt;\/p&gt;&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;&lt;img src=x onerror=&#39;y&#39;&gt; &amp; /);
    assert.deepEqual(importDocument('text/html', Buffer.from(out)).paragraphs, [normal(hostile)]);
  });

  const style = fc.constantFrom<ParagraphStyle>('NORMAL_TEXT', 'HEADING_1', 'HEADING_2', 'HEADING_3', 'HEADING_4', 'HEADING_5', 'HEADING_6');
  const paragraphText = fc.string({ unit: fc.oneof(fc.constantFrom(' ', '  ', '\t', '\n', '<', '>', '&', '"', "'", '&amp;', '<br>', '</p>', '\u00a0', 'word'), fc.string({ unit: 'grapheme', maxLength: 1 })) }).filter((t) => !t.includes('\r'));
  const documents = fc.array(fc.record({ style, text: paragraphText }, { noNullPrototype: true }), { maxLength: 6 }).map((paragraphs): DocumentModel => ({ kind: 'document', paragraphs }));

  it('reads its own HTML back to the same document, whatever the text', () => {
    fc.assert(
      fc.property(documents, (doc) => {
        assert.deepEqual(importDocument('text/html', exportDocument(doc, 'text/html')), doc);
      }),
      { numRuns: 300 },
    );
  });

  it('is stable from any HTML: html -> doc -> html -> doc', () => {
    const piece = fc.oneof(
      fc.constantFrom('<p>', '</p>', '<h1>', '</h1>', '<h4 class="x">', '</h4>', '<div>', '</div>', '<br>', '<br/>', '<b>', '</b>', '<li>', '<pre>', '</pre>'),
      fc.constantFrom('<script>x<p>y</p></script>', '<style>p{}</style>', '<!-- c -->', '&amp;', '&lt;', '&#65;', '&nbsp;', '<span style="white-space:pre">', '</span>'),
      fc.constantFrom(' ', '\n', '\t', '  ', '\r\n'),
      fc.string({ unit: 'grapheme-ascii', maxLength: 5 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 25 }).map((pieces) => pieces.join('')), (source) => {
        const once = importDocument('text/html', Buffer.from(source));
        assert.deepEqual(importDocument('text/html', exportDocument(once, 'text/html')), once);
      }),
      { numRuns: 500 },
    );
  });
});

describe('spreadsheets', () => {
  it('reads CSV and TSV rows', () => {
    assert.deepEqual(importSpreadsheet('text/csv', Buffer.from('a,"b,c"\r\n"say ""hi""",\n\nx')).rows, [['a', 'b,c'], ['say "hi"', ''], [''], ['x']]);
    assert.deepEqual(importSpreadsheet('text/tab-separated-values', Buffer.from('a\t"b\n1\t2\n')).rows, [['a', '"b'], ['1', '2']]);
    assert.throws(() => importSpreadsheet('text/csv', Buffer.from('"open')), ImportError);
  });

  it('takes cells of up to 50,000 characters, quoted or not, and refuses longer ones', () => {
    const cells = (csv: string) => importSpreadsheet('text/csv', Buffer.from(csv)).rows.map((r) => r.map((c) => c.length));
    assert.deepEqual(cells(`${'x'.repeat(MAX_CELL_CHARS)},y`), [[MAX_CELL_CHARS, 1]]);
    // 30,000 doubled quotes: a run of 60,002 characters holding a cell of 30,000.
    assert.deepEqual(cells(`"${'""'.repeat(30_000)}"`), [[30_000]]);
    assert.deepEqual(importSpreadsheet('text/tab-separated-values', Buffer.from(`a\t${'"'.repeat(MAX_CELL_CHARS)}`)).rows[0][1].length, MAX_CELL_CHARS);
    for (const csv of [`${'x'.repeat(MAX_CELL_CHARS + 1)}`, `"${'x,'.repeat(30_000)}"`, `a,${'y'.repeat(3_000_000)}`]) {
      assert.throws(() => importSpreadsheet('text/csv', Buffer.from(csv)), /a cell of more than 50000 characters/);
    }
    assert.throws(() => importSpreadsheet('text/tab-separated-values', Buffer.from(`a\t${'z'.repeat(MAX_CELL_CHARS + 1)}`)), ImportError);
  });

  it('round-trips rows through CSV', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', ' ', 'é', '\t'), maxLength: 6 }).filter((c) => !c.includes('\r'));
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }), { maxLength: 5 }), (rows) => {
        const csv = exportSpreadsheet({ kind: 'spreadsheet', rows }, 'text/csv');
        assert.deepEqual(importSpreadsheet('text/csv', csv).rows, rows);
      }),
    );
    assert.equal(exportSpreadsheet({ kind: 'spreadsheet', rows: [['a\tb', 'c\nd']] }, 'text/tab-separated-values').toString(), 'a b\tc d');
  });
});

describe('formats', () => {
  it('advertises Drive export links and converts a subset of them, PDF for every type', async () => {
    assert.deepEqual(Object.keys(EXPORT_FORMATS).sort(), [DOCUMENT, DRAWING, PRESENTATION, SPREADSHEET].sort());
    for (const [workspace, targets] of Object.entries(EXPORT_FORMATS)) {
      const converted = targets.filter((target) => canExport(workspace, target));
      assert.ok(converted.includes(PDF), workspace);
      const stored = serializeWorkspaceContent(emptyContent(workspace as keyof typeof EXPORT_FORMATS));
      for (const target of converted) assert.ok(Buffer.isBuffer(await exportStored(stored, target, 'empty')), target);
      for (const target of targets.filter((t) => !converted.includes(t))) {
        await assert.rejects(exportStored(stored, target, 'empty'), UnsupportedConversionError);
      }
    }
    assert.equal(canExport(DOCUMENT, 'text/plain'), true);
    assert.equal(canExport(DOCUMENT, 'text/csv'), false);
    assert.equal(canExport('text/plain', 'text/plain'), false);
    assert.equal(canExport(SPREADSHEET, 'text/csv'), true);
  });

  it('imports what convertibleImports lists, into the type it names', () => {
    for (const [source, workspace] of Object.entries(convertibleImports)) {
      const converted = importWorkspaceContent(source, Buffer.from('a,b\nc'));
      assert.equal(converted.workspaceMime, workspace);
      assert.deepEqual(parseWorkspaceContent(serializeWorkspaceContent(converted.content)), converted.content);
    }
    assert.throws(() => importWorkspaceContent('image/png', Buffer.alloc(1)), UnsupportedConversionError);
    const sheet = importWorkspaceContent('text/csv', Buffer.from('a,b\nc'));
    assert.equal(exportWorkspaceContent(sheet.content, 'text/csv').toString(), 'a,b\r\nc');
  });
});

describe('PDF export', () => {
  const LIMIT = EXPORT_LIMIT_BYTES;

  it('draws each paragraph of a document, headings included, and names it by the title', async () => {
    const doc: DocumentModel = {
      kind: 'document',
      paragraphs: [{ style: 'HEADING_1', text: 'Quarterly report' }, normal('Revenue grew.'), normal(''), normal('line one\nline two')],
    };
    const pdf = await pdfOf(doc, 'Report – Q1 ✓', LIMIT);
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    assert.deepEqual(readPdf(pdf), { pages: 1, title: 'Report – Q1 ✓', lines: ['Quarterly report', 'Revenue grew.', ' ', 'line one', 'line two'] });
  });

  it('breaks a word wider than the page at the margin, keeping every character in order', async () => {
    const word = 'x'.repeat(20_000);
    const { pages, lines } = readPdf(await pdfOf({ kind: 'document', paragraphs: [normal(`start ${word} end`)] }, 'w', LIMIT));
    assert.ok(pages > 1);
    assert.ok(lines.join('').replace(/ /g, '') === `start${word}end`, 'nothing lost, nothing added');
    // Letter width less two inches at 11 pt holds 85 x's.
    assert.ok(lines.every((line) => line.replace(/ /g, '').length <= 85), 'each line fits the page');
  });

  it('writes the characters the standard fonts lack as "?", keeping Windows-1252 ones', async () => {
    assert.equal(windows1252('€ “quoted” — é 中文 Ω 😀\tx'), '€ “quoted” — é ?? ? ?    x');
    const pdf = await pdfOf({ kind: 'document', paragraphs: [normal('Prix: 5 € – naïve 中')] }, 't', LIMIT);
    assert.deepEqual(readPdf(pdf).lines, ['Prix: 5 € – naïve ?']);
  });

  it('draws a spreadsheet as a grid: long cells cut with an ellipsis, columns past the page on later pages', async () => {
    const sheet = await pdfOf({ kind: 'spreadsheet', rows: [['name', 'qty'], ['apple', '3'], ['x'.repeat(500), '12']] }, 's', LIMIT);
    const { pages, lines } = readPdf(sheet);
    assert.equal(pages, 1);
    assert.deepEqual(lines.slice(0, 4), ['name', 'qty', 'apple', '3']);
    assert.match(lines[4], /^x+…$/);
    assert.ok(lines[4].length < 100, 'cut to its column');
    assert.equal(lines[5], '12');
    const wide = readPdf(await pdfOf({ kind: 'spreadsheet', rows: [Array.from({ length: 10 }, (_, i) => `c${i}`)] }, 'w', LIMIT));
    assert.deepEqual([wide.pages, wide.lines], [2, Array.from({ length: 10 }, (_, i) => `c${i}`)]);
    const tall = readPdf(await pdfOf({ kind: 'spreadsheet', rows: Array.from({ length: 100 }, (_, i) => [String(i)]) }, 't', LIMIT));
    assert.deepEqual([tall.pages > 1, tall.lines.length], [true, 100]);
  });

  it('exports a presentation and a drawing (which hold no content here) as one blank page', async () => {
    for (const kind of [PRESENTATION, DRAWING] as const) {
      const pdf = await exportStored(serializeWorkspaceContent(emptyContent(kind)), PDF, 'blank');
      assert.deepEqual(readPdf(pdf), { pages: 1, title: 'blank', lines: [] });
    }
  });

  it('stops with ExportTooLargeError once the PDF passes the limit; text exports past Drive\'s 10 MB too', async () => {
    const long: DocumentModel = { kind: 'document', paragraphs: Array.from({ length: 2000 }, (_, i) => normal(`${'x'.repeat(300)} ${i}`)) };
    await assert.rejects(pdfOf(long, 'long', 20_000), ExportTooLargeError);
    // Rows too many to pass as arguments at once (the column count was a spread into Math.max).
    const rows = Array.from({ length: 300_000 }, (_, i) => [String(i)]);
    await assert.rejects(pdfOf({ kind: 'spreadsheet', rows }, 'rows', 50_000), ExportTooLargeError);
    const big = serializeWorkspaceContent({ kind: 'document', paragraphs: [normal('y'.repeat(EXPORT_LIMIT_BYTES + 1))] });
    await assert.rejects(exportStored(big, 'text/plain', 'big'), ExportTooLargeError);
    assert.equal((await exportStored(serializeWorkspaceContent({ kind: 'document', paragraphs: [normal('y'.repeat(EXPORT_LIMIT_BYTES))] }), 'text/plain', 'fits')).length, EXPORT_LIMIT_BYTES);
  });
});

describe('Word and Excel export', () => {
  it('writes each paragraph of a document in Word, headings in their heading style, line breaks kept', async () => {
    const doc: DocumentModel = {
      kind: 'document',
      paragraphs: [{ style: 'HEADING_1', text: 'Plan <A & B>' }, normal('first\nsecond'), normal(''), { style: 'HEADING_6', text: 'End 中文' }],
    };
    assert.deepEqual(readDocx(await docxOf(doc, 'Plan & notes')), {
      title: 'Plan & notes',
      paragraphs: [
        { style: 'Heading1', text: 'Plan <A & B>' },
        { style: '', text: 'first\nsecond' },
        { style: '', text: '' },
        { style: 'Heading6', text: 'End 中文' },
      ],
    });
  });

  it('writes characters XML cannot hold (control characters, lone surrogates) as U+FFFD', async () => {
    assert.equal(xmlText('a\u0000b\u001fc\td\ne\ud800f\udc00g😀'), 'a\ufffdb\ufffdc\td\ne\ufffdf\ufffdg😀');
    assert.deepEqual(readDocx(await docxOf({ kind: 'document', paragraphs: [normal('bell\u0007')] }, 't')).paragraphs, [{ style: '', text: 'bell\ufffd' }]);
  });

  it('writes a sheet named Sheet1: plain decimal numbers as numbers, empty cells empty, long text cut to an Excel cell', async () => {
    const sheet = { kind: 'spreadsheet' as const, rows: [['name', 'qty', ''], ['apple', '3', '0.50'], ['007', '-2.5', '1e5'], ['12345678901234567', 'z'.repeat(EXCEL_CELL_CHARS + 5)]] };
    const { sheets, cells } = readXlsx(await xlsxOf(sheet));
    assert.deepEqual(sheets, ['Sheet1']);
    assert.deepEqual(cells, [
      ['A1', 'name'],
      ['B1', 'qty'],
      ['A2', 'apple'],
      ['B2', 3],
      ['C2', 0.5],
      ['A3', '007'],
      ['B3', -2.5],
      ['C3', '1e5'],
      ['A4', '12345678901234567'],
      ['B4', 'z'.repeat(EXCEL_CELL_CHARS)],
    ]);
    assert.deepEqual(readXlsx(await xlsxOf({ kind: 'spreadsheet', rows: [] })), { sheets: ['Sheet1'], cells: [] });
  });

  it('exports each format only from the type it belongs to', async () => {
    const doc = serializeWorkspaceContent({ kind: 'document', paragraphs: [normal('x')] });
    const sheet = serializeWorkspaceContent({ kind: 'spreadsheet', rows: [['x']] });
    assert.equal(canExport(DOCUMENT, DOCX), true);
    assert.equal(canExport(SPREADSHEET, XLSX), true);
    assert.equal(canExport(DOCUMENT, XLSX), false);
    assert.equal(canExport(SPREADSHEET, DOCX), false);
    assert.ok((await exportStored(doc, DOCX, 'd')).length > 0);
    assert.ok((await exportStored(sheet, XLSX, 's')).length > 0);
  });
});
