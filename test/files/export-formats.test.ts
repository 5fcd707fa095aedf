// files.export to PDF, Word and Excel through HTTP and the googleapis client, and Drive's 10 MB limit on an export.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { driveClient, filesSuite, raw } from './helpers.ts';
import { readDocx, readXlsx } from './office-zip.ts';
import { readPdf } from './pdf-text.ts';

const PDF = 'application/pdf';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

for (const database of DATABASES) {
  describe(`files.export to PDF, Word and Excel (${database})`, () => {
    const s = filesSuite(database);

    /** A Workspace file converted from an upload of `mime` content (media uploads take the root URL per call). */
    const converted = async (title: string, mime: string, body: string | Buffer) => {
      const drive = driveClient(s.t);
      const media = { mimeType: mime, body: typeof body === 'string' ? body : Readable.from([body]) };
      const made = await drive.files.insert({ requestBody: { title }, media, convert: true }, { rootUrl: `${s.t.url('files')}/` });
      return made.data;
    };
    const exported = async (id: string, mime = PDF) => {
      const res = await raw(s.t, `/storage/v2/files/${id}/export?mimeType=${encodeURIComponent(mime)}`);
      return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
    };

    it('exports a document as a PDF of its paragraphs, titled by the file, as exportLinks advertises', async () => {
      const doc = await converted('Memo – 2026', 'text/html', '<h1>Hello</h1><p>World &amp; friends</p><p>Ünïcode 中</p>');
      assert.ok(doc.exportLinks?.[PDF]);
      const res = await exported(doc.id!);
      assert.equal(res.status, 200);
      assert.equal(res.type, PDF);
      assert.equal(res.body.subarray(0, 5).toString(), '%PDF-');
      assert.deepEqual(readPdf(res.body), { pages: 1, title: 'Memo – 2026', lines: ['Hello', 'World & friends', 'Ünïcode ?'] });
      // The client's own call, as an application downloads it.
      const viaClient = await driveClient(s.t).files.export({ fileId: doc.id!, mimeType: PDF }, { responseType: 'arraybuffer' });
      assert.deepEqual(readPdf(Buffer.from(viaClient.data as ArrayBuffer)).lines, ['Hello', 'World & friends', 'Ünïcode ?']);
    });

    it('exports a spreadsheet as a grid of its cells, and empty presentations and drawings as a blank page', async () => {
      const sheet = await converted('Stock', 'text/csv', 'item,count\npears,4\n');
      assert.deepEqual(readPdf((await exported(sheet.id!)).body).lines, ['item', 'count', 'pears', '4']);
      const drive = driveClient(s.t);
      for (const mimeType of ['application/vnd.google-apps.presentation', 'application/vnd.google-apps.drawing']) {
        const blank = await drive.files.insert({ requestBody: { title: 'Blank', mimeType } });
        const res = await exported(blank.data.id!);
        assert.equal(res.status, 200, mimeType);
        assert.deepEqual(readPdf(res.body), { pages: 1, title: 'Blank', lines: [] });
      }
    });

    it('exports a document as a Word file and a spreadsheet as an Excel workbook', async () => {
      const doc = await converted('Minutes', 'text/html', '<h2>Agenda</h2><p>Budget &amp; hires</p>');
      const word = await exported(doc.id!, DOCX);
      assert.equal(word.status, 200);
      assert.equal(word.type, DOCX);
      assert.deepEqual(readDocx(word.body), { title: 'Minutes', paragraphs: [{ style: 'Heading2', text: 'Agenda' }, { style: '', text: 'Budget & hires' }] });
      const sheet = await converted('Stock', 'text/csv', 'item,count\npears,4\n');
      const viaClient = await driveClient(s.t).files.export({ fileId: sheet.id!, mimeType: XLSX }, { responseType: 'arraybuffer' });
      assert.deepEqual(readXlsx(Buffer.from(viaClient.data as ArrayBuffer)), { sheets: ['Sheet1'], cells: [['A1', 'item'], ['B1', 'count'], ['A2', 'pears'], ['B2', 4]] });
      // Each format only from the type it belongs to.
      const crossed = await raw(s.t, `/storage/v2/files/${doc.id}/export?mimeType=${encodeURIComponent(XLSX)}`);
      assert.equal(crossed.status, 400);
      assert.equal((await crossed.json()).error.message, 'The requested conversion is not supported.');
    });

    it('refuses an export larger than 10 MB with 403 exportSizeLimitExceeded, as Drive does', async () => {
      const large = await converted('Large', 'text/plain', Buffer.alloc(10 * 1024 * 1024 + 1, 'z'));
      const res = await raw(s.t, `/storage/v2/files/${large.id}/export?mimeType=text/plain`);
      assert.equal(res.status, 403);
      assert.deepEqual(await res.json(), {
        error: {
          code: 403,
          message: 'This file is too large to be exported.',
          errors: [{ domain: 'global', reason: 'exportSizeLimitExceeded', message: 'This file is too large to be exported.' }],
          status: 'PERMISSION_DENIED',
        },
      });
      // The file itself is unchanged and still readable.
      const after = await driveClient(s.t).files.get({ fileId: large.id! });
      assert.equal(after.data.title, 'Large');
    });
  });
}
