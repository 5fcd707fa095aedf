// settings.list/get (values, etags, paging, sync tokens) over HTTP and the googleapis client, and the watch channels
// of settings, the calendar list and the ACL: a sync message first, then one per change of that resource.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { BOB, DEV, TOKENS, api, calendarSuite, client, expectError, outbox } from './helpers.ts';

const ADDRESS = 'http://127.0.0.1:9/hook';
const IDS = ['autoAddHangouts', 'dateFieldOrder', 'defaultEventLength', 'format24HourTime', 'hideInvitations', 'hideWeekends', 'locale', 'remindOnRespondedEventsOnly', 'showDeclinedEvents', 'timezone', 'useKeyboardShortcuts', 'weekStart'];

for (const database of DATABASES) {
  describe(`calendar settings and resource watches (${database})`, () => {
    const suite = calendarSuite(database);
    const { dev, bob } = suite;

    const states = async (channelId: string) =>
      (await outbox(suite.t, 'webhook')).filter((m) => m.correlation === `channel:${channelId}`).map((m) => [m.headers['X-Goog-Resource-State'], m.headers['X-Goog-Message-Number']]);

    it('list and get: every setting with its value, timezone from the primary calendar; unknown: 404', async () => {
      const list = await dev('/users/me/settings');
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body.kind, 'calendar#settings');
      assert.ok(list.body.etag);
      assert.deepEqual(list.body.items.map((s: any) => s.id), IDS);
      for (const s of list.body.items) {
        assert.equal(s.kind, 'calendar#setting');
        assert.equal(typeof s.value, 'string');
        assert.match(s.etag, /^".+"$/);
      }
      const byId = Object.fromEntries(list.body.items.map((s: any) => [s.id, s.value]));
      assert.equal(byId.timezone, 'UTC');
      assert.equal(byId.weekStart, '0');
      assert.equal(byId.format24HourTime, 'false');
      assert.ok(list.body.nextSyncToken);
      assert.equal(list.body.nextPageToken, undefined);
      const zone = await dev('/users/me/settings/timezone');
      assert.deepEqual(zone.body, list.body.items.find((s: any) => s.id === 'timezone'));
      expectError(await dev('/users/me/settings/noSuchSetting'), 404, 'notFound');
      expectError(await dev('/users/me/settings/Timezone'), 404, 'notFound');
    });

    it('paging and sync tokens: a zone change of the primary calendar syncs as the timezone setting', async () => {
      const seen: string[] = [];
      let res = await dev('/users/me/settings?maxResults=5');
      seen.push(...res.body.items.map((s: any) => s.id));
      while (res.body.nextPageToken) {
        assert.equal(res.body.nextSyncToken, undefined);
        res = await dev(`/users/me/settings?maxResults=5&pageToken=${encodeURIComponent(res.body.nextPageToken)}`);
        seen.push(...res.body.items.map((s: any) => s.id));
      }
      assert.deepEqual(seen, IDS);
      const token = res.body.nextSyncToken;
      assert.deepEqual((await dev(`/users/me/settings?syncToken=${encodeURIComponent(token)}`)).body.items, []);
      const before = (await dev('/users/me/settings/timezone')).body;
      assert.equal((await dev('/calendars/primary', { method: 'PATCH', body: { timeZone: 'Europe/Paris' } })).status, 200);
      const after = (await dev('/users/me/settings/timezone')).body;
      assert.equal(after.value, 'Europe/Paris');
      assert.notEqual(after.etag, before.etag);
      const changed = await dev(`/users/me/settings?syncToken=${encodeURIComponent(token)}`);
      assert.deepEqual(changed.body.items.map((s: any) => [s.id, s.value]), [['timezone', 'Europe/Paris']]);
      assert.deepEqual((await dev(`/users/me/settings?syncToken=${encodeURIComponent(changed.body.nextSyncToken)}`)).body.items, []);
      // Another user's token, or a forged one, needs a full sync; bad parameters are 400.
      expectError(await bob(`/users/me/settings?syncToken=${encodeURIComponent(token)}`), 410, 'fullSyncRequired');
      expectError(await dev('/users/me/settings?syncToken=CPbogus'), 410, 'fullSyncRequired');
      expectError(await dev('/users/me/settings?maxResults=0'), 400);
      expectError(await dev('/users/me/settings?pageToken=bogus'), 400);
      expectError(await api(suite.t, 'nope')('/users/me/settings'), 401);
    });

    it('the googleapis client', async () => {
      const cal = client(suite.t, TOKENS.bob);
      const list = await cal.settings.list({ maxResults: 20 });
      assert.equal(list.data.items?.length, 12);
      const one = await cal.settings.get({ setting: 'locale' });
      assert.equal(one.data.value, 'en');
      await assert.rejects(cal.settings.get({ setting: 'nope' }), (e: any) => e.status === 404);
    });

    it('settings.watch, calendarList.watch and acl.watch: sync first, then a message when the resource changes', async () => {
      const settings = await dev('/users/me/settings/watch', { body: { id: 'settings-1', type: 'web_hook', address: ADDRESS } });
      assert.equal(settings.status, 200, settings.text);
      assert.equal(settings.body.kind, 'api#channel');
      assert.match(settings.body.resourceUri, /\/calendar\/v3\/users\/me\/settings/);
      const list = await bob('/users/me/calendarList/watch', { body: { id: 'list-1', type: 'web_hook', address: ADDRESS } });
      assert.equal(list.status, 200, list.text);
      const cal = (await dev('/calendars', { body: { summary: 'Shared' } })).body.id;
      const acl = await dev(`/calendars/${encodeURIComponent(cal)}/acl/watch`, { body: { id: 'acl-1', type: 'web_hook', address: ADDRESS } });
      assert.equal(acl.status, 200, acl.text);
      assert.deepEqual(await states('settings-1'), [['sync', '1']]);
      assert.deepEqual(await states('list-1'), [['sync', '1']]);
      assert.deepEqual(await states('acl-1'), [['sync', '1']]);
      // Sharing the calendar with Bob changes its ACL and Bob's list.
      assert.equal((await dev(`/calendars/${encodeURIComponent(cal)}/acl`, { body: { role: 'reader', scope: { type: 'user', value: BOB } } })).status, 200);
      assert.deepEqual(await states('acl-1'), [['sync', '1'], ['exists', '2']]);
      assert.deepEqual(await states('list-1'), [['sync', '1'], ['exists', '2']]);
      // A description change of the primary calendar changes no setting; a zone change does.
      await dev('/calendars/primary', { method: 'PATCH', body: { description: 'mine' } });
      assert.deepEqual(await states('settings-1'), [['sync', '1']]);
      await dev('/calendars/primary', { method: 'PATCH', body: { timeZone: 'Asia/Tokyo' } });
      assert.deepEqual(await states('settings-1'), [['sync', '1'], ['exists', '2']]);
      // Only the owner may watch the ACL; a calendar out of reach is 404.
      expectError(await bob(`/calendars/${encodeURIComponent(cal)}/acl/watch`, { body: { id: 'acl-2', type: 'web_hook', address: ADDRESS } }), 403);
      expectError(await bob(`/calendars/${encodeURIComponent(DEV)}/acl/watch`, { body: { id: 'acl-3', type: 'web_hook', address: ADDRESS } }), 404);
      expectError(await dev('/users/me/settings/watch', { body: { id: 'settings-2', type: 'web_hook' } }), 400);
      expectError(await dev('/users/me/calendarList/watch', { body: { id: 'settings-1', type: 'web_hook', address: ADDRESS } }), 400, 'channelIdNotUnique');
      assert.equal((await dev('/channels/stop', { body: { id: 'settings-1', resourceId: settings.body.resourceId } })).status, 204);
      await dev('/calendars/primary', { method: 'PATCH', body: { timeZone: 'UTC' } });
      assert.deepEqual(await states('settings-1'), [['sync', '1'], ['exists', '2']]);
    });
  });
}
