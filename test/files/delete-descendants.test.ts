// files.delete and files.emptyTrash remove a folder with the descendants its deleter owns; other users' files below
// it survive, without the deleted folders as parents and out of the trash they were in only through them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { OTHER_EMAIL, OTHER_TOKEN, driveClient, filesSuite, raw } from './helpers.ts';

const FOLDER = 'application/vnd.google-apps.folder';

for (const database of DATABASES) {
  describe(`files: deleting a folder that holds other users' files (${database})`, () => {
    const s = filesSuite(database);
    const other = (path: string, init: Parameters<typeof s.a>[1] = {}) => s.a(path, { ...init, token: OTHER_TOKEN });

    /**
     * The developer's folder, shared with the other user as a writer, holding a file of each of them and a subfolder
     * of the other user's with a file of theirs.
     */
    const mixedFolder = async () => {
      const folder = (await s.a('/files', { body: { title: 'project', mimeType: FOLDER } })).body;
      const granted = await s.a(`/files/${folder.id}/permissions?sendNotificationEmails=false`, { body: { type: 'user', role: 'writer', value: OTHER_EMAIL } });
      assert.equal(granted.status, 200, granted.text);
      const mine = (await s.a('/files', { body: { title: 'mine.txt', parents: [{ id: folder.id }] } })).body;
      const upload = await raw(s.t, `/upload/storage/v2/files?uploadType=media`, { method: 'POST', body: 'their bytes', headers: { 'content-type': 'text/plain' }, token: OTHER_TOKEN });
      assert.equal(upload.status, 200);
      const theirs = (await upload.json()) as { id: string; md5Checksum: string };
      assert.equal((await other(`/files/${theirs.id}?addParents=${folder.id}&removeParents=root`, { method: 'PATCH', body: {} })).status, 200);
      const theirFolder = (await other('/files', { body: { title: 'their notes', mimeType: FOLDER, parents: [{ id: folder.id }] } })).body;
      const nested = (await other('/files', { body: { title: 'nested.txt', parents: [{ id: theirFolder.id }] } })).body;
      return { folder, mine, theirs, theirFolder, nested };
    };

    it('files.delete keeps the files the deleter does not own, without the deleted parent', async () => {
      const { folder, mine, theirs, theirFolder, nested } = await mixedFolder();
      const theirStart = (await other('/changes/startPageToken')).body.startPageToken;
      const myStart = (await s.a('/changes/startPageToken')).body.startPageToken;
      await driveClient(s.t).files.delete({ fileId: folder.id });
      for (const id of [folder.id, mine.id]) assert.equal((await s.a(`/files/${id}`)).status, 404);
      for (const id of [folder.id, mine.id]) assert.equal((await other(`/files/${id}`)).status, 404);
      const kept = await other(`/files/${theirs.id}`);
      assert.equal(kept.status, 200, kept.text);
      assert.deepEqual(kept.body.parents, []);
      assert.equal(kept.body.labels.trashed, false);
      assert.equal(kept.body.md5Checksum, theirs.md5Checksum);
      const bytes = await raw(s.t, `/storage/v2/files/${theirs.id}?alt=media`, { token: OTHER_TOKEN });
      assert.equal(await bytes.text(), 'their bytes');
      assert.deepEqual((await other(`/files/${theirFolder.id}`)).body.parents, []);
      const below = await other(`/files/${theirFolder.id}/children`);
      assert.deepEqual(below.body.items.map((c: any) => c.id), [nested.id]);
      assert.equal((await s.a(`/files/${theirs.id}`)).status, 404, 'the deleter lost the access the folder gave');
      const listed = await other(`/files?q=${encodeURIComponent(`'${OTHER_EMAIL}' in owners and trashed = false`)}`);
      const ids = listed.body.items.map((f: any) => f.id);
      for (const id of [theirs.id, theirFolder.id, nested.id]) assert.ok(ids.includes(id), `${id} still listed for its owner`);
      const theirChange = (await other(`/changes?pageToken=${theirStart}`)).body.items.find((c: any) => c.fileId === theirs.id);
      assert.equal(theirChange.deleted, false, 'its owner hears of a change, not a removal');
      assert.deepEqual(theirChange.file.parents, []);
      const myChange = (await s.a(`/changes?pageToken=${myStart}`)).body.items.find((c: any) => c.fileId === theirs.id);
      assert.equal(myChange.deleted, true, 'the deleter hears of a removal: no access is left');
    });

    it('files.emptyTrash keeps them too, and takes them out of the trash', async () => {
      const { folder, mine, theirs, theirFolder, nested } = await mixedFolder();
      assert.equal((await s.a(`/files/${folder.id}/trash`, { method: 'POST' })).status, 200);
      assert.equal((await other(`/files/${nested.id}`)).body.labels.trashed, true);
      const emptied = await s.a('/files/trash', { method: 'DELETE' });
      assert.equal(emptied.status, 204);
      assert.equal((await s.a(`/files/${mine.id}`)).status, 404);
      for (const id of [theirs.id, theirFolder.id, nested.id]) {
        const kept = await other(`/files/${id}`);
        assert.equal(kept.status, 200, kept.text);
        assert.equal(kept.body.labels.trashed, false);
        assert.equal(kept.body.explicitlyTrashed, false);
      }
      assert.deepEqual((await other(`/files/${nested.id}`)).body.parents.map((p: any) => p.id), [theirFolder.id]);
    });

    it('a file the other user trashed on their own stays in their trash', async () => {
      const { folder, theirs } = await mixedFolder();
      assert.equal((await other(`/files/${theirs.id}/trash`, { method: 'POST' })).status, 200);
      assert.equal((await s.a(`/files/${folder.id}`, { method: 'DELETE' })).status, 204);
      const kept = (await other(`/files/${theirs.id}`)).body;
      assert.equal(kept.labels.trashed, true);
      assert.equal(kept.explicitlyTrashed, true);
    });
  });
}
