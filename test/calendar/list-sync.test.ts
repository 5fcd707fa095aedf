// Incremental sync of acl.list and calendarList.list: nextSyncToken on the last page, changes since a token (deleted
// rules as role "none", entries that left the list as deleted), refused combinations, 410 for foreign tokens, paging
// while the list changes, a restart, and the googleapis client.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { ALICE, BOB, DEV, calendarSuite, client, expectError, type Api } from './helpers.ts';

const enc = encodeURIComponent;

/** Every page of a list from `path` (which already has a query string); the items and the last page's sync token. */
async function all(a: Api, path: string): Promise<{ items: any[]; nextSyncToken: string }> {
  const items: any[] = [];
  let res = await a(path);
  for (;;) {
    assert.equal(res.status, 200, res.text);
    items.push(...res.body.items);
    if (!res.body.nextPageToken) break;
    assert.equal(res.body.nextSyncToken, undefined);
    res = await a(`${path}&pageToken=${enc(res.body.nextPageToken)}`);
  }
  assert.ok(res.body.nextSyncToken, res.text);
  return { items, nextSyncToken: res.body.nextSyncToken };
}

const summary = (items: any[]) => items.map((r) => `${r.id}=${r.role ?? (r.deleted ? 'deleted' : r.accessRole)}`);

for (const database of DATABASES) {
  describe(`calendar acl and calendar list sync (${database})`, () => {
    const suite = calendarSuite(database);
    const { dev, alice, bob } = suite;

    it('acl.list: the last page carries nextSyncToken; a sync gives the rules changed since, deleted ones with role none', async () => {
      const cal = (await dev('/calendars', { body: { summary: 'Acl sync' } })).body.id;
      const acl = `/calendars/${enc(cal)}/acl`;
      await dev(acl, { body: { role: 'reader', scope: { type: 'user', value: BOB } } });
      const full = await all(dev, `${acl}?maxResults=1`);
      assert.deepEqual(summary(full.items), [`user:${DEV}=owner`, `user:${BOB}=reader`]);

      await dev(acl, { body: { role: 'writer', scope: { type: 'user', value: ALICE } } });
      assert.equal((await dev(`${acl}/${enc(`user:${BOB}`)}`, { method: 'DELETE' })).status, 204);
      // Paged at one rule a page: both changes, no owner rule.
      const changed = await all(dev, `${acl}?maxResults=1&syncToken=${enc(full.nextSyncToken)}`);
      assert.deepEqual(summary(changed.items), [`user:${ALICE}=writer`, `user:${BOB}=none`]);
      assert.deepEqual((await all(dev, `${acl}?syncToken=${enc(changed.nextSyncToken)}`)).items, []);
      // The first token still gives the same changes.
      assert.deepEqual(summary((await all(dev, `${acl}?syncToken=${enc(full.nextSyncToken)}&showDeleted=true`)).items), [`user:${ALICE}=writer`, `user:${BOB}=none`]);

      // The deleted rule is shown only with showDeleted; it names no rule otherwise.
      assert.deepEqual(summary((await dev(acl)).body.items), [`user:${DEV}=owner`, `user:${ALICE}=writer`]);
      assert.deepEqual(summary((await dev(`${acl}?showDeleted=true`)).body.items), [`user:${DEV}=owner`, `user:${ALICE}=writer`, `user:${BOB}=none`]);
      expectError(await dev(`${acl}/${enc(`user:${BOB}`)}`), 404, 'notFound');
      expectError(await dev(`${acl}/${enc(`user:${BOB}`)}`, { method: 'PATCH', body: { role: 'reader' } }), 404, 'notFound');
      expectError(await dev(`${acl}/${enc(`user:${BOB}`)}`, { method: 'DELETE' }), 404, 'notFound');
      expectError(await bob(`/calendars/${enc(cal)}`), 404, 'notFound');

      // Shared again: a new rule with a new ETag, reported by the next sync.
      const again = await dev(acl, { body: { role: 'reader', scope: { type: 'user', value: BOB } } });
      const tombstone = (await dev(`${acl}?showDeleted=true`)).body.items.find((r: any) => r.id === `user:${BOB}`);
      assert.equal(tombstone.role, 'reader');
      assert.equal((await bob(`/calendars/${enc(cal)}`)).status, 200);
      const resumed = await all(dev, `${acl}?syncToken=${enc(changed.nextSyncToken)}`);
      assert.deepEqual(resumed.items, [again.body]);
    });

    it('acl.list: refused combinations and foreign tokens change nothing', async () => {
      const cal = (await dev('/calendars', { body: { summary: 'Acl refusals' } })).body.id;
      const acl = `/calendars/${enc(cal)}/acl`;
      const { nextSyncToken } = await all(dev, `${acl}?x=1`);
      const refused = await dev(`${acl}?syncToken=${enc(nextSyncToken)}&showDeleted=false`);
      expectError(refused, 400, 'invalid');
      assert.equal(refused.body.error.errors[0].location, 'showDeleted');
      const gone = await dev(`${acl}?syncToken=CPbogus`);
      expectError(gone, 410, 'fullSyncRequired');
      assert.deepEqual([gone.body.error.errors[0].domain, gone.body.error.errors[0].location], ['calendar', 'syncToken']);
      // A token of another calendar's ACL, of the calendar's events, or of the calendar list.
      const other = (await all(dev, `/calendars/primary/acl?x=1`)).nextSyncToken;
      const events = (await dev(`/calendars/${enc(cal)}/events`)).body.nextSyncToken;
      const list = (await all(dev, '/users/me/calendarList?x=1')).nextSyncToken;
      for (const token of [other, events, list]) expectError(await dev(`${acl}?syncToken=${enc(token)}`), 410, 'fullSyncRequired');
      // An ACL token is no events token either.
      expectError(await dev(`/calendars/${enc(cal)}/events?syncToken=${enc(nextSyncToken)}`), 410, 'fullSyncRequired');
      assert.deepEqual((await all(dev, `${acl}?syncToken=${enc(nextSyncToken)}`)).items, []);
    });

    it('calendarList.list: a calendar shared and then unshared comes and goes in the grantee\'s sync', async () => {
      const start = await all(alice, '/users/me/calendarList?x=1');
      const cal = (await dev('/calendars', { body: { summary: 'Shared then not' } })).body.id;
      // Nothing of Alice's list changed yet.
      assert.deepEqual((await all(alice, `/users/me/calendarList?syncToken=${enc(start.nextSyncToken)}`)).items, []);
      await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'reader', scope: { type: 'user', value: ALICE } } });
      const shared = await all(alice, `/users/me/calendarList?syncToken=${enc(start.nextSyncToken)}`);
      assert.deepEqual(summary(shared.items), [`${cal}=reader`]);
      assert.equal(shared.items[0].summary, 'Shared then not');
      // A role change and a change of the calendar's properties are read-only fields of the entry: not reported.
      await dev(`/calendars/${enc(cal)}/acl/${enc(`user:${ALICE}`)}`, { method: 'PATCH', body: { role: 'writer' } });
      await dev(`/calendars/${enc(cal)}`, { method: 'PATCH', body: { summary: 'Renamed' } });
      assert.deepEqual((await all(alice, `/users/me/calendarList?syncToken=${enc(shared.nextSyncToken)}`)).items, []);
      await dev(`/calendars/${enc(cal)}/acl/${enc(`user:${ALICE}`)}`, { method: 'DELETE' });
      const unshared = await all(alice, `/users/me/calendarList?syncToken=${enc(shared.nextSyncToken)}`);
      assert.deepEqual(unshared.items, [{ kind: 'calendar#calendarListEntry', etag: unshared.items[0].etag, id: cal, deleted: true }]);
      // From the first token, the calendar is simply deleted.
      assert.deepEqual(summary((await all(alice, `/users/me/calendarList?syncToken=${enc(start.nextSyncToken)}`)).items), [`${cal}=deleted`]);
      assert.deepEqual((await all(alice, `/users/me/calendarList?syncToken=${enc(unshared.nextSyncToken)}`)).items, []);
    });

    it('calendarList.list: own entries hidden or taken off, calendars created and deleted; a restart keeps tokens', async () => {
      const start = await all(bob, '/users/me/calendarList?x=1');
      const own = (await bob('/calendars', { body: { summary: 'Bob side' } })).body.id;
      const gone = (await bob('/calendars', { body: { summary: 'Bob gone' } })).body.id;
      const devs = (await dev('/calendars', { body: { summary: 'Dev for Bob' } })).body.id;
      await dev(`/calendars/${enc(devs)}/acl`, { body: { role: 'freeBusyReader', scope: { type: 'user', value: BOB } } });
      const created = await all(bob, `/users/me/calendarList?syncToken=${enc(start.nextSyncToken)}`);
      assert.deepEqual(summary(created.items), [`${devs}=freeBusyReader`, `${own}=owner`, `${gone}=owner`].sort());

      await bob(`/users/me/calendarList/${enc(own)}`, { method: 'PATCH', body: { hidden: true } });
      await bob(`/users/me/calendarList/${enc(devs)}`, { method: 'DELETE' });
      await bob(`/calendars/${enc(gone)}`, { method: 'DELETE' });
      await suite.t.restart();
      const changed = await all(bob, `/users/me/calendarList?syncToken=${enc(created.nextSyncToken)}&showHidden=true&showDeleted=true`);
      const byId = new Map(changed.items.map((e: any) => [e.id, e]));
      assert.deepEqual([...byId.keys()].sort(), [devs, own, gone].sort());
      assert.equal(byId.get(own).hidden, true);
      assert.deepEqual([byId.get(devs).deleted, byId.get(devs).summary], [true, 'Dev for Bob']);
      assert.deepEqual(byId.get(gone), { kind: 'calendar#calendarListEntry', etag: byId.get(gone).etag, id: gone, deleted: true });
      // Without showHidden and showDeleted the full list leaves them out.
      const listed = (await all(bob, '/users/me/calendarList?x=1')).items.map((e: any) => e.id);
      assert.deepEqual([own, devs, gone].filter((id) => listed.includes(id)), []);
    });

    it('calendarList.list: a change between pages neither skips an entry nor is lost', async () => {
      for (const name of ['P1', 'P2', 'P3']) await alice('/calendars', { body: { summary: name } });
      const ids = (await all(alice, '/users/me/calendarList?x=1')).items.map((e: any) => e.id);
      assert.ok(ids.length >= 4);
      const first = await alice('/users/me/calendarList?maxResults=2');
      assert.deepEqual(first.body.items.map((e: any) => e.id), ids.slice(0, 2));
      // An entry of the first page is taken off the list before the next page is read: the rest still follows.
      await alice(`/users/me/calendarList/${enc(ids[1])}`, { method: 'DELETE' });
      const rest = await alice(`/users/me/calendarList?maxResults=${ids.length}&pageToken=${enc(first.body.nextPageToken)}`);
      assert.deepEqual(rest.body.items.map((e: any) => e.id), ids.slice(2));
      // The list's token predates the change, so the next sync reports it.
      const synced = await all(alice, `/users/me/calendarList?syncToken=${enc(rest.body.nextSyncToken)}`);
      assert.deepEqual(summary(synced.items), [`${ids[1]}=deleted`]);
    });

    it('calendarList.list: refused combinations and foreign tokens', async () => {
      const { nextSyncToken } = await all(alice, '/users/me/calendarList?x=1');
      for (const [param, value] of [['minAccessRole', 'reader'], ['showDeleted', 'false'], ['showHidden', 'false']]) {
        const res = await alice(`/users/me/calendarList?syncToken=${enc(nextSyncToken)}&${param}=${value}`);
        expectError(res, 400, 'invalid');
        assert.equal(res.body.error.errors[0].location, param);
      }
      const bobs = (await all(bob, '/users/me/calendarList?x=1')).nextSyncToken;
      const acl = (await all(alice, '/calendars/primary/acl?x=1')).nextSyncToken;
      for (const token of [bobs, acl, 'CPbogus', 'garbage']) expectError(await alice(`/users/me/calendarList?syncToken=${enc(token)}`), 410, 'fullSyncRequired');
      assert.deepEqual((await all(alice, `/users/me/calendarList?syncToken=${enc(nextSyncToken)}`)).items, []);
    });

    it('the googleapis client syncs both lists and sees 410 for a bad token', async () => {
      const cal = client(suite.t);
      const owned = (await cal.calendars.insert({ requestBody: { summary: 'Client sync' } })).data.id!;
      const list = await cal.calendarList.list({ showHidden: true });
      const acl = await cal.acl.list({ calendarId: owned });
      assert.ok(list.data.nextSyncToken && acl.data.nextSyncToken);
      await cal.acl.insert({ calendarId: owned, requestBody: { role: 'reader', scope: { type: 'user', value: ALICE } } });
      await cal.acl.delete({ calendarId: owned, ruleId: `user:${ALICE}` });
      const aclChanges = await cal.acl.list({ calendarId: owned, syncToken: acl.data.nextSyncToken!, maxResults: 5 });
      assert.deepEqual(aclChanges.data.items?.map((r) => [r.id, r.role]), [[`user:${ALICE}`, 'none']]);
      await cal.calendarList.patch({ calendarId: owned, requestBody: { summaryOverride: 'Mine' } });
      const listChanges = await cal.calendarList.list({ syncToken: list.data.nextSyncToken!, showDeleted: true });
      assert.deepEqual(listChanges.data.items?.map((e) => [e.id, e.summaryOverride]), [[owned, 'Mine']]);
      assert.ok(listChanges.data.nextSyncToken);
      await assert.rejects(cal.calendarList.list({ syncToken: 'CPbogus' }), (e: any) => e.status === 410 && e.response?.data?.error?.errors?.[0]?.reason === 'fullSyncRequired');
      await assert.rejects(cal.calendarList.list({ syncToken: list.data.nextSyncToken!, minAccessRole: 'owner' }), (e: any) => e.status === 400);
      await assert.rejects(cal.acl.list({ calendarId: owned, syncToken: 'CPbogus' }), (e: any) => e.status === 410);
    });
  });
}
