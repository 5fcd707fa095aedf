// freebusy.query over HTTP and through the googleapis client: merged busy periods of confirmed, opaque events with
// series expanded, what is left out (transparent, cancelled, declined), access errors, and refused queries.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { ALICE, BOB, DEV, api, calendarSuite, client, expectError, syncPoint, timed, unchanged, type Api } from './helpers.ts';

const WINDOW = { timeMin: '2026-03-10T00:00:00Z', timeMax: '2026-03-12T00:00:00Z' };

for (const database of DATABASES) {
  describe(`calendar freebusy.query (${database})`, () => {
    const suite = calendarSuite(database);
    const { dev, bob } = suite;
    before(async () => {
      const ev = (body: unknown, as: Api = dev) => as('/calendars/primary/events', { body });
      // Overlapping and touching events merge into one period.
      await ev({ summary: 'a', ...timed('2026-03-10T09:00:00Z', '2026-03-10T10:00:00Z') });
      await ev({ summary: 'b', ...timed('2026-03-10T09:30:00Z', '2026-03-10T10:30:00Z') });
      await ev({ summary: 'c', ...timed('2026-03-10T10:30:00Z', '2026-03-10T11:00:00Z') });
      // Left out: transparent, cancelled, tentative.
      await ev({ summary: 'free', transparency: 'transparent', ...timed('2026-03-10T13:00:00Z', '2026-03-10T14:00:00Z') });
      const gone = await ev({ summary: 'gone', ...timed('2026-03-10T15:00:00Z', '2026-03-10T16:00:00Z') });
      await dev(`/calendars/primary/events/${gone.body.id}`, { method: 'DELETE' });
      await ev({ summary: 'maybe', status: 'tentative', ...timed('2026-03-10T17:00:00Z', '2026-03-10T18:00:00Z') });
      // A daily series: its 11 March instance is deleted, its 9 March one lies before the window.
      const series = await ev({ summary: 'daily', recurrence: ['RRULE:FREQ=DAILY;COUNT=4'], ...timed('2026-03-09T07:00:00', '2026-03-09T07:30:00', 'Europe/London') });
      await dev(`/calendars/primary/events/${series.body.id}_20260311T070000Z`, { method: 'DELETE' });
      // Crossing the window's end: clipped.
      await ev({ summary: 'late', ...timed('2026-03-11T23:00:00Z', '2026-03-12T02:00:00Z') });
      // Bob invites the developer, who declines: busy for Bob, not for the developer.
      const invite = await ev({ summary: 'invite', attendees: [{ email: DEV }], ...timed('2026-03-11T12:00:00Z', '2026-03-11T13:00:00Z') }, bob);
      const copy = await dev(`/calendars/primary/events/${invite.body.id}`);
      const declined = await dev(`/calendars/primary/events/${invite.body.id}`, { method: 'PATCH', body: { attendees: copy.body.attendees.map((x: any) => ({ ...x, responseStatus: 'declined' })) } });
      assert.equal(declined.status, 200, declined.text);
      // Bob lets the developer see his free/busy only.
      const rule = await bob('/calendars/primary/acl', { body: { role: 'freeBusyReader', scope: { type: 'user', value: DEV } } });
      assert.equal(rule.status, 200, rule.text);
    });

    it('busy periods merged, expanded and clipped; errors for calendars out of reach and groups', async () => {
      const res = await dev('/freeBusy', { body: { ...WINDOW, items: [{ id: 'primary' }, { id: BOB }, { id: ALICE }, { id: 'nobody@example.test' }, { id: 'team@googlegroups.com' }] } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.kind, 'calendar#freeBusy');
      assert.equal(res.body.timeMin, '2026-03-10T00:00:00Z');
      assert.equal(res.body.timeMax, '2026-03-12T00:00:00Z');
      assert.deepEqual(res.body.calendars.primary, {
        busy: [
          { start: '2026-03-10T07:00:00Z', end: '2026-03-10T07:30:00Z' },
          { start: '2026-03-10T09:00:00Z', end: '2026-03-10T11:00:00Z' },
          { start: '2026-03-11T23:00:00Z', end: '2026-03-12T00:00:00Z' },
        ],
      });
      assert.deepEqual(res.body.calendars[BOB], { busy: [{ start: '2026-03-11T12:00:00Z', end: '2026-03-11T13:00:00Z' }] });
      assert.deepEqual(res.body.calendars[ALICE], { busy: [], errors: [{ domain: 'global', reason: 'notFound' }] });
      assert.deepEqual(res.body.calendars['nobody@example.test'].errors, [{ domain: 'global', reason: 'notFound' }]);
      assert.deepEqual(res.body.groups['team@googlegroups.com'], { calendars: [], errors: [{ domain: 'global', reason: 'notFound' }] });
      // A freeBusyReader still may not read the events themselves.
      expectError(await dev(`/calendars/${BOB}/events`), 404, 'notFound');
    });

    it('timeZone shapes the answer; calendarExpansionMax limits the calendars answered', async () => {
      const res = await dev('/freeBusy', { body: { timeMin: '2026-03-10T08:00:00Z', timeMax: '2026-03-10T12:00:00Z', timeZone: 'America/New_York', calendarExpansionMax: 1, items: [{ id: DEV }, { id: BOB }] } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.timeMin, '2026-03-10T04:00:00-04:00');
      assert.deepEqual(res.body.calendars[DEV].busy, [{ start: '2026-03-10T05:00:00-04:00', end: '2026-03-10T07:00:00-04:00' }]);
      assert.deepEqual(res.body.calendars[BOB].errors, [{ domain: 'calendar', reason: 'tooManyCalendarsRequested' }]);
    });

    it('ids named like Object.prototype members are calendars like any other: each answered notFound', async () => {
      const names = ['constructor', '__proto__', 'toString', 'valueOf'];
      const res = await dev('/freeBusy', { body: { ...WINDOW, items: [...names.map((id) => ({ id })), { id: 'primary' }] } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(Object.keys(res.body.calendars).sort(), [...names, 'primary'].sort());
      for (const id of names) {
        assert.deepEqual(Object.getOwnPropertyDescriptor(res.body.calendars, id)?.value, { busy: [], errors: [{ domain: 'global', reason: 'notFound' }] }, id);
      }
      assert.equal(res.body.groups, undefined);
    });

    it('the googleapis client', async () => {
      const res = await client(suite.t).freebusy.query({ requestBody: { ...WINDOW, items: [{ id: DEV }] } });
      assert.equal(res.data.calendars?.[DEV].busy?.length, 3);
      await assert.rejects(client(suite.t).freebusy.query({ requestBody: { timeMin: WINDOW.timeMin, items: [] } }), (e: any) => e.status === 400);
    });

    it('bad queries are 400 and change nothing', async () => {
      const mark = await syncPoint(dev);
      const bad: Array<[unknown, string?]> = [
        [{ timeMax: WINDOW.timeMax }, 'required'],
        [{ timeMin: WINDOW.timeMin }, 'required'],
        [{ timeMin: WINDOW.timeMax, timeMax: WINDOW.timeMin }, 'timeRangeEmpty'],
        [{ timeMin: WINDOW.timeMin, timeMax: WINDOW.timeMin }, 'timeRangeEmpty'],
        [{ timeMin: '2026-03-10', timeMax: WINDOW.timeMax }],
        [{ timeMin: '2026-01-01T00:00:00Z', timeMax: '2027-01-03T00:00:00Z' }, 'timeRangeTooLong'],
        [{ ...WINDOW, timeZone: 'Mars/Olympus' }],
        [{ ...WINDOW, calendarExpansionMax: 51 }],
        [{ ...WINDOW, groupExpansionMax: 0 }],
        [{ ...WINDOW, items: [{}] }, 'required'],
        [{ ...WINDOW, items: [{ id: 5 }] }],
        [{ ...WINDOW, items: 'primary' }],
        [{ ...WINDOW, items: Array.from({ length: 51 }, (_, i) => ({ id: `c${i}@example.test` })) }, 'tooManyCalendarsRequested'],
        [{ ...WINDOW, unknown: true }],
        [[]],
      ];
      for (const [body, reason] of bad) expectError(await dev('/freeBusy', { body }), 400, reason);
      await unchanged(dev, mark);
      expectError(await api(suite.t, 'nope')('/freeBusy', { body: WINDOW }), 401);
    });
  });
}
