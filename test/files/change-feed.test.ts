// The change feed gives each changed item once, as its latest change, at that change's position: Drive's "current
// state of each file, if and only if the file has changed since" the token.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrations } from '../../src/services/files/migrations.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { OTHER_DRIVE_AND_APPDATA_TOKEN, OTHER_EMAIL, OTHER_TOKEN, count, driveClient, filesSuite } from './helpers.ts';

for (const database of DATABASES) {
  describe(`files change feed, one entry per changed item (${database})`, () => {
    const s = filesSuite(database);
    const startToken = async (token?: string, query = '') => (await s.a(`/changes/startPageToken${query}`, { token })).body.startPageToken as string;
    const insert = async (body: Record<string, unknown>, token?: string) => {
      const res = await s.a('/files', { body, token });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const patch = async (id: string, body: Record<string, unknown>, token?: string) => {
      const res = await s.a(`/files/${id}`, { method: 'PATCH', body, token });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const feed = async (query: string, token?: string) => {
      const res = await s.a(`/changes?${query}`, { token });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const fileIds = (list: any) => list.items.map((c: any) => c.fileId);
    const changeIds = (list: any) => list.items.map((c: any) => Number(c.id));

    it('lists a file changed several times once, at its latest change, with its current state', async () => {
      const start = await startToken();
      const a = await insert({ title: 'a1' });
      const b = await insert({ title: 'b1' });
      await patch(a.id, { title: 'a2' });
      await patch(a.id, { title: 'a3' });
      const list = await feed(`pageToken=${start}`);
      assert.deepEqual(fileIds(list), [b.id, a.id]);
      assert.deepEqual(list.items.map((c: any) => c.file.title), ['b1', 'a3']);
      const ids = changeIds(list);
      assert.ok(ids[0] < ids[1], 'in the order of the latest changes');
      assert.equal(list.largestChangeId, String(ids[1]));
      assert.equal(list.newStartPageToken, String(ids[1] + 1));
      assert.equal((await s.a('/about')).body.largestChangeId, String(ids[1]));
      // The deprecated startChangeId reads the same feed.
      assert.deepEqual(fileIds(await feed(`startChangeId=${start}`)), [b.id, a.id]);
      // A token taken after the first change still sees the file once.
      assert.deepEqual(fileIds(await feed(`pageToken=${Number(start) + 1}`)), [b.id, a.id]);
      // One row per subject and item is kept.
      const rows = await s.t.rt.db.kysely.selectFrom('files_changes').select('id').where('file_id', '=', a.id).execute();
      assert.deepEqual(rows.map((r) => Number(r.id)), [ids[1]]);
    });

    it('answers a change a later one replaced as an unknown change, and the latest one with the current state', async () => {
      const start = await startToken();
      const f = await insert({ title: 'first' });
      const first = (await feed(`pageToken=${start}`)).items[0];
      assert.equal(first.fileId, f.id);
      await patch(f.id, { title: 'second' });
      const latest = (await feed(`pageToken=${start}`)).items;
      assert.equal(latest.length, 1);
      assert.notEqual(latest[0].id, first.id);
      const gone = await s.a(`/changes/${first.id}`);
      assert.equal(gone.status, 404);
      assert.deepEqual(gone.body.error.errors, [{ domain: 'global', reason: 'notFound', message: `Change not found: ${first.id}`, location: 'changeId', locationType: 'parameter' }]);
      const got = await s.a(`/changes/${latest[0].id}`);
      assert.equal(got.status, 200, got.text);
      assert.equal(got.body.file.title, 'second');
    });

    it('pages through the items once each; an item changed again after its page comes back at its new position', async () => {
      const start = await startToken();
      const made = [];
      for (const title of ['p1', 'p2', 'p3']) made.push(await insert({ title }));
      await patch(made[0].id, { title: 'p1 again' });
      const page1 = await feed(`pageToken=${start}&maxResults=2`);
      assert.deepEqual(fileIds(page1), [made[1].id, made[2].id]);
      assert.equal(page1.newStartPageToken, undefined);
      assert.ok(page1.nextLink.includes(`pageToken=${page1.nextPageToken}`) && page1.nextLink.includes('maxResults=2'));
      await patch(made[1].id, { title: 'p2 again' });
      const page2 = await feed(new URL(page1.nextLink).search.slice(1));
      assert.deepEqual(fileIds(page2), [made[0].id, made[1].id]);
      assert.deepEqual(page2.items.map((c: any) => c.file.title), ['p1 again', 'p2 again']);
      assert.ok(page2.newStartPageToken);
      assert.equal(page2.nextPageToken, undefined);
      assert.deepEqual(fileIds(await feed(`pageToken=${page2.newStartPageToken}`)), []);
      // Read again from the start, every item is there once.
      assert.deepEqual(fileIds(await feed(`pageToken=${start}`)), [made[2].id, made[0].id, made[1].id]);
    });

    it('reports a file the caller lost, or that is gone, once as removed (left out without includeDeleted)', async () => {
      const mine = await startToken();
      const otherStart = await startToken(OTHER_TOKEN);
      const shared = await insert({ title: 'shared' });
      const perm = await s.a(`/files/${shared.id}/permissions?sendNotificationEmails=false`, { body: { role: 'writer', type: 'user', value: OTHER_EMAIL } });
      assert.equal(perm.status, 200, perm.text);
      await patch(shared.id, { title: 'shared 2' }, OTHER_TOKEN);
      assert.deepEqual((await feed(`pageToken=${otherStart}`, OTHER_TOKEN)).items.map((c: any) => [c.fileId, c.deleted, c.file?.title]), [[shared.id, false, 'shared 2']]);
      await s.a(`/files/${shared.id}/permissions/${perm.body.id}`, { method: 'DELETE' });
      const lost = await feed(`pageToken=${otherStart}`, OTHER_TOKEN);
      assert.equal(lost.items.length, 1);
      assert.deepEqual([lost.items[0].fileId, lost.items[0].deleted, lost.items[0].file], [shared.id, true, undefined]);
      assert.deepEqual((await feed(`pageToken=${otherStart}&includeDeleted=false`, OTHER_TOKEN)).items, []);

      const doomed = await insert({ title: 'doomed' });
      await patch(doomed.id, { title: 'doomed 2' });
      assert.equal((await s.a(`/files/${doomed.id}`, { method: 'DELETE' })).status, 204);
      const own = await feed(`pageToken=${mine}`);
      assert.deepEqual(own.items.map((c: any) => [c.fileId, c.deleted]), [[shared.id, false], [doomed.id, true]]);
      assert.deepEqual(fileIds(await feed(`pageToken=${mine}&includeDeleted=false`)), [shared.id]);
    });

    it('keeps one entry per shared drive and per drive item in a drive feed, and leaves drive items out of the user feed unless asked', async () => {
      const drive = await s.a('/drives?requestId=feed-drive', { body: { name: 'Feed' } });
      assert.equal(drive.status, 200, drive.text);
      const driveStart = await startToken(undefined, `?driveId=${drive.body.id}&supportsAllDrives=true`);
      const userStart = await startToken();
      const item = (await s.a('/files?supportsAllDrives=true', { body: { title: 'in drive', parents: [{ id: drive.body.id }] } })).body;
      await s.a(`/files/${item.id}?supportsAllDrives=true`, { method: 'PATCH', body: { title: 'in drive 2' } });
      await s.a(`/drives/${drive.body.id}`, { method: 'PUT', body: { name: 'Feed 2' } });
      await s.a(`/drives/${drive.body.id}`, { method: 'PUT', body: { name: 'Feed 3' } });
      const driveFeed = await feed(`pageToken=${driveStart}&driveId=${drive.body.id}&supportsAllDrives=true&includeItemsFromAllDrives=true`);
      assert.deepEqual(driveFeed.items.map((c: any) => [c.changeType, c.fileId ?? c.driveId, c.file?.title ?? c.drive?.name]), [
        ['file', item.id, 'in drive 2'],
        ['drive', drive.body.id, 'Feed 3'],
      ]);
      const userFeed = await feed(`pageToken=${userStart}&supportsAllDrives=true&includeItemsFromAllDrives=true`);
      assert.deepEqual(userFeed.items.map((c: any) => [c.changeType, c.fileId ?? c.driveId]), [['file', item.id], ['drive', drive.body.id]]);
      assert.deepEqual((await feed(`pageToken=${userStart}`)).items.map((c: any) => [c.changeType, c.fileId ?? c.driveId]), [['drive', drive.body.id]]);
    });

    it('keeps each space apart: a file of the application data folder changed twice is once in its space only', async () => {
      const token = OTHER_DRIVE_AND_APPDATA_TOKEN;
      const start = await startToken(token);
      const config = await insert({ title: 'config.json', parents: [{ id: 'appDataFolder' }] }, token);
      await patch(config.id, { title: 'config 2.json' }, token);
      const plain = await insert({ title: 'plain' }, token);
      assert.deepEqual(fileIds(await feed(`pageToken=${start}&spaces=appDataFolder`, token)), [config.id]);
      assert.deepEqual(fileIds(await feed(`pageToken=${start}`, token)), [plain.id]);
      assert.deepEqual(fileIds(await feed(`pageToken=${start}&spaces=drive,appDataFolder`, token)), [config.id, plain.id]);
    });

    it('keeps only the later of two changes of one item that concurrent writers both kept', async () => {
      const start = await startToken();
      const f = await insert({ title: 'raced' });
      const [row] = await s.t.rt.db.kysely.selectFrom('files_changes').selectAll().where('file_id', '=', f.id).execute();
      const { id: _id, ...copy } = row;
      await s.t.rt.db.kysely.insertInto('files_changes').values(copy).execute();
      const list = await feed(`pageToken=${start}`);
      assert.equal(list.items.length, 1);
      assert.ok(Number(list.items[0].id) > Number(row.id));
      assert.equal((await s.a(`/changes/${row.id}`)).status, 404);
    });

    it('drops the replaced changes of a feed stored before one change per item was kept', async () => {
      const k = s.t.rt.db.kysely;
      const start = await startToken();
      const f = await insert({ title: 'stored before' });
      await patch(f.id, { title: 'stored before 2' });
      const [row] = await k.selectFrom('files_changes').selectAll().where('file_id', '=', f.id).execute();
      // The table as it was before migration 0006, holding two changes of the file.
      await sql`drop index files_changes_item`.execute(k);
      await k.schema.alterTable('files_changes').dropColumn('item').execute();
      const { id: _id, item: _item, ...copy } = row;
      await k.insertInto('files_changes').values(copy).execute();
      await migrations['0006_change_items'].up(k);
      const kept = await k.selectFrom('files_changes').select(['id', 'item']).where('file_id', '=', f.id).execute();
      assert.equal(kept.length, 1);
      assert.ok(Number(kept[0].id) > Number(row.id));
      assert.equal(kept[0].item, `file:${f.id}`);
      const list = await feed(`pageToken=${start}`);
      assert.deepEqual(list.items.map((c: any) => [Number(c.id), c.file.title]), [[Number(kept[0].id), 'stored before 2']]);
      assert.equal((await s.a(`/changes/${row.id}`)).status, 404);
    });

    it('refuses a bad token or page size with Drive error bodies and changes nothing', async () => {
      const start = await startToken();
      await insert({ title: 'before bad input' });
      const rows = await count(s.t, 'files_changes');
      for (const [query, location] of [
        ['pageToken=abc', 'pageToken'],
        ['pageToken=0', 'pageToken'],
        ['startChangeId=-1', 'startChangeId'],
        [`pageToken=${start}&maxResults=0`, 'maxResults'],
        [`pageToken=${start}&maxResults=1001`, 'maxResults'],
      ]) {
        const res = await s.a(`/changes?${query}`);
        assert.equal(res.status, 400, query);
        assert.equal(res.body.error.code, 400, query);
        assert.equal(res.body.error.errors[0].location, location, query);
      }
      const watch = await s.a(`/changes/watch?pageToken=${start}`, { body: { id: 'bad-channel', type: 'web_hook', address: 'not a url' } });
      assert.equal(watch.status, 400, watch.text);
      assert.equal(watch.body.error.code, 400);
      assert.equal(await count(s.t, 'files_changes'), rows);
      assert.equal((await feed(`pageToken=${start}`)).items.length, 1);
    });

    it('reads the same feed through the googleapis drive v2 client', async () => {
      const drive = driveClient(s.t);
      const start = (await drive.changes.getStartPageToken()).data.startPageToken!;
      const f = (await drive.files.insert({ requestBody: { title: 'client 1' } })).data;
      const first = (await drive.changes.list({ pageToken: start })).data.items![0];
      await drive.files.patch({ fileId: f.id!, requestBody: { title: 'client 2' } });
      await drive.files.patch({ fileId: f.id!, requestBody: { title: 'client 3' } });
      const list = (await drive.changes.list({ pageToken: start, maxResults: 10 })).data;
      assert.deepEqual(list.items!.map((c) => [c.fileId, c.file?.title]), [[f.id, 'client 3']]);
      assert.equal(list.largestChangeId, list.items![0].id);
      assert.equal((await drive.about.get()).data.largestChangeId, list.items![0].id);
      assert.equal((await drive.changes.get({ changeId: list.items![0].id! })).data.file?.title, 'client 3');
      await assert.rejects(drive.changes.get({ changeId: first.id! }), (err: any) => err.response?.status === 404 && err.response.data.error.errors[0].reason === 'notFound');
    });
  });
}
