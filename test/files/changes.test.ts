import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { OTHER_EMAIL, OTHER_TOKEN, api, count, startFiles, type Api } from './helpers.ts';

interface Hook {
  headers: Record<string, string | string[] | undefined>;
}

for (const database of DATABASES) {
  describe(`files changes, watch channels, drives, comments, properties, labels, apps (${database})`, () => {
    let t: TestRuntime;
    let a: Api;
    let server: Server;
    let hookUrl: string;
    const hooks: Hook[] = [];
    before(async () => {
      t = await startFiles(database);
      a = api(t);
      server = createServer((req, res) => {
        hooks.push({ headers: req.headers });
        req.resume();
        req.on('end', () => res.writeHead(200).end());
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const addr = server.address();
      hookUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/hook`;
    });
    after(async () => {
      await t.close();
      server.close();
    });
    const other = (path: string, init: Parameters<Api>[1] = {}) => a(path, { ...init, token: OTHER_TOKEN });
    const waitFor = async (pred: () => boolean) => {
      for (let i = 0; i < 100 && !pred(); i++) {
        await fetch(`${t.adminUrl}/outbox/deliver`, { method: 'POST' });
        if (!pred()) await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(pred(), 'webhook not delivered');
    };

    it('feeds changes page by page, continues across a restart, and reports lost access as a removal', async () => {
      const start = (await a('/changes/startPageToken')).body.startPageToken;
      const f1 = (await a('/files', { body: { title: 'c1' } })).body;
      const f2 = (await a('/files', { body: { title: 'c2' } })).body;
      const page1 = await a(`/changes?pageToken=${start}&maxResults=1`);
      assert.equal(page1.body.items.length, 1);
      assert.equal(page1.body.items[0].fileId, f1.id);
      assert.ok(page1.body.nextPageToken);
      assert.equal(page1.body.newStartPageToken, undefined);
      await t.restart();
      a = api(t);
      const page2 = await a(`/changes?pageToken=${page1.body.nextPageToken}`);
      assert.deepEqual(page2.body.items.map((c: any) => c.fileId), [f2.id]);
      assert.ok(page2.body.newStartPageToken);
      assert.equal(page2.body.nextPageToken, undefined);
      const got = await a(`/changes/${page2.body.items[0].id}`);
      assert.equal(got.body.file.id, f2.id);

      const otherStart = (await other('/changes/startPageToken')).body.startPageToken;
      const perm = await a(`/files/${f1.id}/permissions?sendNotificationEmails=false`, { body: { role: 'reader', type: 'user', value: OTHER_EMAIL } });
      await a(`/files/${f1.id}/permissions/${perm.body.id}`, { method: 'DELETE' });
      const seen = await other(`/changes?pageToken=${otherStart}`);
      // Granted then revoked: one entry, the latest (a removal).
      assert.equal(seen.body.items.length, 1);
      assert.equal(seen.body.items.at(-1).deleted, true);
      assert.equal(seen.body.items.at(-1).file, undefined);
      const mine = await a(`/changes?pageToken=${page2.body.newStartPageToken}&includeDeleted=false`);
      assert.ok(mine.body.items.every((c: any) => c.deleted === false));
      assert.equal((await a('/changes?pageToken=abc')).status, 400);
      assert.equal((await a('/changes/999999')).status, 404);
    });

    it('includeSubscribed=false narrows the feed to My Drive: shared files once added to it, never the app data folder', async () => {
      const otherStart = (await other('/changes/startPageToken')).body.startPageToken;
      const myStart = (await a('/changes/startPageToken')).body.startPageToken;
      const shared = (await a('/files', { body: { title: 'shared with other' } })).body;
      assert.equal((await a(`/files/${shared.id}/permissions?sendNotificationEmails=false`, { body: { role: 'writer', type: 'user', value: OTHER_EMAIL } })).status, 200);
      const own = (await other('/files', { body: { title: 'other own' } })).body;
      const fileIds = (res: { body: any }) => res.body.items.map((c: any) => c.fileId);

      assert.deepEqual(fileIds(await other(`/changes?pageToken=${otherStart}`)), [shared.id, own.id]);
      const narrowed = await other(`/changes?pageToken=${otherStart}&includeSubscribed=false`);
      assert.deepEqual(fileIds(narrowed), [own.id]);
      assert.ok(narrowed.body.newStartPageToken);

      // Added to their My Drive, the shared file is in it.
      const added = await other(`/files/${shared.id}/parents`, { body: { id: 'root' } });
      assert.equal(added.status, 200, added.text);
      assert.deepEqual(fileIds(await other(`/changes?pageToken=${otherStart}&includeSubscribed=false`)), [own.id, shared.id]);

      // The application data folder is outside My Drive.
      const hidden = (await a('/files', { body: { title: 'app state', parents: [{ id: 'appDataFolder' }] } })).body;
      assert.ok(fileIds(await a(`/changes?pageToken=${myStart}&spaces=appDataFolder`)).includes(hidden.id));
      assert.deepEqual(fileIds(await a(`/changes?pageToken=${myStart}&spaces=appDataFolder&includeSubscribed=false`)), []);
      assert.ok(fileIds(await a(`/changes?pageToken=${myStart}&spaces=drive&includeSubscribed=false`)).includes(shared.id));
      assert.equal((await a(`/changes?pageToken=${myStart}&includeSubscribed=sometimes`)).status, 400);
    });

    it('delivers watch notifications through the outbox: sync first, then update and change; channels.stop ends them', async () => {
      const f = (await a('/files', { body: { title: 'watched' } })).body;
      const fileChannel = await a(`/files/${f.id}/watch`, { body: { id: 'file-channel-1', type: 'web_hook', address: hookUrl, token: 'tok-1' } });
      assert.equal(fileChannel.status, 200, fileChannel.text);
      assert.equal(fileChannel.body.kind, 'api#channel');
      const start = (await a('/changes/startPageToken')).body.startPageToken;
      const changesChannel = await a(`/changes/watch?pageToken=${start}`, { body: { id: 'changes-channel-1', type: 'web_hook', address: hookUrl } });
      assert.equal(changesChannel.status, 200);
      await waitFor(() => hooks.filter((h) => h.headers['x-goog-resource-state'] === 'sync').length === 2);
      await a(`/files/${f.id}`, { method: 'PATCH', body: { title: 'watched 2' } });
      await waitFor(() => hooks.some((h) => h.headers['x-goog-resource-state'] === 'update') && hooks.some((h) => h.headers['x-goog-resource-state'] === 'change'));
      const update = hooks.find((h) => h.headers['x-goog-resource-state'] === 'update')!;
      assert.equal(update.headers['x-goog-channel-id'], 'file-channel-1');
      assert.equal(update.headers['x-goog-channel-token'], 'tok-1');
      assert.equal(update.headers['x-goog-message-number'], '2');
      const outbox = await (await fetch(`${t.adminUrl}/outbox?service=files`)).json();
      assert.ok(outbox.messages?.length ?? outbox.items?.length ?? JSON.stringify(outbox).includes('file-channel-1'));
      const stopped = await a('/channels/stop', { body: { id: 'file-channel-1', resourceId: fileChannel.body.resourceId } });
      assert.equal(stopped.status, 204);
      assert.equal((await a('/channels/stop', { body: { id: 'file-channel-1', resourceId: fileChannel.body.resourceId } })).status, 404);
      const bad = await a(`/files/${f.id}/watch`, { body: { id: 'x', address: 'not a url' } });
      assert.equal(bad.status, 400);
      const unknown = await a('/files/nope/watch', { body: { id: 'y', address: hookUrl } });
      assert.equal(unknown.status, 404);
    });

    it('runs shared drives: requestId, members, hide/unhide, items, delete only when empty', async () => {
      const created = await a('/drives?requestId=req-1', { body: { name: 'Team' } });
      assert.equal(created.status, 200, created.text);
      const id = created.body.id;
      assert.equal((await a('/drives?requestId=req-1', { body: { name: 'Team' } })).status, 409);
      assert.equal((await a('/drives', { body: { name: 'No request id' } })).status, 400);
      assert.equal((await a('/drives?requestId=req-2', { body: {} })).status, 400);
      assert.equal((await other(`/drives/${id}`)).status, 404);
      await a(`/files/${id}/permissions?supportsAllDrives=true&sendNotificationEmails=false`, { body: { role: 'writer', type: 'user', value: OTHER_EMAIL } });
      assert.equal((await other(`/drives/${id}`)).body.name, 'Team');
      const item = await other('/files?supportsAllDrives=true', { body: { title: 'in drive', parents: [{ id }] } });
      assert.equal(item.status, 200, item.text);
      assert.equal(item.body.driveId, id);
      assert.deepEqual(item.body.owners, []);
      assert.equal((await other(`/files/${item.body.id}`)).status, 404, 'needs supportsAllDrives');
      const listed = await a(`/files?corpora=drive&driveId=${id}&includeItemsFromAllDrives=true&supportsAllDrives=true`);
      assert.deepEqual(listed.body.items.map((f: any) => f.id), [item.body.id]);
      assert.equal((await a(`/files?corpora=drive&driveId=${id}`)).status, 400);
      const hidden = await a(`/drives/${id}/hide`, { method: 'POST' });
      assert.equal(hidden.body.hidden, true);
      assert.deepEqual((await a(`/drives?q=${encodeURIComponent('hidden = true')}`)).body.items.map((d: any) => d.id), [id]);
      assert.equal((await a(`/drives/${id}/unhide`, { method: 'POST' })).body.hidden, false);
      const renamed = await a(`/drives/${id}`, { method: 'PUT', body: { name: 'Team 2' } });
      assert.equal(renamed.body.name, 'Team 2');
      assert.equal((await other(`/drives/${id}`, { method: 'PUT', body: { name: 'x' } })).status, 403);
      const full = await a(`/drives/${id}`, { method: 'DELETE' });
      assert.equal(full.status, 403);
      await a(`/files/${item.body.id}/trash?supportsAllDrives=true`, { method: 'POST' });
      assert.equal((await a(`/drives/${id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await a(`/drives/${id}`)).status, 404);
      const driveChanges = await other('/changes?pageToken=1');
      assert.ok(driveChanges.body.items.some((c: any) => c.changeType === 'drive'));
    });

    it('keeps comments and replies: a reply verb resolves and reopens, only authors edit', async () => {
      const f = (await a('/files', { body: { title: 'discussed' } })).body;
      await a(`/files/${f.id}/permissions?sendNotificationEmails=false`, { body: { role: 'reader', type: 'user', value: OTHER_EMAIL, additionalRoles: ['commenter'] } });
      const c = await other(`/files/${f.id}/comments`, { body: { content: 'Looks good?' } });
      assert.equal(c.status, 200, c.text);
      assert.equal(c.body.status, 'open');
      assert.equal(c.body.author.emailAddress, OTHER_EMAIL);
      assert.equal((await a(`/files/${f.id}/comments/${c.body.commentId}`, { method: 'PATCH', body: { content: 'mine now' } })).status, 403);
      const resolve = await a(`/files/${f.id}/comments/${c.body.commentId}/replies`, { body: { content: 'Yes', verb: 'resolve' } });
      assert.equal(resolve.body.verb, 'resolve');
      assert.equal((await a(`/files/${f.id}/comments/${c.body.commentId}`)).body.status, 'resolved');
      await other(`/files/${f.id}/comments/${c.body.commentId}/replies`, { body: { verb: 'reopen' } });
      const reopened = await a(`/files/${f.id}/comments/${c.body.commentId}`);
      assert.equal(reopened.body.status, 'open');
      assert.equal(reopened.body.replies.length, 2);
      assert.equal((await a(`/files/${f.id}/comments`, { body: {} })).status, 400);
      assert.equal((await a(`/files/${f.id}/comments`, { body: { content: 'x'.repeat(40_000) } })).status, 400);
      assert.equal((await a(`/files/${f.id}/comments/${c.body.commentId}/replies`, { body: { content: 'x', verb: 'close' } })).status, 400);
      const edited = await a(`/files/${f.id}/comments/${c.body.commentId}/replies/${resolve.body.replyId}`, { method: 'PATCH', body: { content: 'Yes!' } });
      assert.equal(edited.body.content, 'Yes!');
      assert.equal((await a(`/files/${f.id}/comments/${c.body.commentId}/replies`)).body.items.length, 2);
      assert.equal((await a(`/files/${f.id}/comments/${c.body.commentId}`, { method: 'DELETE' })).status, 204);
      assert.equal((await a(`/files/${f.id}/comments`)).body.items.length, 0);
      assert.equal((await a(`/files/${f.id}/comments?includeDeleted=true`)).body.items[0].deleted, true);
    });

    it('keeps properties by visibility with Drive limits; labels; apps', async () => {
      const f = (await a('/files', { body: { title: 'props' } })).body;
      const p = await a(`/files/${f.id}/properties`, { body: { key: 'color', value: 'red', visibility: 'PUBLIC' } });
      assert.equal(p.body.kind, 'drive#property');
      await a(`/files/${f.id}/properties`, { body: { key: 'color', value: 'blue' } });
      assert.equal((await a(`/files/${f.id}/properties`)).body.items.length, 2);
      assert.equal((await a(`/files/${f.id}/properties/color?visibility=PUBLIC`)).body.value, 'red');
      assert.equal((await a(`/files/${f.id}/properties/color`)).body.value, 'blue');
      const patched = await a(`/files/${f.id}/properties/color?visibility=PUBLIC`, { method: 'PATCH', body: { value: 'green' } });
      assert.equal(patched.body.value, 'green');
      const before = await count(t, 'files_properties');
      assert.equal((await a(`/files/${f.id}/properties`, { body: { key: 'k', value: 'v'.repeat(200) } })).status, 400);
      assert.equal((await a(`/files/${f.id}/properties`, { body: { key: 'k', value: 'v', visibility: 'SECRET' } })).status, 400);
      assert.equal((await a(`/files/${f.id}/properties`, { body: { value: 'v' } })).status, 400);
      assert.equal(await count(t, 'files_properties'), before);
      assert.equal((await a(`/files/${f.id}/properties/color?visibility=PUBLIC`, { method: 'DELETE' })).status, 204);
      assert.equal((await a(`/files/${f.id}/properties/color?visibility=PUBLIC`)).status, 404);

      const mod = await a(`/files/${f.id}/modifyLabels`, {
        body: { labelModifications: [{ labelId: 'project', fieldModifications: [{ fieldId: 'stage', setSelectionValues: ['beta'] }, { fieldId: 'count', setIntegerValues: ['3'] }] }] },
      });
      assert.equal(mod.status, 200, mod.text);
      assert.equal(mod.body.modifiedLabels[0].fields.stage.selection[0], 'beta');
      const labels = await a(`/files/${f.id}/listLabels`);
      assert.equal(labels.body.items[0].id, 'project');
      assert.equal((await a(`/files/${f.id}/modifyLabels`, { body: { labelModifications: [{ labelId: 'x', fieldModifications: [{ fieldId: 'd', setDateValues: ['tomorrow'] }] }] } })).status, 400);
      await a(`/files/${f.id}/modifyLabels`, { body: { labelModifications: [{ labelId: 'project', removeLabel: true }] } });
      assert.equal((await a(`/files/${f.id}/listLabels`)).body.items.length, 0);

      const apps = await a('/apps');
      assert.ok(apps.body.items.length >= 3);
      const csvApps = await a('/apps?appFilterExtensions=csv');
      assert.ok(csvApps.body.items.every((x: any) => [...x.primaryFileExtensions, ...x.secondaryFileExtensions].includes('csv')));
      assert.equal((await a(`/apps/${apps.body.items[0].id}`)).body.name, apps.body.items[0].name);
      assert.equal((await a('/apps/000')).status, 404);
    });

    it('stores label fields named like Object.prototype members as ordinary fields, across writes and reads', async () => {
      const f = (await a('/files', { body: { title: 'labelled' } })).body;
      const modify = (fieldModifications: unknown[]) => a(`/files/${f.id}/modifyLabels`, { body: { labelModifications: [{ labelId: 'project', fieldModifications }] } });
      const fieldsOf = (label: any) => Object.fromEntries(Object.entries(label.fields).map(([id, field]: [string, any]) => [id, field.text]));
      const first = await modify([{ fieldId: '__proto__', setTextValues: ['a'] }, { fieldId: 'constructor', setTextValues: ['b'] }]);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(fieldsOf(first.body.modifiedLabels[0]), { ['__proto__']: ['a'], constructor: ['b'] });
      // A second write starts from the stored fields: both survive the JSON round trip.
      const second = await modify([{ fieldId: 'toString', setTextValues: ['c'] }]);
      assert.equal(second.status, 200, second.text);
      assert.deepEqual(fieldsOf(second.body.modifiedLabels[0]), { ['__proto__']: ['a'], constructor: ['b'], toString: ['c'] });
      assert.deepEqual(fieldsOf((await a(`/files/${f.id}/listLabels`)).body.items[0]), { ['__proto__']: ['a'], constructor: ['b'], toString: ['c'] });
      const unset = await modify([{ fieldId: '__proto__', unsetValues: true }]);
      assert.deepEqual(fieldsOf(unset.body.modifiedLabels[0]), { constructor: ['b'], toString: ['c'] });
    });
  });
}
