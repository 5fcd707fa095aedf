import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { OTHER_EMAIL, OTHER_TOKEN, api, count, startFiles, type Api } from './helpers.ts';

const FOLDER = 'application/vnd.google-apps.folder';

for (const database of DATABASES) {
  describe(`files metadata, folders, trash and search (${database})`, () => {
    let t: TestRuntime;
    let a: Api;
    before(async () => {
      t = await startFiles(database);
      a = api(t);
    });
    after(async () => t.close());

    const insert = async (body: Record<string, unknown>, token?: string) => {
      const r = await a('/files', { body, token });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };

    it('inserts, gets, patches and updates metadata under both prefixes, with ETags', async () => {
      const f = await insert({ title: 'notes.txt', mimeType: 'text/plain', description: 'first', labels: { starred: true } });
      assert.equal(f.kind, 'drive#file');
      assert.equal(f.title, 'notes.txt');
      assert.equal(f.fileExtension, 'txt');
      assert.equal(f.labels.starred, true);
      assert.equal(f.parents[0].isRoot, true);
      assert.equal(f.ownedByMe, true);
      const viaDrive = await api(t, '/drive/v2')(`/files/${f.id}`);
      assert.equal(viaDrive.body.id, f.id);
      const notModified = await a(`/files/${f.id}`, { headers: { 'if-none-match': f.etag } });
      assert.equal(notModified.status, 304);
      const patched = await a(`/files/${f.id}`, { method: 'PATCH', body: { title: 'renamed.txt' } });
      assert.equal(patched.body.title, 'renamed.txt');
      assert.equal(patched.body.description, 'first');
      assert.notEqual(patched.body.etag, f.etag);
      const stale = await a(`/files/${f.id}`, { method: 'PUT', body: { title: 'x' }, headers: { 'if-match': f.etag } });
      assert.equal(stale.status, 412);
      assert.equal(stale.body.error.errors[0].reason, 'conditionNotMet');
      const fresh = await a(`/files/${f.id}`, { method: 'PUT', body: { title: 'final.txt' }, headers: { 'if-match': patched.body.etag } });
      assert.equal(fresh.status, 200);
      const partial = await a(`/files/${f.id}?fields=id,title,labels/starred`);
      assert.deepEqual(partial.body, { id: f.id, title: 'final.txt', labels: { starred: true } });
      const root = await a('/files/root');
      assert.equal(root.body.title, 'My Drive');
    });

    it('refuses bad input with Drive errors and changes nothing', async () => {
      const before = await count(t, 'files_files');
      const changesBefore = await count(t, 'files_changes');
      const cases: Array<[Record<string, unknown> | string, string]> = [
        [{ title: 42 }, 'title'],
        [{ title: 'x'.repeat(40_000) }, 'title'],
        [{ mimeType: 'not a mime' }, 'mimeType'],
        [{ labels: { starred: 'yes' } }, 'labels.starred'],
        [{ parents: [{ id: 'no-such-folder' }] }, 'parents'],
        [{ parents: 'root' }, 'parents'],
        [{ modifiedDate: 'yesterday' }, 'modifiedDate'],
        [{ id: 'not-generated-id' }, 'id'],
      ];
      for (const [body, location] of cases) {
        const r = await a('/files', { body });
        assert.ok(r.status === 400 || r.status === 404, `${JSON.stringify(body).slice(0, 60)} -> ${r.status}`);
        assert.equal(r.body.error.errors[0].location, location, r.text);
      }
      const badJson = await a('/files', { raw: '{"title":', headers: { 'content-type': 'application/json' } });
      assert.equal(badJson.status, 400);
      const noAuth = await a('/files', { body: { title: 'x' }, token: 'wrong-token' });
      assert.equal(noAuth.status, 401);
      assert.equal(noAuth.body.error.errors[0].reason, 'authError');
      const unknown = await a('/files/1doesnotexist000000000000000000', { method: 'PATCH', body: { title: 'x' } });
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.message, 'File not found: 1doesnotexist000000000000000000');
      const badBool = await a('/files?maxResults=5000');
      assert.equal(badBool.status, 400);
      assert.equal(await count(t, 'files_files'), before);
      assert.equal(await count(t, 'files_changes'), changesBefore);
    });

    it('builds folders with several parents, children and parents resources, addParents/removeParents', async () => {
      const docs = await insert({ title: 'Docs', mimeType: FOLDER });
      const work = await insert({ title: 'Work', mimeType: FOLDER });
      const f = await insert({ title: 'plan.md', parents: [{ id: docs.id }] });
      const children = await a(`/files/${docs.id}/children`);
      assert.deepEqual(children.body.items.map((c: any) => c.id), [f.id]);
      const added = await a(`/files/${work.id}/children`, { body: { id: f.id } });
      assert.equal(added.status, 200);
      const parents = await a(`/files/${f.id}/parents`);
      assert.deepEqual(parents.body.items.map((p: any) => p.id).sort(), [docs.id, work.id].sort());
      const moved = await a(`/files/${f.id}?removeParents=${docs.id}&addParents=root`, { method: 'PATCH', body: {} });
      assert.deepEqual(moved.body.parents.map((p: any) => p.isRoot).sort(), [false, true]);
      assert.equal((await a(`/files/${docs.id}/children/${f.id}`)).status, 404);
      assert.equal((await a(`/files/${work.id}/parents`, { body: { id: 'root' } })).status, 200);
      const cycle = await a(`/files/${work.id}/parents`, { body: { id: work.id } });
      assert.equal(cycle.status, 400);
      const sub = await insert({ title: 'Sub', mimeType: FOLDER, parents: [{ id: work.id }] });
      const cycle2 = await a(`/files/${work.id}?addParents=${sub.id}`, { method: 'PATCH', body: {} });
      assert.equal(cycle2.status, 400);
      assert.equal((await a(`/files/${work.id}/parents/root`, { method: 'DELETE' })).status, 204);
      assert.equal((await a(`/files/${f.id}/parents`, { body: { id: f.id } })).status, 400);
      assert.equal((await a(`/files/${docs.id}/children`, { body: {} })).status, 400);
    });

    it('lists no children of a file that is not a folder, and 404 for an unknown or hidden id', async () => {
      // Drive documents children.list for folders only and says nothing of other files: a file holds no children, so
      // its list is empty, as files.list with `'<id>' in parents` answers.
      const f = await insert({ title: 'leaf.txt', mimeType: 'text/plain' });
      const list = await a(`/files/${f.id}/children`);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual([list.body.kind, list.body.items], ['drive#childList', []]);
      const inParents = await a(`/files?q=${encodeURIComponent(`'${f.id}' in parents`)}`);
      assert.deepEqual(inParents.body.items, []);
      const unknown = await a('/files/no-such-folder/children');
      assert.deepEqual([unknown.status, unknown.body.error.message], [404, 'File not found: no-such-folder']);
      const hidden = await a(`/files/${f.id}/children`, { token: OTHER_TOKEN });
      assert.deepEqual([hidden.status, hidden.body.error.errors[0].reason], [404, 'notFound']);
    });

    it('trashes a folder with its descendants and untrashes them; delete skips the trash; emptyTrash', async () => {
      const top = await insert({ title: 'Trash me', mimeType: FOLDER });
      const inner = await insert({ title: 'inner', mimeType: FOLDER, parents: [{ id: top.id }] });
      const leaf = await insert({ title: 'leaf.txt', parents: [{ id: inner.id }] });
      const alone = await insert({ title: 'alone.txt', parents: [{ id: inner.id }] });
      await a(`/files/${alone.id}/trash`, { method: 'POST' });
      const trashed = await a(`/files/${top.id}/trash`, { method: 'POST' });
      assert.equal(trashed.body.labels.trashed, true);
      assert.equal(trashed.body.explicitlyTrashed, true);
      const leafNow = await a(`/files/${leaf.id}`);
      assert.equal(leafNow.body.labels.trashed, true);
      assert.equal(leafNow.body.explicitlyTrashed, false);
      const untrashed = await a(`/files/${top.id}/untrash`, { method: 'POST' });
      assert.equal(untrashed.body.labels.trashed, false);
      assert.equal((await a(`/files/${leaf.id}`)).body.labels.trashed, false);
      assert.equal((await a(`/files/${alone.id}`)).body.labels.trashed, true, 'explicitly trashed on its own: stays');
      assert.equal((await a(`/files/${leaf.id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await a(`/files/${leaf.id}`)).status, 404);
      assert.equal((await a('/files/trash', { method: 'DELETE' })).status, 204);
      assert.equal((await a(`/files/${alone.id}`)).status, 404);
      assert.equal((await a(`/files/${inner.id}`)).status, 200);
      assert.equal((await a('/files/root/trash', { method: 'POST' })).status, 400);
    });

    it('copies, touches and inserts with generated ids', async () => {
      const f = await insert({ title: 'orig.txt', properties: [{ key: 'k', value: 'v' }] });
      const copy = await a(`/files/${f.id}/copy`, { body: { title: 'copy.txt' } });
      assert.equal(copy.status, 200);
      assert.notEqual(copy.body.id, f.id);
      assert.equal(copy.body.title, 'copy.txt');
      assert.equal(copy.body.properties[0].key, 'k');
      // An empty parents list (once a 500 on PostgreSQL) makes a copy in no folder, as on SQLite.
      const unfiled = await a(`/files/${f.id}/copy`, { body: { title: 'unfiled.txt', parents: [] } });
      assert.deepEqual([unfiled.status, unfiled.body.title, unfiled.body.parents], [200, 'unfiled.txt', []]);
      const folder = await insert({ title: 'F', mimeType: FOLDER });
      assert.equal((await a(`/files/${folder.id}/copy`, { body: {} })).status, 400);
      const touched = await a(`/files/${f.id}/touch`, { method: 'POST' });
      assert.equal(Number(touched.body.version) > Number(f.version), true);
      const ids = await a('/files/generateIds?maxResults=3');
      assert.equal(ids.body.kind, 'drive#generatedIds');
      assert.equal(ids.body.ids.length, 3);
      const made = await insert({ id: ids.body.ids[0], title: 'with id' });
      assert.equal(made.id, ids.body.ids[0]);
      const again = await a('/files', { body: { id: ids.body.ids[0], title: 'again' } });
      assert.equal(again.status, 409);
      assert.equal((await a('/files/generateIds?maxResults=0')).status, 400);
    });

    it('names a copy made without a title "Copy of <title>", and leaves the source as it was', async () => {
      const f = await insert({ title: 'budget.txt', description: 'numbers' });
      const copy = await a(`/files/${f.id}/copy`, { body: { description: 'copied numbers' } });
      assert.equal(copy.status, 200, copy.text);
      assert.deepEqual([copy.body.title, copy.body.description], ['Copy of budget.txt', 'copied numbers']);
      const source = (await a(`/files/${f.id}`)).body;
      assert.deepEqual([source.title, source.etag], ['budget.txt', f.etag]);
      const named = await a(`/files/${f.id}/copy`, { body: { title: 'budget-2.txt' } });
      assert.equal(named.body.title, 'budget-2.txt');
    });

    it('lists with q, orderBy and page tokens; an invalid q is a 400 on q', async () => {
      const folder = await insert({ title: 'Search', mimeType: FOLDER });
      for (let i = 0; i < 5; i++) {
        await insert({ title: `report-${i}.txt`, parents: [{ id: folder.id }], labels: { starred: i % 2 === 0 }, properties: [{ key: 'n', value: String(i), visibility: 'PUBLIC' }] });
      }
      const q = (text: string, extra = '') => a(`/files?q=${encodeURIComponent(text)}${extra}`);
      const starred = await q(`'${folder.id}' in parents and starred = true`, '&orderBy=title desc');
      assert.deepEqual(starred.body.items.map((f: any) => f.title), ['report-4.txt', 'report-2.txt', 'report-0.txt']);
      const complex = await q(`'${folder.id}' in parents and (title = 'report-1.txt' or properties has { key='n' and value='3' and visibility='PUBLIC' }) and not trashed = true`);
      assert.deepEqual(complex.body.items.map((f: any) => f.title).sort(), ['report-1.txt', 'report-3.txt']);
      const page1 = await q(`'${folder.id}' in parents`, '&maxResults=2&orderBy=title');
      assert.equal(page1.body.items.length, 2);
      assert.ok(page1.body.nextPageToken);
      const page2 = await q(`'${folder.id}' in parents`, `&maxResults=2&orderBy=title&pageToken=${encodeURIComponent(page1.body.nextPageToken)}`);
      assert.deepEqual(page2.body.items.map((f: any) => f.title), ['report-2.txt', 'report-3.txt']);
      const owners = await q(`'developer@twinstack.local' in owners and title contains 'REPORT-4'`);
      assert.equal(owners.body.items.length, 1);
      for (const bad of ['title = ', "name = 'x'", "title contains 'a' and", "(title = 'a'"]) {
        const r = await q(bad);
        assert.equal(r.status, 400, bad);
        assert.equal(r.body.error.errors[0].reason, 'invalid');
        assert.equal(r.body.error.errors[0].location, 'q');
      }
      assert.equal((await a('/files?orderBy=size')).body.error.errors[0].location, 'orderBy');
      assert.equal((await a('/files?pageToken=garbage')).status, 400);
    });

    it('shares across users: 404 without access, roles enforced, sharedWithMe, ownership transfer', async () => {
      const other = (path: string, init: Parameters<Api>[1] = {}) => a(path, { ...init, token: OTHER_TOKEN });
      const folder = await insert({ title: 'Shared folder', mimeType: FOLDER });
      const f = await insert({ title: 'inside.txt', parents: [{ id: folder.id }] });
      const hidden = await other(`/files/${f.id}`);
      assert.equal(hidden.status, 404);
      assert.equal(hidden.body.error.message, `File not found: ${f.id}`);
      const perm = await a(`/files/${folder.id}/permissions?sendNotificationEmails=false`, { body: { role: 'reader', type: 'user', value: OTHER_EMAIL } });
      assert.equal(perm.status, 200, perm.text);
      assert.equal(perm.body.emailAddress, OTHER_EMAIL);
      assert.equal(perm.body.name, 'Other User');
      const idForEmail = await a(`/permissionIds/${encodeURIComponent(OTHER_EMAIL)}`);
      assert.equal(idForEmail.body.id, perm.body.id);
      const seen = await other(`/files/${f.id}`);
      assert.equal(seen.status, 200, 'inherited through the folder');
      assert.equal(seen.body.userPermission.role, 'reader');
      const denied = await other(`/files/${f.id}`, { method: 'PATCH', body: { title: 'hacked' } });
      assert.equal(denied.status, 403);
      assert.equal(denied.body.error.errors[0].reason, 'insufficientFilePermissions');
      const shared = await other(`/files?q=${encodeURIComponent('sharedWithMe')}`);
      assert.deepEqual(shared.body.items.map((x: any) => x.id), [folder.id]);
      await a(`/files/${f.id}/permissions/${perm.body.id}`, { method: 'DELETE' }).then((r) => assert.equal(r.status, 404));
      const writer = await a(`/files/${f.id}/permissions?sendNotificationEmails=false`, { body: { role: 'writer', type: 'user', value: OTHER_EMAIL } });
      assert.equal((await other(`/files/${f.id}`, { method: 'PATCH', body: { title: 'edited' } })).status, 200);
      const noTransfer = await a(`/files/${f.id}/permissions/${writer.body.id}`, { method: 'PATCH', body: { role: 'owner' } });
      assert.equal(noTransfer.status, 403);
      const transferred = await a(`/files/${f.id}/permissions/${writer.body.id}?transferOwnership=true`, { method: 'PATCH', body: { role: 'owner' } });
      assert.equal(transferred.status, 200, transferred.text);
      const afterTransfer = await other(`/files/${f.id}`);
      assert.equal(afterTransfer.body.ownedByMe, true);
      assert.equal((await a(`/files/${f.id}`)).body.userPermission.role, 'writer');
      const cannot = await a(`/files/${f.id}/permissions/${writer.body.id}`, { method: 'DELETE' });
      assert.equal(cannot.status, 403);
      const bad = await a(`/files/${folder.id}/permissions`, { body: { role: 'king', type: 'user', value: OTHER_EMAIL } });
      assert.equal(bad.body.error.errors[0].location, 'role');
      const badEmail = await a(`/files/${folder.id}/permissions`, { body: { role: 'reader', type: 'user', value: 'nobody' } });
      assert.equal(badEmail.body.error.errors[0].location, 'value');
      const anyone = await a(`/files/${folder.id}/permissions`, { body: { role: 'reader', type: 'anyone', withLink: true } });
      assert.equal(anyone.body.id, 'anyoneWithLink');
      const list = await a(`/files/${folder.id}/permissions`);
      assert.equal(list.body.items.length, 3);
    });

    it('serialises concurrent writers of one file: every update counts', async () => {
      const f = await insert({ title: 'busy' });
      await Promise.all(Array.from({ length: 8 }, (_, i) => a(`/files/${f.id}`, { method: 'PATCH', body: { description: `d${i}` } })));
      const after = await a(`/files/${f.id}`);
      assert.equal(Number(after.body.version), Number(f.version) + 8);
    });

    it('answers about.get with the user, root folder and a quota from stored bytes', async () => {
      const about = await a('/about');
      assert.equal(about.body.kind, 'drive#about');
      assert.equal(about.body.user.emailAddress, 'developer@twinstack.local');
      assert.equal(about.body.rootFolderId, (await a('/files/root')).body.id);
      assert.equal(typeof about.body.quotaBytesUsed, 'string');
      assert.ok(about.body.exportFormats.some((f: any) => f.source === 'application/vnd.google-apps.document'));
    });
  });
}
