// calendarList.insert/update/patch/delete over HTTP and the googleapis client: the user's overlay on the derived list
// (name, colours, hidden, selected, reminders, notifications), taking calendars off the list and back, list filters
// (showHidden, showDeleted, minAccessRole) with paging, refused input that changes nothing, and a restart.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { ALICE, DEV, TOKENS, api, calendarSuite, client, expectError, outbox } from './helpers.ts';

const enc = encodeURIComponent;
const ids = (res: { body: any }) => res.body.items.map((e: any) => e.id);

for (const database of DATABASES) {
  describe(`calendar list entries (${database})`, () => {
    const suite = calendarSuite(database);
    const { dev, alice, bob } = suite;
    let team: string;
    let bobs: string;
    let alicesSecret: string;
    const entry = (id: string) => `/users/me/calendarList/${enc(id)}`;
    const everything = () => dev('/users/me/calendarList?showHidden=true&showDeleted=true');
    before(async () => {
      team = (await dev('/calendars', { body: { summary: 'Team' } })).body.id;
      bobs = (await bob('/calendars', { body: { summary: "Bob's" } })).body.id;
      assert.equal((await bob(`/calendars/${enc(bobs)}/acl`, { body: { role: 'reader', scope: { type: 'user', value: DEV } } })).status, 200);
      assert.equal((await alice('/calendars/primary/acl', { body: { role: 'freeBusyReader', scope: { type: 'user', value: DEV } } })).status, 200);
      alicesSecret = (await alice('/calendars', { body: { summary: 'Secret' } })).body.id;
    });

    it('the derived list with minAccessRole; every entry with default colours and selected', async () => {
      const all = await dev('/users/me/calendarList');
      assert.equal(all.status, 200, all.text);
      // The own primary first, then by id.
      assert.deepEqual(ids(all), [DEV, ...[ALICE, bobs, team].sort()]);
      const mine = all.body.items.find((e: any) => e.id === team);
      assert.deepEqual([mine.colorId, mine.backgroundColor, mine.foregroundColor, mine.selected, mine.hidden, mine.accessRole], ['14', '#9fe1e7', '#000000', true, undefined, 'owner']);
      assert.deepEqual(ids(await dev('/users/me/calendarList?minAccessRole=reader')).includes(ALICE), false);
      assert.deepEqual(ids(await dev('/users/me/calendarList?minAccessRole=owner')), [DEV, team]);
      expectError(await dev('/users/me/calendarList?minAccessRole=boss'), 400);
      expectError(await dev('/users/me/calendarList?showHidden=maybe'), 400);
    });

    it('patch and update change the overlay; hidden entries need showHidden', async () => {
      const before = await dev(entry(team));
      const patched = await dev(entry(team), { method: 'PATCH', body: { summaryOverride: 'My team', colorId: '3', hidden: true, defaultReminders: [{ method: 'popup', minutes: 10 }], notificationSettings: { notifications: [{ type: 'eventCreation', method: 'email' }] } } });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual([patched.body.summary, patched.body.summaryOverride, patched.body.colorId, patched.body.backgroundColor, patched.body.hidden], ['Team', 'My team', '3', '#f83a22', true]);
      assert.deepEqual(patched.body.defaultReminders, [{ method: 'popup', minutes: 10 }]);
      assert.deepEqual(patched.body.notificationSettings, { notifications: [{ type: 'eventCreation', method: 'email' }] });
      assert.notEqual(patched.body.etag, before.body.etag);
      assert.deepEqual(await dev(entry(team)).then((r) => r.body), patched.body);
      assert.equal(ids(await dev('/users/me/calendarList')).includes(team), false);
      assert.equal(ids(await dev('/users/me/calendarList?showHidden=true')).includes(team), true);
      // PUT replaces: whatever it leaves out goes back to the default.
      const put = await dev(entry(team), { method: 'PUT', body: { selected: false } });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual([put.body.summaryOverride, put.body.colorId, put.body.hidden, put.body.selected, put.body.defaultReminders, put.body.notificationSettings], [undefined, '14', undefined, false, [], undefined]);
      // null clears one field on patch.
      await dev(entry(team), { method: 'PATCH', body: { summaryOverride: 'X' } });
      assert.equal((await dev(entry(team), { method: 'PATCH', body: { summaryOverride: null } })).body.summaryOverride, undefined);
    });

    it('RGB colours are written with colorRgbFormat and pick the closest colorId', async () => {
      // Without colorRgbFormat the RGB fields are ignored (a client writes back what it read).
      const ignored = await dev(entry(team), { method: 'PATCH', body: { backgroundColor: '#ff0000', foregroundColor: 'not a colour' } });
      assert.equal(ignored.status, 200, ignored.text);
      assert.deepEqual([ignored.body.colorId, ignored.body.backgroundColor], ['14', '#9fe1e7']);
      const rgb = await dev(`${entry(team)}?colorRgbFormat=true`, { method: 'PATCH', body: { backgroundColor: '#F93B21', foregroundColor: '#ffffff' } });
      assert.equal(rgb.status, 200, rgb.text);
      assert.deepEqual([rgb.body.backgroundColor, rgb.body.foregroundColor, rgb.body.colorId], ['#f93b21', '#ffffff', '3']);
      // A colorId afterwards brings the palette's colours back.
      const byId = await dev(entry(team), { method: 'PATCH', body: { colorId: '7' } });
      assert.deepEqual([byId.body.colorId, byId.body.backgroundColor], ['7', '#42d692']);
    });

    it('delete takes a calendar off the list (showDeleted shows it), insert puts it back; the own primary stays', async () => {
      assert.equal((await dev(entry(bobs), { method: 'DELETE' })).status, 204);
      assert.equal(ids(await dev('/users/me/calendarList')).includes(bobs), false);
      const shown = (await dev('/users/me/calendarList?showDeleted=true')).body.items.find((e: any) => e.id === bobs);
      assert.equal(shown.deleted, true);
      expectError(await dev(entry(bobs)), 404, 'notFound');
      expectError(await dev(entry(bobs), { method: 'PATCH', body: { selected: false } }), 404, 'notFound');
      expectError(await dev(entry(bobs), { method: 'DELETE' }), 404, 'notFound');
      // Removing it from the list leaves access as it was.
      assert.equal((await dev(`/calendars/${enc(bobs)}/events`)).status, 200);
      const back = await dev('/users/me/calendarList', { body: { id: bobs, summaryOverride: 'Bob' } });
      assert.equal(back.status, 200, back.text);
      assert.deepEqual([back.body.id, back.body.summaryOverride, back.body.accessRole, back.body.deleted], [bobs, 'Bob', 'reader', undefined]);
      assert.equal(ids(await dev('/users/me/calendarList')).includes(bobs), true);
      expectError(await dev(entry('primary'), { method: 'DELETE' }), 400, 'cannotDeletePrimaryCalendar');
      expectError(await dev(entry(DEV), { method: 'DELETE' }), 400, 'cannotDeletePrimaryCalendar');
      // Someone else's primary shared with the user can leave the list.
      assert.equal((await dev(entry(ALICE), { method: 'DELETE' })).status, 204);
      assert.equal((await dev('/users/me/calendarList', { body: { id: ALICE } })).status, 200);
    });

    it('refused input is 400/403/404 and changes nothing', async () => {
      const before = (await everything()).body;
      const bad: Array<[string, string, unknown, number, string?]> = [
        ['POST', '/users/me/calendarList', { summaryOverride: 'x' }, 400, 'required'],
        ['POST', '/users/me/calendarList', { id: alicesSecret }, 404, 'notFound'],
        ['POST', '/users/me/calendarList', { id: 'nobody@example.test' }, 404, 'notFound'],
        ['PATCH', entry(alicesSecret), { selected: true }, 404, 'notFound'],
        ['PATCH', entry(team), { defaultReminders: Array.from({ length: 6 }, () => ({ method: 'popup', minutes: 5 })) }, 400],
        ['PATCH', entry(team), { defaultReminders: [{ method: 'popup', minutes: 40321 }] }, 400],
        ['PATCH', entry(team), { defaultReminders: [{ method: 'sms', minutes: 5 }] }, 400],
        ['PATCH', entry(team), { defaultReminders: [{ minutes: 5 }] }, 400, 'required'],
        ['PATCH', entry(team), { notificationSettings: { notifications: [{ type: 'everything', method: 'email' }] } }, 400],
        ['PATCH', entry(team), { notificationSettings: { notifications: [{ type: 'agenda', method: 'sms' }] } }, 400],
        ['PATCH', entry(team), { colorId: '25' }, 400],
        ['PATCH', entry(team), { hidden: 'yes' }, 400],
        ['PATCH', entry(team), { unknownField: 1 }, 400],
        ['PATCH', `${entry(team)}?colorRgbFormat=true`, { backgroundColor: 'red' }, 400],
        ['PUT', `${entry(team)}?colorRgbFormat=maybe`, {}, 400],
      ];
      for (const [method, path, body, status, reason] of bad) expectError(await dev(path, { method, body }), status, reason);
      expectError(await api(suite.t, TOKENS.readonly)(entry(ALICE), { method: 'PATCH', body: { selected: false } }), 403);
      assert.deepEqual((await everything()).body, before);
    });

    it('a colorId named like an Object.prototype member is no colour: 400, nothing stored, RGB writes still work', async () => {
      const before = (await everything()).body;
      for (const colorId of ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty']) {
        const res = await dev(entry(team), { method: 'PATCH', body: { colorId } });
        expectError(res, 400, 'invalid');
        assert.equal(res.body.error.message, `Invalid value for colorId: ${JSON.stringify(colorId)}.`);
      }
      assert.deepEqual((await everything()).body, before);
      // The entry's colours stay readable: an RGB write starts from its (palette) colorId.
      const rgb = await dev(`${entry(team)}?colorRgbFormat=true`, { method: 'PATCH', body: { foregroundColor: '#ffffff' } });
      assert.equal(rgb.status, 200, rgb.text);
      assert.equal(rgb.body.foregroundColor, '#ffffff');
    });

    it('paging keeps to the filters; the overlay survives a restart', async () => {
      const pages: string[] = [];
      let res = await dev('/users/me/calendarList?showHidden=true&maxResults=1');
      pages.push(...ids(res));
      while (res.body.nextPageToken) {
        res = await dev(`/users/me/calendarList?showHidden=true&maxResults=1&pageToken=${enc(res.body.nextPageToken)}`);
        pages.push(...ids(res));
      }
      assert.deepEqual(pages, ids(await dev('/users/me/calendarList?showHidden=true')));
      expectError(await dev(`/users/me/calendarList?maxResults=1&pageToken=${enc((await dev('/users/me/calendarList?showHidden=true&maxResults=1')).body.nextPageToken)}`), 400);
      const before = (await everything()).body;
      await suite.t.restart();
      assert.deepEqual((await everything()).body, before);
    });

    it('calendarList.watch: changes of the own entries notify the channel', async () => {
      const ch = await dev('/users/me/calendarList/watch', { body: { id: 'own-list', type: 'web_hook', address: 'http://127.0.0.1:9/hook' } });
      assert.equal(ch.status, 200, ch.text);
      const states = async () => (await outbox(suite.t, 'webhook')).filter((m) => m.correlation === 'channel:own-list').map((m) => m.headers['X-Goog-Resource-State']);
      assert.deepEqual(await states(), ['sync']);
      await dev(entry(team), { method: 'PATCH', body: { selected: true } });
      await dev(entry(bobs), { method: 'DELETE' });
      await dev('/users/me/calendarList', { body: { id: bobs } });
      assert.deepEqual(await states(), ['sync', 'exists', 'exists', 'exists']);
      // Refused writes send nothing.
      expectError(await dev(entry(team), { method: 'PATCH', body: { colorId: '99' } }), 400);
      assert.deepEqual(await states(), ['sync', 'exists', 'exists', 'exists']);
    });

    it('the googleapis client', async () => {
      const cal = client(suite.t);
      const patched = await cal.calendarList.patch({ calendarId: team, colorRgbFormat: true, requestBody: { backgroundColor: '#16a765', foregroundColor: '#000000' } });
      assert.equal(patched.data.colorId, '8');
      await cal.calendarList.delete({ calendarId: bobs });
      const list = await cal.calendarList.list({ showDeleted: true, minAccessRole: 'reader' });
      assert.equal(list.data.items?.find((e) => e.id === bobs)?.deleted, true);
      const inserted = await cal.calendarList.insert({ requestBody: { id: bobs, hidden: true } });
      assert.equal(inserted.data.hidden, true);
      const updated = await cal.calendarList.update({ calendarId: bobs, requestBody: { ...inserted.data, hidden: false, summaryOverride: 'B' } });
      assert.deepEqual([updated.data.hidden, updated.data.summaryOverride], [undefined, 'B']);
      await assert.rejects(cal.calendarList.delete({ calendarId: 'primary' }), (e: any) => e.status === 400);
    });
  });
}
