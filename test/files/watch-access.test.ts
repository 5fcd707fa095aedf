// Watch channels follow their owner's access: a file's channel whose owner no longer can see the file hears nothing,
// stays open, and hears again once access comes back; a change feed's channel is its owner's own and always hears.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES, webhookNotices } from '../helpers/runtime.ts';
import { OTHER_EMAIL, OTHER_TOKEN, filesSuite } from './helpers.ts';

const ADDRESS = 'http://127.0.0.1:9/hook';

for (const database of DATABASES) {
  describe(`files watch channels and access (${database})`, () => {
    const s = filesSuite(database);
    const other = (path: string, init: { method?: string; body?: unknown } = {}) => s.a(path, { ...init, token: OTHER_TOKEN });

    const sent = (channelId: string) => webhookNotices(s.t, 'files', channelId);
    const share = async (fileId: string): Promise<string> => {
      const res = await s.a(`/files/${fileId}/permissions`, { body: { role: 'reader', type: 'user', value: OTHER_EMAIL } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.id;
    };
    const rename = async (fileId: string, title: string) => assert.equal((await s.a(`/files/${fileId}`, { method: 'PATCH', body: { title } })).status, 200);

    it('a file channel is skipped while its owner cannot see the file, and resumes when shared again', async () => {
      const file = (await s.a('/files', { body: { title: 'watched' } })).body;
      const permissionId = await share(file.id);
      const watch = { type: 'web_hook', address: ADDRESS };
      assert.equal((await other(`/files/${file.id}/watch`, { body: { id: 'other-file', ...watch } })).status, 200);
      assert.equal((await s.a(`/files/${file.id}/watch`, { body: { id: 'owner-file', ...watch } })).status, 200);
      const start = (await other('/changes/startPageToken')).body.startPageToken;
      assert.equal((await other(`/changes/watch?pageToken=${start}`, { body: { id: 'other-changes', ...watch } })).status, 200);

      assert.equal((await s.a(`/files/${file.id}/permissions/${permissionId}`, { method: 'DELETE' })).status, 204);
      assert.deepEqual(await sent('other-file'), ['sync 1'], 'the change that took access away is not told either');
      assert.deepEqual(await sent('owner-file'), ['sync 1', 'update 2']);
      assert.deepEqual(await sent('other-changes'), ['sync 1', 'change 2'], 'the feed tells its owner the file left it');

      // Without access the watch itself is refused, and nothing is stored or queued.
      const refused = await other(`/files/${file.id}/watch`, { body: { id: 'other-again', ...watch } });
      assert.equal(refused.status, 404);
      assert.equal(refused.body.error.code, 404);
      assert.deepEqual(await sent('other-again'), []);

      await rename(file.id, 'watched 2');
      assert.deepEqual(await sent('other-file'), ['sync 1']);
      assert.deepEqual(await sent('owner-file'), ['sync 1', 'update 2', 'update 3']);
      assert.deepEqual(await sent('other-changes'), ['sync 1', 'change 2'], 'a file no longer shared is not in the feed');

      await share(file.id);
      await rename(file.id, 'watched 3');
      assert.deepEqual(await sent('other-file'), ['sync 1', 'update 2', 'update 3'], 'skipped changes used no message number');
      assert.deepEqual(await sent('owner-file'), ['sync 1', 'update 2', 'update 3', 'update 4', 'update 5']);
    });

    it('access through a folder counts, and a removed file is told to those who could see it', async () => {
      const folder = (await s.a('/files', { body: { title: 'shared folder', mimeType: 'application/vnd.google-apps.folder' } })).body;
      const file = (await s.a('/files', { body: { title: 'inside', parents: [{ id: folder.id }] } })).body;
      const permissionId = await share(folder.id);
      const other2 = (await s.a('/files', { body: { title: 'never shared' } })).body;
      assert.equal((await other(`/files/${file.id}/watch`, { body: { id: 'other-inside', type: 'web_hook', address: ADDRESS } })).status, 200);
      assert.equal((await s.a(`/files/${other2.id}/watch`, { body: { id: 'owner-unshared', type: 'web_hook', address: ADDRESS } })).status, 200);

      await rename(file.id, 'inside 2');
      assert.deepEqual(await sent('other-inside'), ['sync 1', 'update 2']);
      assert.equal((await s.a(`/files/${folder.id}/permissions/${permissionId}`, { method: 'DELETE' })).status, 204);
      await rename(file.id, 'inside 3');
      assert.deepEqual(await sent('other-inside'), ['sync 1', 'update 2']);

      await share(folder.id);
      assert.equal((await s.a(`/files/${file.id}`, { method: 'DELETE' })).status, 204);
      assert.deepEqual(await sent('other-inside'), ['sync 1', 'update 2', 'remove 3']);
      assert.equal((await s.a(`/files/${other2.id}`, { method: 'DELETE' })).status, 204);
      assert.deepEqual(await sent('owner-unshared'), ['sync 1', 'remove 2']);
    });
  });
}
