// A file inserted from metadata alone holds empty content, as in Drive: size 0, the MD5 of nothing, one revision, and
// alt=media answers 200 with no bytes. Folders and Workspace types other than documents and spreadsheets hold none.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { count, filesSuite, raw } from './helpers.ts';

const EMPTY_MD5 = createHash('md5').update('').digest('hex');

for (const database of DATABASES) {
  describe(`files inserted without content (${database})`, () => {
    const s = filesSuite(database);

    it('creates an empty, downloadable binary file with one revision', async () => {
      const pdf = await s.a('/files', { body: { title: 'blank.pdf', mimeType: 'application/pdf' } });
      assert.equal(pdf.status, 200, pdf.text);
      assert.deepEqual([pdf.body.mimeType, pdf.body.fileSize, pdf.body.md5Checksum], ['application/pdf', '0', EMPTY_MD5]);
      assert.match(pdf.body.downloadUrl, /alt=media/);
      assert.ok(pdf.body.headRevisionId);
      const revisions = (await s.a(`/files/${pdf.body.id}/revisions`)).body.items;
      assert.deepEqual(revisions.map((r: { id: string; fileSize: string; md5Checksum: string }) => [r.id, r.fileSize, r.md5Checksum]), [[pdf.body.headRevisionId, '0', EMPTY_MD5]]);
      const media = await raw(s.t, `/storage/v2/files/${pdf.body.id}?alt=media`);
      assert.equal(media.status, 200);
      assert.equal(media.headers.get('content-type'), 'application/pdf');
      assert.equal((await media.arrayBuffer()).byteLength, 0);
    });

    it('gives a file without a mimeType empty application/octet-stream content', async () => {
      const file = await s.a('/files', { body: { title: 'untyped' } });
      assert.deepEqual([file.body.mimeType, file.body.fileSize, file.body.md5Checksum], ['application/octet-stream', '0', EMPTY_MD5]);
      assert.equal((await raw(s.t, `/storage/v2/files/${file.body.id}?alt=media`)).status, 200);
    });

    it('keeps folders and other Workspace types without content', async () => {
      for (const mimeType of ['application/vnd.google-apps.folder', 'application/vnd.google-apps.form']) {
        const file = await s.a('/files', { body: { title: 'no content', mimeType } });
        assert.deepEqual([file.body.fileSize, file.body.md5Checksum, file.body.headRevisionId], [undefined, undefined, undefined]);
        const media = await s.a(`/files/${file.body.id}?alt=media`);
        assert.equal(media.status, 403);
        assert.equal(media.body.error.errors[0].reason, 'fileNotDownloadable');
      }
    });

    it('stores nothing when the insert is refused', async () => {
      const [files, refs] = [await count(s.t, 'files_files'), await count(s.t, 'core_blob_refs')];
      const refused = await s.a('/files', { body: { title: 'orphan.bin', mimeType: 'application/pdf', parents: [{ id: 'no-such-folder' }] } });
      assert.equal(refused.status, 404, refused.text);
      assert.equal(refused.body.error.errors[0].reason, 'notFound');
      assert.equal(refused.body.error.message, 'File not found: no-such-folder');
      assert.deepEqual([await count(s.t, 'files_files'), await count(s.t, 'core_blob_refs')], [files, refs]);
    });
  });
}
