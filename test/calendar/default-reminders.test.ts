// events.list and events.instances answer the caller's own default reminders of the calendar (set on their calendar
// list entry), so a client can tell what an event with `reminders.useDefault` will remind of.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { BOB, calendarSuite, client, timed, type Api } from './helpers.ts';

const enc = encodeURIComponent;
const DEV_REMINDERS = [{ method: 'popup', minutes: 10 }, { method: 'email', minutes: 1440 }];
const BOB_REMINDERS = [{ method: 'email', minutes: 30 }];

for (const database of DATABASES) {
  describe(`calendar default reminders in event lists (${database})`, () => {
    const suite = calendarSuite(database);
    const { dev, bob } = suite;
    let team: string;
    let seriesId: string;
    before(async () => {
      team = (await dev('/calendars', { body: { summary: 'Team' } })).body.id;
      assert.equal((await dev(`/calendars/${enc(team)}/acl`, { body: { role: 'reader', scope: { type: 'user', value: BOB } } })).status, 200);
      const series = await dev(`/calendars/${enc(team)}/events`, {
        body: { summary: 'Daily', ...timed('2026-03-10T09:00:00', '2026-03-10T09:15:00', 'UTC'), recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] },
      });
      seriesId = series.body.id;
    });

    it('a calendar nobody set reminders for answers an empty list', async () => {
      const list = await dev(`/calendars/${enc(team)}/events`);
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.defaultReminders, []);
    });

    it('each user sees the reminders of their own list entry, in list and instances', async () => {
      const set = (a: Api, defaultReminders: unknown) => a(`/users/me/calendarList/${enc(team)}`, { method: 'PATCH', body: { defaultReminders } });
      assert.equal((await set(dev, DEV_REMINDERS)).status, 200);
      assert.equal((await set(bob, BOB_REMINDERS)).status, 200);
      for (const [a, expected] of [[dev, DEV_REMINDERS], [bob, BOB_REMINDERS]] as const) {
        assert.deepEqual((await a(`/calendars/${enc(team)}/events`)).body.defaultReminders, expected);
        assert.deepEqual((await a(`/calendars/${enc(team)}/events?singleEvents=true`)).body.defaultReminders, expected);
        assert.deepEqual((await a(`/calendars/${enc(team)}/events/${seriesId}/instances`)).body.defaultReminders, expected);
      }
      // The dev user's primary calendar keeps its own (none set).
      assert.deepEqual((await dev('/calendars/primary/events')).body.defaultReminders, []);
    });

    it('the googleapis client reads them after calendarList.patch, and an update clears them', async () => {
      const cal = client(suite.t);
      await cal.calendarList.patch({ calendarId: 'primary', requestBody: { defaultReminders: [{ method: 'popup', minutes: 5 }] } });
      const listed = await cal.events.list({ calendarId: 'primary' });
      assert.deepEqual(listed.data.defaultReminders, [{ method: 'popup', minutes: 5 }]);
      await cal.calendarList.update({ calendarId: 'primary', requestBody: {} });
      const cleared = await cal.events.list({ calendarId: 'primary' });
      assert.deepEqual(cleared.data.defaultReminders, []);
    });
  });
}
