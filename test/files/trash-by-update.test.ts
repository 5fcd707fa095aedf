// `labels.trashed` in files.update/patch moves a file to or from the trash: the same rules as files.trash and
// files.untrash apply (the owner, or a file organizer in a shared drive; never a root folder).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES, DEV_TOKEN } from '../helpers/runtime.ts';
import { OTHER_EMAIL, OTHER_TOKEN, driveClient, filesSuite } from './helpers.ts';

const FOLDER = 'application/vnd.google-apps.folder';

for (const database of DATABASES) {
  describe(`files: trashing through an update (${database})`, () => {
    const s = filesSuite(database);
    /** The Drive error a googleapis call was refused with. */
    const refusedWith = (status: number, reason: string) => (err: any) => {
      assert.equal(err.status, status);
      assert.equal(err.response?.data?.error?.errors?.[0]?.reason, reason);
      return true;
    };
    const client = (token: string) => driveClient(s.t, token);

    /** A folder of the developer's shared with the other user as a writer, holding a file of the developer's. */
    const sharedFile = async () => {
      const folder = (await s.a('/files', { body: { title: 'team', mimeType: FOLDER } })).body;
      const granted = await s.a(`/files/${folder.id}/permissions?sendNotificationEmails=false`, { body: { type: 'user', role: 'writer', value: OTHER_EMAIL } });
      assert.equal(granted.status, 200, granted.text);
      const file = (await s.a('/files', { body: { title: 'plan.txt', parents: [{ id: folder.id }] } })).body;
      return { folder, file };
    };

    it('refuses a writer who is not the owner, as files.trash does, and changes nothing', async () => {
      const { file } = await sharedFile();
      const viaPatch = await s.a(`/files/${file.id}`, { method: 'PATCH', body: { labels: { trashed: true } }, token: OTHER_TOKEN });
      assert.equal(viaPatch.status, 403, viaPatch.text);
      assert.equal(viaPatch.body.error.errors[0].reason, 'insufficientFilePermissions');
      const viaClient = client(OTHER_TOKEN).files.update({ fileId: file.id, requestBody: { title: 'renamed too', labels: { trashed: true } } });
      await assert.rejects(viaClient, refusedWith(403, 'insufficientFilePermissions'));
      const after = (await s.a(`/files/${file.id}`)).body;
      assert.equal(after.labels.trashed, false);
      assert.equal(after.title, 'plan.txt', 'the refused update renamed nothing either');
      assert.equal(after.etag, file.etag);
    });

    it('refuses a writer untrashing the owner\'s trashed file', async () => {
      const { file } = await sharedFile();
      assert.equal((await s.a(`/files/${file.id}/trash`, { method: 'POST' })).status, 200);
      const trashed = (await s.a(`/files/${file.id}`)).body;
      const untrash = await s.a(`/files/${file.id}`, { method: 'PUT', body: { labels: { trashed: false } }, token: OTHER_TOKEN });
      assert.equal(untrash.status, 403, untrash.text);
      assert.equal(untrash.body.error.errors[0].reason, 'insufficientFilePermissions');
      const after = (await s.a(`/files/${file.id}`)).body;
      assert.equal(after.labels.trashed, true);
      assert.equal(after.etag, trashed.etag);
    });

    it('refuses to trash the My Drive root, which would trash everything in it', async () => {
      const child = (await s.a('/files', { body: { title: 'top-level.txt' } })).body;
      const root = (await s.a('/files/root')).body;
      const r = await s.a('/files/root', { method: 'PATCH', body: { labels: { trashed: true } } });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error.errors[0].reason, 'cannotTrashRoot');
      await assert.rejects(client(DEV_TOKEN).files.patch({ fileId: 'root', requestBody: { labels: { trashed: true } } }), refusedWith(400, 'cannotTrashRoot'));
      const rootAfter = (await s.a('/files/root')).body;
      assert.equal(rootAfter.labels.trashed, false);
      assert.equal(rootAfter.etag, root.etag);
      assert.equal((await s.a(`/files/${child.id}`)).body.labels.trashed, false);
    });

    it('lets the owner trash and untrash through an update', async () => {
      const { folder, file } = await sharedFile();
      const trashed = await client(DEV_TOKEN).files.patch({ fileId: folder.id, requestBody: { labels: { trashed: true } } });
      assert.equal(trashed.data.labels?.trashed, true);
      assert.equal(trashed.data.explicitlyTrashed, true);
      assert.equal((await s.a(`/files/${file.id}`)).body.labels.trashed, true);
      const back = await s.a(`/files/${folder.id}`, { method: 'PATCH', body: { labels: { trashed: false } } });
      assert.equal(back.body.labels.trashed, false);
      assert.equal((await s.a(`/files/${file.id}`)).body.labels.trashed, false);
    });
  });
}
