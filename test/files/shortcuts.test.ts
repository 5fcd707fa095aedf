// Shortcuts (application/vnd.google-apps.shortcut): made on insert with `shortcutDetails.targetId`, which then
// records the target's MIME type as it was; no content, a target fixed for good, one parent, permissions of the
// parent only; moved, renamed, trashed, copied and listed like any file, and kept when the target goes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { OTHER_EMAIL, OTHER_TOKEN, count, driveClient, filesSuite, raw } from './helpers.ts';

const FOLDER = 'application/vnd.google-apps.folder';
const SHORTCUT = 'application/vnd.google-apps.shortcut';

for (const database of DATABASES) {
  describe(`files: shortcuts (${database})`, () => {
    const s = filesSuite(database);
    /** The Drive error a googleapis call was refused with. */
    const refusedWith = (status: number, reason: string, location?: string) => (err: any) => {
      assert.equal(err.status, status);
      const error = err.response?.data?.error?.errors?.[0];
      assert.equal(error?.reason, reason);
      if (location) assert.equal(error?.location, location);
      return true;
    };
    /** A JSON answer refused with this status, reason and (when given) location. */
    const assertRefused = (r: { status: number; body: any; text: string }, status: number, reason: string, location?: string) => {
      assert.equal(r.status, status, r.text);
      assert.equal(r.body.error.code, status);
      assert.equal(r.body.error.errors[0].reason, reason);
      if (location) assert.equal(r.body.error.errors[0].location, location);
    };
    const upload = async (title: string, body: string, type = 'text/plain') => {
      const res = await raw(s.t, '/upload/storage/v2/files?uploadType=media', { method: 'POST', headers: { 'content-type': type }, body });
      assert.equal(res.status, 200);
      const file = (await res.json()) as { id: string };
      assert.equal((await s.a(`/files/${file.id}`, { method: 'PATCH', body: { title } })).status, 200);
      return file.id;
    };
    const folder = async (title: string) => (await s.a('/files', { body: { title, mimeType: FOLDER } })).body.id as string;
    const shortcutTo = async (targetId: string, extra: Record<string, unknown> = {}) => {
      const r = await s.a('/files', { body: { mimeType: SHORTCUT, shortcutDetails: { targetId }, ...extra } });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };

    it('creates a shortcut through the client, named after its target, and keeps it when the target changes or goes', async () => {
      const drive = driveClient(s.t);
      const targetId = await upload('report.txt', 'quarterly numbers');
      const home = await folder('links');
      const made = await drive.files.insert({ requestBody: { mimeType: SHORTCUT, shortcutDetails: { targetId }, parents: [{ id: home }] } });
      assert.equal(made.data.mimeType, SHORTCUT);
      assert.equal(made.data.title, 'report.txt', "Drive gives a shortcut made without a title its target's");
      assert.deepEqual(made.data.shortcutDetails, { targetId, targetMimeType: 'text/plain' });
      assert.equal(made.data.downloadUrl, undefined);
      assert.equal(made.data.fileSize, undefined);
      assert.equal(made.data.shareable, false);
      assert.deepEqual(made.data.parents?.map((p) => p.id), [home]);

      const listed = await drive.files.list({ q: `mimeType = '${SHORTCUT}' and '${home}' in parents` });
      assert.deepEqual(listed.data.items?.map((f) => [f.id, f.shortcutDetails?.targetId]), [[made.data.id, targetId]]);

      // targetMimeType is a snapshot taken when the shortcut is made.
      const changed = await raw(s.t, `/upload/storage/v2/files/${targetId}?uploadType=media`, { method: 'PUT', headers: { 'content-type': 'text/csv' }, body: 'a,b' });
      assert.equal(changed.status, 200);
      assert.equal(((await changed.json()) as { mimeType: string }).mimeType, 'text/csv');
      assert.deepEqual((await drive.files.get({ fileId: made.data.id! })).data.shortcutDetails, { targetId, targetMimeType: 'text/plain' });

      // Drive keeps dangling shortcuts: the target deleted, the shortcut still names it.
      await drive.files.delete({ fileId: targetId });
      const after = await drive.files.get({ fileId: made.data.id! });
      assert.deepEqual(after.data.shortcutDetails, { targetId, targetMimeType: 'text/plain' });
      const copy = await drive.files.copy({ fileId: made.data.id!, requestBody: {} });
      assert.equal(copy.data.mimeType, SHORTCUT);
      assert.equal(copy.data.title, 'Copy of report.txt');
      assert.deepEqual(copy.data.shortcutDetails, { targetId, targetMimeType: 'text/plain' });
      assert.deepEqual(copy.data.parents?.map((p) => p.id), [home]);
    });

    it("is found by its target with q's shortcutDetails.targetId, through the client", async () => {
      const drive = driveClient(s.t);
      const home = await folder('finds');
      const target = await upload('budget.txt', 'numbers');
      const other = await upload('other.txt', 'words');
      const toTarget = await shortcutTo(target, { parents: [{ id: home }] });
      const toOther = await shortcutTo(other, { parents: [{ id: home }] });
      const ids = async (q: string) => ((await drive.files.list({ q })).data.items ?? []).map((f) => f.id).sort();
      assert.deepEqual(await ids(`shortcutDetails.targetId = '${target}'`), [toTarget.id]);
      assert.deepEqual(await ids(`shortcutDetails.targetId = '${target}' and '${home}' in parents and trashed = false`), [toTarget.id]);
      // != keeps every other file of the folder, shortcuts to other targets and plain files alike.
      const plain = await upload('plain.txt', 'text');
      assert.equal((await s.a(`/files/${plain}?addParents=${home}`, { method: 'PATCH', body: {} })).status, 200);
      assert.deepEqual(await ids(`'${home}' in parents and shortcutDetails.targetId != '${target}'`), [plain, toOther.id].sort());
      assert.deepEqual(await ids(`'${home}' in parents and not shortcutDetails.targetId = '${other}'`), [plain, toTarget.id].sort());
      // The target itself is no shortcut to itself; an unknown id matches nothing.
      assert.deepEqual(await ids(`shortcutDetails.targetId = '${home}'`), []);
      await assert.rejects(drive.files.list({ q: `shortcutDetails.targetId contains '${target}'` }), refusedWith(400, 'invalid', 'q'));
    });

    it('points at folders, and is renamed, moved, trashed and untrashed like any file', async () => {
      const target = await folder('projects');
      const shortcut = await shortcutTo(target, { title: 'go to projects' });
      assert.equal(shortcut.title, 'go to projects');
      assert.deepEqual(shortcut.shortcutDetails, { targetId: target, targetMimeType: FOLDER });
      const elsewhere = await folder('elsewhere');
      const moved = await s.a(`/files/${shortcut.id}?addParents=${elsewhere}&removeParents=${shortcut.parents[0].id}`, { method: 'PATCH', body: { title: 'projects link', shortcutDetails: shortcut.shortcutDetails } });
      assert.equal(moved.status, 200, moved.text);
      assert.equal(moved.body.title, 'projects link');
      assert.deepEqual(moved.body.parents.map((p: { id: string }) => p.id), [elsewhere]);
      assert.deepEqual(moved.body.shortcutDetails, { targetId: target, targetMimeType: FOLDER }, 'a body sent back whole keeps the target');
      assert.equal((await s.a(`/files/${shortcut.id}/trash`, { method: 'POST' })).body.labels.trashed, true);
      assert.equal((await s.a(`/files/${target}`)).body.labels.trashed, false, 'trashing a shortcut leaves its target');
      assert.equal((await s.a(`/files/${shortcut.id}/untrash`, { method: 'POST' })).body.labels.trashed, false);
    });

    it('has no content: downloads, exports and uploads are refused', async () => {
      const doc = (await s.a('/files', { body: { title: 'notes', mimeType: 'application/vnd.google-apps.document' } })).body;
      const shortcut = await shortcutTo(doc.id);
      assert.equal(shortcut.shortcutDetails.targetMimeType, 'application/vnd.google-apps.document');
      assert.equal(shortcut.exportLinks, undefined);
      assertRefused(await s.a(`/files/${shortcut.id}?alt=media`), 403, 'fileNotDownloadable', 'alt');
      assertRefused(await s.a(`/files/${shortcut.id}/export?mimeType=text/plain`), 403, 'fileNotExportable');
      const files = await count(s.t, 'files_files');
      const blobs = await count(s.t, 'files_revisions');
      for (const type of ['text/plain', SHORTCUT]) {
        const res = await raw(s.t, `/upload/storage/v2/files/${shortcut.id}?uploadType=media`, { method: 'PUT', headers: { 'content-type': type }, body: 'bytes' });
        assert.equal(res.status, 400);
      }
      const boundary = 'shortcut-boundary';
      const multipart = [`--${boundary}`, 'Content-Type: application/json', '', JSON.stringify({ mimeType: 'text/plain' }), `--${boundary}`, 'Content-Type: text/plain', '', 'bytes', `--${boundary}--`].join('\r\n');
      const asText = await raw(s.t, `/upload/storage/v2/files/${shortcut.id}?uploadType=multipart`, { method: 'PUT', headers: { 'content-type': `multipart/related; boundary=${boundary}` }, body: multipart });
      assert.equal(asText.status, 400);
      assert.equal(((await asText.json()) as any).error.message, 'A shortcut has no content.');
      // A media upload typed as a shortcut would make one without a target.
      const made = await raw(s.t, '/upload/storage/v2/files?uploadType=media', { method: 'POST', headers: { 'content-type': SHORTCUT }, body: 'bytes' });
      assert.equal(made.status, 400);
      assert.equal(((await made.json()) as any).error.errors[0].reason, 'badRequest');
      assert.equal(await count(s.t, 'files_files'), files);
      assert.equal(await count(s.t, 'files_revisions'), blobs);
      const after = (await s.a(`/files/${shortcut.id}`)).body;
      assert.equal(after.mimeType, SHORTCUT);
      assert.equal(after.etag, shortcut.etag);
    });

    it('refuses an insert without a target it can see, and stores nothing', async () => {
      const target = await upload('private.txt', 'mine');
      const twoFolders = [await folder('one'), await folder('two')];
      await s.a('/files/root', { token: OTHER_TOKEN }); // the other user's My Drive root, made on first use
      const before = await count(s.t, 'files_files');
      assertRefused(await s.a('/files', { body: { mimeType: SHORTCUT, title: 'nowhere' } }), 400, 'required', 'shortcutDetails.targetId');
      assertRefused(await s.a('/files', { body: { mimeType: SHORTCUT, shortcutDetails: {} } }), 400, 'required', 'shortcutDetails.targetId');
      const unknown = await s.a('/files', { body: { mimeType: SHORTCUT, shortcutDetails: { targetId: 'no-such-file' } } });
      assertRefused(unknown, 404, 'notFound', 'shortcutDetails.targetId');
      assert.equal(unknown.body.error.message, 'File not found: no-such-file');
      const hidden = await s.a('/files', { body: { mimeType: SHORTCUT, shortcutDetails: { targetId: target } }, token: OTHER_TOKEN });
      assertRefused(hidden, 404, 'notFound', 'shortcutDetails.targetId');
      assert.equal(hidden.body.error.message, `File not found: ${target}`);
      assertRefused(await s.a('/files', { body: { mimeType: SHORTCUT, shortcutDetails: { targetId: 42 } } }), 400, 'invalid', 'shortcutDetails.targetId');
      assertRefused(await s.a('/files', { body: { mimeType: SHORTCUT, shortcutDetails: 'x' } }), 400, 'invalid', 'shortcutDetails');
      assertRefused(await s.a('/files', { body: { title: 'plain', shortcutDetails: { targetId: target } } }), 400, 'invalid', 'shortcutDetails.targetId');
      assertRefused(await s.a('/files', { body: { mimeType: SHORTCUT, shortcutDetails: { targetId: target }, parents: twoFolders.map((id) => ({ id })) } }), 403, 'cannotAddParent', 'parents');
      await assert.rejects(
        driveClient(s.t).files.insert({ requestBody: { mimeType: SHORTCUT, shortcutDetails: { targetId: (await shortcutTo(target)).id } } }),
        refusedWith(400, 'invalid', 'shortcutDetails.targetId'),
      );
      assert.equal(await count(s.t, 'files_files'), before + 1, 'only the shortcut made for the last case');
    });

    it('keeps the target for good: update, patch and copy refuse another one and change nothing', async () => {
      const first = await upload('first.txt', '1');
      const second = await upload('second.txt', '2');
      const shortcut = await shortcutTo(first);
      const drive = driveClient(s.t);
      for (const method of ['PUT', 'PATCH']) {
        assertRefused(await s.a(`/files/${shortcut.id}`, { method, body: { title: 'renamed', shortcutDetails: { targetId: second } } }), 403, 'fieldNotWritable', 'shortcutDetails.targetId');
        assertRefused(await s.a(`/files/${shortcut.id}`, { method, body: { mimeType: 'text/plain' } }), 400, 'invalidMimeType');
      }
      await assert.rejects(drive.files.patch({ fileId: shortcut.id, requestBody: { shortcutDetails: { targetId: second } } }), refusedWith(403, 'fieldNotWritable'));
      const plain = await upload('plain.txt', 'p');
      assertRefused(await s.a(`/files/${plain}`, { method: 'PATCH', body: { shortcutDetails: { targetId: first } } }), 403, 'fieldNotWritable', 'shortcutDetails.targetId');
      const other = await folder('second home');
      assertRefused(await s.a(`/files/${shortcut.id}?addParents=${other}`, { method: 'PATCH', body: {} }), 403, 'cannotAddParent', 'parents');

      const files = await count(s.t, 'files_files');
      assertRefused(await s.a(`/files/${shortcut.id}/copy`, { body: { shortcutDetails: { targetId: second } } }), 403, 'fieldNotWritable', 'shortcutDetails.targetId');
      assertRefused(await s.a(`/files/${shortcut.id}/copy`, { body: { mimeType: 'text/plain' } }), 400, 'invalidMimeType');
      assertRefused(await s.a(`/files/${plain}/copy`, { body: { mimeType: SHORTCUT } }), 400, 'invalidMimeType');
      assertRefused(await s.a(`/files/${shortcut.id}/copy`, { body: { parents: [{ id: other }, { id: shortcut.parents[0].id }] } }), 403, 'cannotAddParent', 'parents');
      assert.equal(await count(s.t, 'files_files'), files);

      const after = (await s.a(`/files/${shortcut.id}`)).body;
      assert.equal(after.etag, shortcut.etag);
      assert.equal(after.title, 'first.txt');
      assert.deepEqual(after.parents, shortcut.parents);
      assert.deepEqual(after.shortcutDetails, { targetId: first, targetMimeType: 'text/plain' });
      assert.equal((await s.a(`/files/${plain}`)).body.shortcutDetails, undefined);
    });

    it("has its parent's access: its own permissions cannot be changed", async () => {
      const shared = await folder('shared links');
      assert.equal((await s.a(`/files/${shared}/permissions?sendNotificationEmails=false`, { body: { type: 'user', role: 'reader', value: OTHER_EMAIL } })).status, 200);
      const target = await upload('plan.txt', 'plan');
      const shortcut = await shortcutTo(target, { parents: [{ id: shared }] });
      const permissions = await count(s.t, 'files_permissions');
      const insert = await s.a(`/files/${shortcut.id}/permissions?sendNotificationEmails=false`, { body: { type: 'user', role: 'writer', value: OTHER_EMAIL } });
      assertRefused(insert, 403, 'forbidden');
      const owner = (await s.a(`/files/${shortcut.id}/permissions`)).body.items[0];
      assertRefused(await s.a(`/files/${shortcut.id}/permissions/${owner.id}`, { method: 'PATCH', body: { role: 'reader' } }), 403, 'forbidden');
      assertRefused(await s.a(`/files/${shortcut.id}/permissions/${owner.id}`, { method: 'DELETE' }), 403, 'forbidden');
      assert.equal(await count(s.t, 'files_permissions'), permissions);
      // The folder's reader sees the shortcut (not the target, which is not shared).
      const seen = await s.a(`/files/${shortcut.id}`, { token: OTHER_TOKEN });
      assert.equal(seen.status, 200, seen.text);
      assert.deepEqual(seen.body.shortcutDetails, { targetId: target, targetMimeType: 'text/plain' });
      assert.equal((await s.a(`/files/${target}`, { token: OTHER_TOKEN })).status, 404);
    });
  });
}
