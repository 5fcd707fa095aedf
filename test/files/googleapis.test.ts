import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { google } from 'googleapis';
import { DATABASES, DEV_API_KEY, DEV_TOKEN, type TestRuntime } from '../helpers/runtime.ts';
import { OTHER_EMAIL, OTHER_TOKEN, startFiles } from './helpers.ts';

for (const database of DATABASES) {
  describe(`files through the googleapis drive v2 client (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startFiles(database);
    });
    after(async () => t.close());

    const client = (token = DEV_TOKEN) => {
      const auth = new google.auth.OAuth2();
      auth.setCredentials({ access_token: token });
      return google.drive({ version: 'v2', rootUrl: t.url('files') + '/', auth });
    };
    // Media uploads follow only a per-call rootUrl (the client keeps the default upload origin otherwise).
    const perCall = () => ({ rootUrl: t.url('files') + '/' });

    it('uploads (multipart and media), reads, downloads, searches and deletes', async () => {
      const drive = client();
      const folder = await drive.files.insert({ requestBody: { title: 'Client folder', mimeType: 'application/vnd.google-apps.folder' } });
      const made = await drive.files.insert({ requestBody: { title: 'hello.txt', parents: [{ id: folder.data.id! }] }, media: { mimeType: 'text/plain', body: 'hello from the client' } }, perCall());
      assert.equal(made.status, 200);
      assert.equal(made.data.title, 'hello.txt');
      assert.equal(made.data.fileSize, '21');
      const bare = await drive.files.insert({ media: { mimeType: 'application/octet-stream', body: Buffer.from([1, 2, 3]) } }, perCall());
      assert.equal(bare.data.fileSize, '3');
      const got = await drive.files.get({ fileId: made.data.id! });
      assert.equal(got.data.md5Checksum, made.data.md5Checksum);
      const media = await drive.files.get({ fileId: made.data.id!, alt: 'media' }, { responseType: 'arraybuffer' });
      assert.equal(Buffer.from(media.data as ArrayBuffer).toString(), 'hello from the client');
      const listed = await drive.files.list({ q: `'${folder.data.id}' in parents and title contains 'hello'`, maxResults: 10 });
      assert.deepEqual(listed.data.items?.map((f) => f.id), [made.data.id]);
      const updated = await drive.files.update({ fileId: made.data.id!, requestBody: { title: 'hello-2.txt' }, media: { mimeType: 'text/plain', body: 'second' } }, perCall());
      assert.equal(updated.data.fileSize, '6');
      const revisions = await drive.revisions.list({ fileId: made.data.id! });
      assert.equal(revisions.data.items?.length, 2);
      const children = await drive.children.list({ folderId: folder.data.id! });
      assert.equal(children.data.items?.length, 1);
      await drive.files.trash({ fileId: made.data.id! });
      const untrashed = await drive.files.untrash({ fileId: made.data.id! });
      assert.equal(untrashed.data.labels?.trashed, false);
      await drive.files.delete({ fileId: made.data.id! });
      await assert.rejects(drive.files.get({ fileId: made.data.id! }), (err: any) => err.status === 404 || err.code === 404);
    });

    it('shares with a second user, who sees the file in changes and sharedWithMe', async () => {
      const drive = client();
      const other = client(OTHER_TOKEN);
      const start = await other.changes.getStartPageToken({});
      const doc = await drive.files.insert({ requestBody: { title: 'shared doc' }, media: { mimeType: 'text/plain', body: 'share me' }, convert: true }, perCall());
      assert.equal(doc.data.mimeType, 'application/vnd.google-apps.document');
      const perm = await drive.permissions.insert({ fileId: doc.data.id!, sendNotificationEmails: false, requestBody: { role: 'writer', type: 'user', value: OTHER_EMAIL } });
      assert.equal(perm.data.role, 'writer');
      const id = await drive.permissions.getIdForEmail({ email: OTHER_EMAIL });
      assert.equal(id.data.id, perm.data.id);
      const changes = await other.changes.list({ pageToken: start.data.startPageToken! });
      assert.ok(changes.data.items?.some((c) => c.fileId === doc.data.id));
      assert.ok(changes.data.newStartPageToken);
      const shared = await other.files.list({ q: 'sharedWithMe = true' });
      assert.deepEqual(shared.data.items?.map((f) => f.id), [doc.data.id]);
      const exported = await other.files.export({ fileId: doc.data.id!, mimeType: 'text/plain' }, { responseType: 'text' });
      assert.equal(String(exported.data).trim(), 'share me');
      const about = await other.about.get({});
      assert.equal(about.data.user?.emailAddress, OTHER_EMAIL);
    });

    it('accepts the API key string as auth and surfaces Drive errors', async () => {
      const keyed = google.drive({ version: 'v2', rootUrl: t.url('files') + '/', auth: DEV_API_KEY });
      const about = await keyed.about.get({});
      assert.equal(about.data.kind, 'drive#about');
      await assert.rejects(keyed.files.list({ q: "title = 'unterminated" }), (err: any) => {
        assert.equal(err.status ?? err.code, 400);
        return true;
      });
      await assert.rejects(keyed.files.get({ fileId: 'missing-file' }), (err: any) => {
        assert.equal(err.status ?? err.code, 404);
        assert.match(err.message, /File not found: missing-file/);
        return true;
      });
    });
  });
}
