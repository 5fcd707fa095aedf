import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { api, count, raw, startFiles, type Api } from './helpers.ts';

const LIMIT = 64 * 1024;
const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

function multipart(metadata: unknown, mime: string, data: Buffer | string, boundary = 'b0undary'): Uint8Array<ArrayBuffer> {
  return bytes(Buffer.concat([
    Buffer.from(`--${boundary}\r\ncontent-type: application/json\r\n\r\n${JSON.stringify(metadata)}\r\n--${boundary}\r\ncontent-type: ${mime}\r\n\r\n`),
    Buffer.from(data),
    Buffer.from(`\r\n--${boundary}--`),
  ]));
}

/** fetch takes plain byte arrays as bodies. */
const bytes = (b: Buffer): Uint8Array<ArrayBuffer> => Uint8Array.from(b);

for (const database of DATABASES) {
  describe(`files content: uploads, downloads, revisions, exports (${database})`, () => {
    let t: TestRuntime;
    let a: Api;
    before(async () => {
      t = await startFiles(database, { maxUploadBytes: LIMIT, resumableTtlMs: 3_600_000 }, 'manual');
      a = api(t);
    });
    after(async () => t.close());

    const upload = async (query: string, init: RequestInit, path = '/upload/storage/v2/files') => {
      const res = await raw(t, `${path}?${query}`, init);
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    };
    const download = async (id: string, headers: Record<string, string> = {}, query = 'alt=media') => {
      const res = await raw(t, `/storage/v2/files/${id}?${query}`, { headers });
      return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
    };

    it('uploads media and multipart, downloads whole and by Range', async () => {
      const media = await upload('uploadType=media', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"raw":true}' });
      assert.equal(media.status, 200);
      assert.equal(media.body.mimeType, 'application/json');
      assert.equal(media.body.fileSize, '12');
      assert.equal(media.body.md5Checksum, md5('{"raw":true}'));
      const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
      const mp = await upload('uploadType=multipart', { method: 'POST', headers: { 'content-type': 'multipart/related; boundary=b0undary' }, body: multipart({ title: 'bin.dat', description: 'd' }, 'application/octet-stream', bytes) });
      assert.equal(mp.status, 200);
      assert.equal(mp.body.title, 'bin.dat');
      assert.equal(mp.body.md5Checksum, md5(bytes));
      assert.ok(mp.body.downloadUrl.endsWith('?alt=media'));
      const whole = await download(mp.body.id);
      assert.equal(whole.status, 200);
      assert.deepEqual(whole.body, bytes);
      const part = await download(mp.body.id, { range: 'bytes=10-19' });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-range'), 'bytes 10-19/1000');
      assert.deepEqual(part.body, bytes.subarray(10, 20));
      const tail = await download(mp.body.id, { range: 'bytes=-5' });
      assert.deepEqual(tail.body, bytes.subarray(995));
      const outside = await download(mp.body.id, { range: 'bytes=5000-6000' });
      assert.equal(outside.status, 416);
      assert.equal(outside.headers.get('content-range'), 'bytes */1000');
      const viaLink = await fetch(mp.body.webContentLink, { headers: { authorization: 'Bearer test-dev-token' } });
      assert.deepEqual(Buffer.from(await viaLink.arrayBuffer()), bytes);
      const anonymous = await fetch(mp.body.webContentLink);
      assert.equal(anonymous.status, 401);
      await a(`/files/${mp.body.id}/permissions`, { body: { type: 'anyone', role: 'reader', withLink: true } });
      const publicLink = await fetch(mp.body.webContentLink);
      assert.deepEqual(Buffer.from(await publicLink.arrayBuffer()), bytes);
      const drivePath = await upload('uploadType=media', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'via drive path' }, '/upload/drive/v2/files');
      assert.equal(drivePath.status, 200);
    });

    it('refuses bad uploads without storing anything', async () => {
      const files = await count(t, 'files_files');
      const blobs = await count(t, 'core_blobs');
      const truncated = multipart({ title: 'x' }, 'text/plain', 'abc').subarray(0, 60);
      const cases = [
        await upload('uploadType=multipart', { method: 'POST', headers: { 'content-type': 'multipart/related; boundary=b0undary' }, body: truncated }),
        await upload('uploadType=multipart', { method: 'POST', headers: { 'content-type': 'multipart/related; boundary=b0undary' }, body: multipart({ title: 7 }, 'text/plain', 'abc') }),
        await upload('uploadType=media', { method: 'POST', headers: { 'content-type': 'not/a/mime' }, body: 'abc' }),
        await upload('uploadType=sideways', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'abc' }),
        await upload('uploadType=multipart', { method: 'POST', headers: { 'content-type': 'multipart/related; boundary=b0undary' }, body: multipart({ parents: [{ id: 'missing' }] }, 'text/plain', 'abc') }),
      ];
      for (const c of cases) assert.ok(c.status === 400 || c.status === 404, JSON.stringify(c.body));
      const big = await upload('uploadType=media', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(LIMIT + 1) });
      assert.equal(big.status, 413);
      assert.equal(big.body.error.code, 413);
      const wrongAuth = await fetch(`${t.url('files')}/upload/storage/v2/files?uploadType=media`, { method: 'POST', headers: { authorization: 'Bearer nope', 'content-type': 'text/plain' }, body: 'abc' });
      assert.equal(wrongAuth.status, 401);
      assert.equal(await count(t, 'files_files'), files);
      assert.equal(await count(t, 'core_blobs'), blobs);
    });

    it('runs a resumable upload across a restart: 308 with Range, status probe, mismatched offsets refused', async () => {
      const data = Buffer.from('0123456789abcdefghij'.repeat(50));
      const init = await upload('uploadType=resumable', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-upload-content-type': 'text/plain', 'x-upload-content-length': String(data.length) },
        body: JSON.stringify({ title: 'resumed.txt' }),
      });
      assert.equal(init.status, 200);
      const location = init.headers.get('location')!;
      assert.match(location, /upload_id=/);
      const put = (body: Buffer, range: string) => fetch(location, { method: 'PUT', headers: { 'content-range': range }, body: bytes(body) });
      const first = await put(data.subarray(0, 400), `bytes 0-399/${data.length}`);
      assert.equal(first.status, 308);
      assert.equal(first.headers.get('range'), 'bytes=0-399');
      const gap = await put(data.subarray(500, 600), `bytes 500-599/${data.length}`);
      assert.equal(gap.status, 400);
      const lying = await put(data.subarray(400, 450), `bytes 400-499/${data.length}`);
      assert.equal(lying.status, 400);
      await t.restart();
      const probe = await fetch(location.replace(/:\d+\//, `:${new URL(t.url('files')).port}/`), { method: 'PUT', headers: { 'content-range': `bytes */${data.length}` } });
      assert.equal(probe.status, 308);
      assert.equal(probe.headers.get('range'), 'bytes=0-399');
      const moved = location.replace(/:\d+\//, `:${new URL(t.url('files')).port}/`);
      const last = await fetch(moved, { method: 'PUT', headers: { 'content-range': `bytes 400-${data.length - 1}/${data.length}` }, body: bytes(data.subarray(400)) });
      assert.equal(last.status, 200);
      const file = await last.json();
      assert.equal(file.title, 'resumed.txt');
      assert.equal(file.md5Checksum, md5(data));
      assert.equal((await fetch(moved, { method: 'PUT', headers: { 'content-range': `bytes */${data.length}` } })).status, 404);
      assert.equal(await count(t, 'core_blob_parts'), 0);
      const stale = await upload('uploadType=resumable', { method: 'POST', headers: { 'x-upload-content-type': 'text/plain' } });
      const staleUrl = stale.headers.get('location')!;
      assert.equal((await fetch(staleUrl, { method: 'PUT', headers: { 'content-range': 'bytes 0-2/*' }, body: 'abc' })).status, 308);
      await fetch(`${t.adminUrl}/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: '2h' }) });
      const expired = await fetch(staleUrl, { method: 'PUT', headers: { 'content-range': 'bytes 3-5/6' }, body: 'def' });
      assert.equal(expired.status, 404);
      assert.equal(await count(t, 'files_uploads'), 0, 'the expiry job dropped the session');
      assert.equal(await count(t, 'core_blob_parts'), 0);
      const tooBig = await upload('uploadType=resumable', { method: 'POST', headers: { 'x-upload-content-length': String(LIMIT + 1) } });
      assert.equal(tooBig.status, 413);
    });

    it('keeps a revision per content change; pinning, deleting, and the last one stays', async () => {
      const v1 = await upload('uploadType=media', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'version one' });
      const id = v1.body.id;
      const v2 = await upload('uploadType=media', { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'version two' }, `/upload/storage/v2/files/${id}`);
      assert.equal(v2.status, 200);
      assert.notEqual(v2.body.headRevisionId, v1.body.headRevisionId);
      const revs = await a(`/files/${id}/revisions`);
      assert.equal(revs.body.items.length, 2);
      const [first, second] = revs.body.items;
      const old = await download(id, {}, `alt=media&revisionId=${first.id}`);
      assert.equal(old.body.toString(), 'version one');
      const pinned = await a(`/files/${id}/revisions/${first.id}`, { method: 'PATCH', body: { pinned: true } });
      assert.equal(pinned.body.pinned, true);
      assert.equal((await a(`/files/${id}/revisions/${first.id}`, { method: 'PATCH', body: { pinned: 'yes' } })).status, 400);
      assert.equal((await a(`/files/${id}/revisions/${second.id}`, { method: 'DELETE' })).status, 204);
      const head = await a(`/files/${id}`);
      assert.equal(head.body.headRevisionId, first.id);
      assert.equal((await download(id)).body.toString(), 'version one');
      const last = await a(`/files/${id}/revisions/${first.id}`, { method: 'DELETE' });
      assert.equal(last.status, 400);
      assert.equal((await a(`/files/${id}/revisions/nope`)).status, 404);
    });

    it('shows size, MD5 and a download link on binary revisions only, and the caller as the authenticated user', async () => {
      const binary = await upload('uploadType=media', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'binary bytes' });
      const [rev] = (await a(`/files/${binary.body.id}/revisions`)).body.items;
      assert.deepEqual([rev.md5Checksum, rev.fileSize], [md5('binary bytes'), '12']);
      assert.match(rev.downloadUrl, /alt=media&revisionId=/);
      assert.equal(rev.lastModifyingUser.isAuthenticatedUser, true);
      const doc = await a('/files', { body: { title: 'Doc', mimeType: 'application/vnd.google-apps.document' } });
      assert.deepEqual([doc.status, doc.body.md5Checksum, doc.body.fileSize], [200, undefined, undefined]);
      const [docRev] = (await a(`/files/${doc.body.id}/revisions`)).body.items;
      assert.equal(docRev.mimeType, 'application/vnd.google-apps.document');
      assert.deepEqual([docRev.md5Checksum, docRev.fileSize, docRev.downloadUrl], [undefined, undefined, undefined]);
      const head = (await a(`/files/${doc.body.id}/revisions/head`)).body;
      assert.deepEqual([head.id, head.md5Checksum, head.lastModifyingUser.isAuthenticatedUser], [docRev.id, undefined, true]);
    });

    it('converts text and HTML into documents and exports them; binary files refuse export', async () => {
      const doc = await upload('uploadType=multipart&convert=true', {
        method: 'POST',
        headers: { 'content-type': 'multipart/related; boundary=b0undary' },
        body: multipart({ title: 'Memo' }, 'text/html', '<h1>Hello</h1><p>World &amp; friends</p>'),
      });
      assert.equal(doc.status, 200);
      assert.equal(doc.body.mimeType, 'application/vnd.google-apps.document');
      assert.ok(doc.body.exportLinks['text/plain']);
      assert.equal(doc.body.downloadUrl, undefined);
      const text = await raw(t, `/storage/v2/files/${doc.body.id}/export?mimeType=text/plain`);
      assert.equal(text.status, 200);
      assert.match(await text.text(), /Hello\s+World & friends/);
      const html = await raw(t, `/storage/v2/files/${doc.body.id}/export?mimeType=text%2Fhtml`);
      assert.match(await html.text(), /<p>World &amp; friends<\/p>/);
      const unsupported = await a(`/files/${doc.body.id}/export?mimeType=image/png`);
      assert.equal(unsupported.status, 400);
      const noDownload = await a(`/files/${doc.body.id}?alt=media`);
      assert.equal(noDownload.status, 403);
      assert.equal(noDownload.body.error.errors[0].reason, 'fileNotDownloadable');
      const binary = await upload('uploadType=media', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'plain' });
      const refused = await a(`/files/${binary.body.id}/export?mimeType=text/plain`);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.errors[0].reason, 'fileNotExportable');
      const found = await a(`/files?q=${encodeURIComponent("fullText contains 'friends'")}`);
      assert.deepEqual(found.body.items.map((f: any) => f.id), [doc.body.id]);
    });

    it('refuses a CSV that cannot become a spreadsheet with 400, creating nothing', async () => {
      const before = await count(t, 'files_files');
      const csv = (body: string) => upload('uploadType=media&convert=true', { method: 'POST', headers: { 'content-type': 'text/csv' }, body });
      const open = await csv('a,"open\n');
      assert.equal(open.status, 400, JSON.stringify(open.body));
      assert.equal(open.body.error.errors[0].reason, 'badRequest');
      assert.match(open.body.error.message, /cannot be read as rows/);
      // A Sheets cell holds at most 50,000 characters; reading one far longer unquoted cell also took 0.5 s a megabyte.
      const long = await csv(`a,${'x'.repeat(50_001)}\nb,c\n`);
      assert.equal(long.status, 400, JSON.stringify(long.body));
      assert.match(long.body.error.message, /a cell of more than 50000 characters/);
      const quoted = await csv(`a,"${'x,'.repeat(25_001)}"\n`);
      assert.equal(quoted.status, 400);
      assert.equal(await count(t, 'files_files'), before, 'no file was created');
      const fits = await csv(`a,${'x'.repeat(50_000)}\nb,c\n`);
      assert.equal(fits.status, 200, JSON.stringify(fits.body));
      assert.equal(fits.body.mimeType, 'application/vnd.google-apps.spreadsheet');
    });

    it('frees the bytes of deleted files and after a reset', async () => {
      const unique = `unique content ${Math.random()}`;
      const f = await upload('uploadType=media', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: unique });
      const copy = await a(`/files/${f.body.id}/copy`, { body: {} });
      const hash = createHash('sha256').update(unique).digest('hex');
      const stored = () => t.rt.db.kysely.selectFrom('core_blobs').select('hash').where('hash', '=', hash).executeTakeFirst();
      assert.ok(await stored());
      await a(`/files/${f.body.id}`, { method: 'DELETE' });
      assert.ok(await stored(), 'the copy still holds it');
      await a(`/files/${copy.body.id}`, { method: 'DELETE' });
      assert.equal(await stored(), undefined);
      await upload('uploadType=media', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'kept until reset' });
      const reset = await fetch(`${t.adminUrl}/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ service: 'files' }) });
      assert.equal(reset.status, 200);
      assert.equal(await count(t, 'core_blobs'), 0);
      assert.equal(await count(t, 'core_blob_refs'), 0);
    });
  });
}
