// The application data folder: the `appDataFolder` alias, the `appDataFolder` space in lists, the change feed and
// generated ids, what Drive refuses there (sharing, moves between spaces, trash), and the drive.appdata scope.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { OTHER_DRIVE_AND_APPDATA_TOKEN, OTHER_EMAIL, OTHER_SCOPED_TOKENS, OTHER_TOKEN, count, driveClient, filesSuite, raw } from './helpers.ts';

const APPDATA = OTHER_SCOPED_TOKENS['drive.appdata'];

const refusal = (code: number, reason: string, message: string, location?: string) => ({
  error: {
    code,
    message,
    errors: [{ domain: 'global', reason, message, ...(location ? { locationType: 'parameter', location } : {}) }],
    status: code === 404 ? 'NOT_FOUND' : code === 400 ? 'INVALID_ARGUMENT' : 'PERMISSION_DENIED',
  },
});
const NOT_SUPPORTED = refusal(403, 'notSupportedForAppDataFolderFiles', 'Method not supported for files within the Application Data folder.');
const NOT_TRASHABLE = refusal(403, 'notSupportedForAppDataFolderFiles', 'Files within the Application Data folder cannot be trashed.');
const SPACES_NOT_GRANTED = (location = 'spaces') => refusal(403, 'insufficientScopes', 'The granted scopes do not give access to all of the requested spaces.', location);
const notFound = (id: string, location = 'fileId') => refusal(404, 'notFound', `File not found: ${id}`, location);

for (const database of DATABASES) {
  describe(`files: the application data folder (${database})`, () => {
    const s = filesSuite(database);

    const insert = async (body: Record<string, unknown>, token?: string) => {
      const r = await s.a('/files', { body, token });
      assert.equal(r.status, 200, r.text);
      return r.body as { id: string; title: string; parents: Array<{ id: string }>; spaces: string[]; appDataContents: boolean; labels: { trashed: boolean }; version: string };
    };
    const inAppData = (title: string, token?: string) => insert({ title, parents: [{ id: 'appDataFolder' }] }, token);
    const listIds = async (query: string, token?: string) => {
      const r = await s.a(`/files?maxResults=1000&${query}`, { token });
      assert.equal(r.status, 200, r.text);
      return (r.body.items as Array<{ id: string }>).map((f) => f.id);
    };
    const fileState = async (id: string, token?: string) => {
      const r = await s.a(`/files/${id}`, { token });
      assert.equal(r.status, 200, r.text);
      return { parents: r.body.parents.map((p: { id: string }) => p.id), trashed: r.body.labels.trashed, version: r.body.version, spaces: r.body.spaces };
    };

    it('answers the folder for the alias and keeps files created in it in the appDataFolder space', async () => {
      const folder = await s.a('/files/appDataFolder');
      assert.equal(folder.status, 200, folder.text);
      assert.equal(folder.body.mimeType, 'application/vnd.google-apps.folder');
      assert.equal(folder.body.title, 'Application Data');
      assert.deepEqual([folder.body.spaces, folder.body.appDataContents, folder.body.parents], [['appDataFolder'], true, []]);
      assert.notEqual(folder.body.id, (await s.a('/files/root')).body.id);

      const config = await inAppData('config.json');
      assert.deepEqual([config.spaces, config.appDataContents, config.parents.map((p) => p.id)], [['appDataFolder'], true, [folder.body.id]]);
      const nested = await insert({ title: 'nested', parents: [{ id: folder.body.id }] });
      assert.deepEqual(nested.spaces, ['appDataFolder']);
      const plain = await insert({ title: 'plain' });
      assert.deepEqual([plain.spaces, plain.appDataContents], [['drive'], false]);

      // The default space is drive: neither the folder nor its files are listed there.
      const drive = await listIds('');
      assert.ok(drive.includes(plain.id));
      assert.ok(![config.id, nested.id, folder.body.id].some((id) => drive.includes(id)));
      const appData = await listIds('spaces=appDataFolder');
      assert.ok(appData.includes(config.id) && appData.includes(nested.id));
      assert.ok(!appData.includes(plain.id) && !appData.includes(folder.body.id));
      const both = await listIds('spaces=drive,appDataFolder');
      assert.ok([config.id, nested.id, plain.id].every((id) => both.includes(id)));
      assert.deepEqual(await listIds(`spaces=appDataFolder&q=${encodeURIComponent("'appDataFolder' in parents and title = 'config.json'")}`), [config.id]);
      assert.deepEqual(await listIds(`q=${encodeURIComponent("'appDataFolder' in parents")}`), []);
      const children = await s.a('/files/appDataFolder/children');
      assert.ok(children.body.items.some((c: { id: string }) => c.id === config.id), children.text);
    });

    it('refuses an unknown space and keeps photos as drive', async () => {
      const bad = await s.a('/files?spaces=drive,attic');
      assert.deepEqual([bad.status, bad.body.error.errors[0].reason, bad.body.error.message], [400, 'invalid', 'Invalid space: attic']);
      assert.equal((await s.a('/files?spaces=photos')).status, 200);
      assert.equal((await s.a('/changes?spaces=attic')).status, 400);
    });

    it('refuses to share a file of the folder, and changes nothing', async () => {
      const config = await inAppData('shared?');
      const before = await count(s.t, 'files_permissions');
      const outbox = await count(s.t, 'core_outbox');
      const inserted = await s.a(`/files/${config.id}/permissions`, { body: { role: 'reader', type: 'user', value: OTHER_EMAIL } });
      assert.deepEqual([inserted.status, inserted.body], [403, NOT_SUPPORTED]);
      const anyone = await s.a(`/files/${config.id}/permissions`, { body: { role: 'reader', type: 'anyone' } });
      assert.deepEqual([anyone.status, anyone.body], [403, NOT_SUPPORTED]);
      const mine = (await s.a(`/files/${config.id}/permissions`)).body.items[0];
      const transfer = await s.a(`/files/${config.id}/permissions/${mine.id}?transferOwnership=true`, { method: 'PATCH', body: { role: 'owner' } });
      assert.deepEqual([transfer.status, transfer.body], [403, NOT_SUPPORTED]);
      assert.equal(await count(s.t, 'files_permissions'), before);
      assert.equal(await count(s.t, 'core_outbox'), outbox);
      assert.equal((await s.a(`/files/${config.id}`, { token: OTHER_TOKEN })).status, 404);
    });

    it('refuses moves between the spaces on every path, and changes nothing', async () => {
      const config = await inAppData('stay');
      const folder = await insert({ title: 'a drive folder', mimeType: 'application/vnd.google-apps.folder' });
      const plain = await insert({ title: 'a drive file' });
      const configBefore = await fileState(config.id);
      const plainBefore = await fileState(plain.id);
      const refusedMoves = [
        s.a(`/files/${config.id}?addParents=root`, { method: 'PATCH', body: {} }),
        s.a(`/files/${config.id}?addParents=${folder.id}&removeParents=appDataFolder`, { method: 'PATCH', body: {} }),
        s.a(`/files/${config.id}`, { method: 'PUT', body: { parents: [{ id: 'root' }] } }),
        s.a(`/files/${folder.id}/children`, { body: { id: config.id } }),
        s.a(`/files/${config.id}/parents`, { body: { id: folder.id } }),
        s.a(`/files/${plain.id}?addParents=appDataFolder&removeParents=root`, { method: 'PATCH', body: {} }),
        s.a(`/files/${plain.id}`, { method: 'PATCH', body: { parents: [{ id: 'appDataFolder' }] } }),
        s.a('/files/appDataFolder/children', { body: { id: plain.id } }),
        s.a(`/files/${plain.id}/parents`, { body: { id: 'appDataFolder' } }),
      ];
      for (const moved of await Promise.all(refusedMoves)) assert.deepEqual([moved.status, moved.body], [403, NOT_SUPPORTED]);
      assert.deepEqual(await fileState(config.id), configBefore);
      assert.deepEqual(await fileState(plain.id), plainBefore);
      // Parents in both spaces at once are refused too, and no file is made.
      const files = await count(s.t, 'files_files');
      const mixed = await s.a('/files', { body: { title: 'both', parents: [{ id: 'root' }, { id: 'appDataFolder' }] } });
      assert.deepEqual([mixed.status, mixed.body], [403, NOT_SUPPORTED]);
      assert.equal(await count(s.t, 'files_files'), files);
      // Within the space a file moves freely; with no parent left it goes back to the folder, not to My Drive.
      const sub = await inAppData('sub');
      const subFolder = await insert({ title: 'sub folder', mimeType: 'application/vnd.google-apps.folder', parents: [{ id: 'appDataFolder' }] });
      const moved = await s.a(`/files/${sub.id}?addParents=${subFolder.id}&removeParents=appDataFolder`, { method: 'PATCH', body: {} });
      assert.deepEqual(moved.body.parents.map((p: { id: string }) => p.id), [subFolder.id]);
      const orphan = await s.a(`/files/${sub.id}?removeParents=${subFolder.id}`, { method: 'PATCH', body: {} });
      assert.deepEqual(orphan.body.parents.map((p: { id: string }) => p.id), [configBefore.parents[0]]);
      assert.deepEqual(orphan.body.spaces, ['appDataFolder']);
      // A copy is a new file: without parents it stays beside its source, in the same space.
      const copy = await s.a(`/files/${config.id}/copy`, { body: {} });
      assert.deepEqual([copy.status, copy.body.spaces, copy.body.parents.map((p: { id: string }) => p.id)], [200, ['appDataFolder'], configBefore.parents]);
    });

    it('refuses to trash a file of the folder (or the folder), but deletes it', async () => {
      const config = await inAppData('no trash');
      const before = await fileState(config.id);
      const trashed = await s.a(`/files/${config.id}/trash`, { method: 'POST' });
      assert.deepEqual([trashed.status, trashed.body], [403, NOT_TRASHABLE]);
      const byLabel = await s.a(`/files/${config.id}`, { method: 'PATCH', body: { labels: { trashed: true } } });
      assert.deepEqual([byLabel.status, byLabel.body], [403, NOT_TRASHABLE]);
      assert.deepEqual(await fileState(config.id), before);
      const files = await count(s.t, 'files_files');
      const born = await s.a('/files', { body: { title: 'born trashed', labels: { trashed: true }, parents: [{ id: 'appDataFolder' }] } });
      assert.deepEqual([born.status, born.body], [403, NOT_TRASHABLE]);
      assert.equal(await count(s.t, 'files_files'), files);
      const folder = await s.a('/files/appDataFolder/trash', { method: 'POST' });
      assert.deepEqual([folder.status, folder.body.error.errors[0].reason], [400, 'cannotTrashRoot']);
      const removeFolder = await s.a('/files/appDataFolder', { method: 'DELETE' });
      assert.deepEqual([removeFolder.status, removeFolder.body.error.errors[0].reason], [400, 'cannotDeleteRoot']);
      const renamed = await s.a('/files/appDataFolder', { method: 'PATCH', body: { title: 'mine now' } });
      assert.deepEqual([renamed.status, renamed.body.error.errors[0].reason], [403, 'cannotModifyRoot']);
      assert.equal((await s.a(`/files/${config.id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await s.a(`/files/${config.id}`)).status, 404);
    });

    it('gives generated ids for one space, usable only there', async () => {
      const generated = await s.a('/files/generateIds?space=appDataFolder&maxResults=2');
      assert.deepEqual([generated.status, generated.body.space, generated.body.ids.length], [200, 'appDataFolder', 2]);
      const [forAppData, misused] = generated.body.ids as string[];
      const made = await insert({ id: forAppData, title: 'with a generated id', parents: [{ id: 'appDataFolder' }] });
      assert.deepEqual([made.id, made.spaces], [forAppData, ['appDataFolder']]);
      const files = await count(s.t, 'files_files');
      const wrong = await s.a('/files', { body: { id: misused, title: 'in drive' } });
      assert.deepEqual([wrong.status, wrong.body], [400, refusal(400, 'fileIdNotUsable', `The provided file ID is not usable: ${misused}`, 'id')]);
      const driveId = (await s.a('/files/generateIds?maxResults=1')).body.ids[0] as string;
      const wrongWay = await s.a('/files', { body: { id: driveId, title: 'in app data', parents: [{ id: 'appDataFolder' }] } });
      assert.deepEqual([wrongWay.status, wrongWay.body.error.errors[0].reason], [400, 'fileIdNotUsable']);
      assert.equal(await count(s.t, 'files_files'), files);
      // Still reserved for the right space.
      assert.equal((await insert({ id: misused, title: 'right space', parents: [{ id: 'appDataFolder' }] })).id, misused);
      const bad = await s.a('/files/generateIds?space=photos');
      assert.deepEqual([bad.status, bad.body.error.errors[0].location], [400, 'space']);
    });

    it('reads the change feed by space, removals included', async () => {
      const start = (await s.a('/changes/startPageToken')).body.startPageToken as string;
      const config = await inAppData('watched');
      const plain = await insert({ title: 'watched in drive' });
      assert.equal((await s.a(`/files/${config.id}`, { method: 'DELETE' })).status, 204);
      const feed = async (spaces?: string) => {
        const r = await s.a(`/changes?pageToken=${start}${spaces ? `&spaces=${spaces}` : ''}`);
        assert.equal(r.status, 200, r.text);
        return (r.body.items as Array<{ fileId: string; deleted: boolean }>).map((c) => [c.fileId, c.deleted]);
      };
      // Each change of a file is an entry; the deleted file's entries are removals.
      const appData = await feed('appDataFolder');
      assert.deepEqual(await feed(), [[plain.id, false]]);
      assert.ok(appData.length >= 1 && appData.every(([id, deleted]) => id === config.id && deleted === true), JSON.stringify(appData));
      assert.deepEqual(new Set((await feed('drive,appDataFolder')).map(([id]) => id)), new Set([config.id, plain.id]));
    });

    it('narrows drive.appdata to the folder, and keeps the folder from the drive scopes', async () => {
      const own = await inAppData('app config', APPDATA);
      assert.deepEqual(own.spaces, ['appDataFolder']);
      assert.equal((await s.a(`/files/${own.id}`, { token: APPDATA })).status, 200);
      assert.deepEqual(await listIds('spaces=appDataFolder', APPDATA), [own.id]);
      const media = await raw(s.t, `/upload/storage/v2/files/${own.id}?uploadType=media`, { method: 'PUT', token: APPDATA, headers: { 'content-type': 'application/json' }, body: '{"theme":"dark"}' });
      assert.equal(media.status, 200);
      assert.equal(await (await raw(s.t, `/storage/v2/files/${own.id}?alt=media`, { token: APPDATA })).text(), '{"theme":"dark"}');

      // Files of the drive space are unknown to drive.appdata, and it lists and creates nothing there.
      const driveFile = await insert({ title: 'in my drive' }, OTHER_TOKEN);
      const files = await count(s.t, 'files_files');
      for (const id of [driveFile.id, 'root']) {
        const got = await s.a(`/files/${id}`, { token: APPDATA });
        assert.deepEqual([got.status, got.body], [404, notFound(id)]);
      }
      const renamed = await s.a(`/files/${driveFile.id}`, { method: 'PATCH', token: APPDATA, body: { title: 'renamed' } });
      assert.deepEqual([renamed.status, renamed.body], [404, notFound(driveFile.id)]);
      const listed = await s.a('/files', { token: APPDATA });
      assert.deepEqual([listed.status, listed.body], [403, SPACES_NOT_GRANTED()]);
      assert.deepEqual((await s.a('/changes', { token: APPDATA })).body, SPACES_NOT_GRANTED());
      assert.equal((await s.a('/changes?spaces=appDataFolder', { token: APPDATA })).status, 200);
      const rootless = await s.a('/files', { token: APPDATA, body: { title: 'where?' } });
      assert.deepEqual([rootless.status, rootless.body], [403, SPACES_NOT_GRANTED('parents')]);
      const intoRoot = await s.a('/files', { token: APPDATA, body: { title: 'where?', parents: [{ id: 'root' }] } });
      assert.deepEqual([intoRoot.status, intoRoot.body], [404, notFound('root', 'parents')]);
      const ids = await s.a('/files/generateIds', { token: APPDATA });
      assert.deepEqual([ids.status, ids.body], [403, SPACES_NOT_GRANTED('space')]);
      assert.equal((await s.a(`/files/${driveFile.id}`, { token: OTHER_TOKEN })).body.title, driveFile.title);

      // The drive scope alone never reaches the folder; a token with both scopes reaches both spaces.
      const hidden = await s.a(`/files/${own.id}`, { token: OTHER_TOKEN });
      assert.deepEqual([hidden.status, hidden.body], [404, notFound(own.id)]);
      assert.deepEqual((await s.a('/files/appDataFolder', { token: OTHER_TOKEN })).body, notFound('appDataFolder'));
      assert.deepEqual((await s.a('/files?spaces=appDataFolder', { token: OTHER_TOKEN })).body, SPACES_NOT_GRANTED());
      const intoAppData = await s.a('/files', { token: OTHER_TOKEN, body: { title: 'sneaky', parents: [{ id: 'appDataFolder' }] } });
      assert.deepEqual([intoAppData.status, intoAppData.body], [404, notFound('appDataFolder', 'parents')]);
      assert.equal((await s.a('/files/generateIds?space=appDataFolder', { token: OTHER_TOKEN })).status, 403);
      assert.equal(await count(s.t, 'files_files'), files);
      assert.deepEqual(await listIds('spaces=drive,appDataFolder&q=' + encodeURIComponent("title = 'app config' or title = 'in my drive'"), OTHER_DRIVE_AND_APPDATA_TOKEN), [own.id, driveFile.id]);
    });

    it('finishes a resumable upload with the spaces of the token that opened it', async () => {
      const open = async (parents: Array<{ id: string }>) => {
        const r = await raw(s.t, '/upload/storage/v2/files?uploadType=resumable', {
          method: 'POST',
          token: APPDATA,
          headers: { 'content-type': 'application/json', 'x-upload-content-type': 'text/plain' },
          body: JSON.stringify({ title: 'resumed', parents }),
        });
        assert.equal(r.status, 200, await r.text());
        return r.headers.get('location')!;
      };
      const finish = (uri: string) => fetch(uri, { method: 'PUT', headers: { 'content-range': 'bytes 0-4/5' }, body: 'hello' });
      const done = await finish(await open([{ id: 'appDataFolder' }]));
      assert.equal(done.status, 200);
      assert.deepEqual(((await done.json()) as { spaces: string[] }).spaces, ['appDataFolder']);
      const files = await count(s.t, 'files_files');
      const refused = await finish(await open([{ id: 'root' }]));
      assert.deepEqual([refused.status, await refused.json()], [404, notFound('root', 'parents')]);
      assert.equal(await count(s.t, 'files_files'), files);
    });

    it('works through the googleapis drive v2 client', async () => {
      const drive = driveClient(s.t);
      const made = await drive.files.insert(
        { requestBody: { title: 'settings.json', parents: [{ id: 'appDataFolder' }] }, media: { mimeType: 'application/json', body: '{"a":1}' } },
        { rootUrl: s.t.url('files') + '/' },
      );
      assert.deepEqual([made.data.spaces, made.data.appDataContents], [['appDataFolder'], true]);
      const folder = await drive.files.get({ fileId: 'appDataFolder' });
      assert.deepEqual(made.data.parents?.map((p) => p.id), [folder.data.id]);
      const listed = await drive.files.list({ spaces: 'appDataFolder', q: "title = 'settings.json'" });
      assert.deepEqual(listed.data.items?.map((f) => f.id), [made.data.id]);
      const ids = await drive.files.generateIds({ space: 'appDataFolder', maxResults: 1 });
      assert.equal(ids.data.space, 'appDataFolder');
      const changes = await drive.changes.list({ spaces: 'appDataFolder', maxResults: 1000 });
      assert.ok(changes.data.items?.some((c) => c.fileId === made.data.id));
      await assert.rejects(drive.permissions.insert({ fileId: made.data.id!, requestBody: { role: 'reader', type: 'anyone' } }), (err: any) => {
        assert.equal(err.code, 403);
        assert.equal(err.response?.data?.error?.errors?.[0]?.reason, 'notSupportedForAppDataFolderFiles');
        return true;
      });
      await assert.rejects(drive.files.trash({ fileId: made.data.id! }), (err: any) => err.code === 403 && err.message === 'Files within the Application Data folder cannot be trashed.');
      await assert.rejects(driveClient(s.t, APPDATA).files.list({}), (err: any) => err.code === 403 && err.response?.data?.error?.errors?.[0]?.reason === 'insufficientScopes');
      await drive.files.delete({ fileId: made.data.id! });
      await assert.rejects(drive.files.get({ fileId: made.data.id! }), (err: any) => err.code === 404);
    });
  });
}
