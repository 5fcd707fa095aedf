// The calendar through the real `googleapis` calendar v3 client, with rootUrl pointing at twinstack.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { ALICE, DEV, TOKENS, advance, client, startCalendar } from './helpers.ts';

for (const database of DATABASES) {
  describe(`calendar through the googleapis client (${database})`, () => {
    let t: TestRuntime;
    before(async () => {
      t = await startCalendar(database);
    });
    after(async () => t.close());

    it('calendars, events CRUD, instances, list with singleEvents and sync tokens', async () => {
      const cal = client(t);
      const created = await cal.calendars.insert({ requestBody: { summary: 'Client', timeZone: 'Europe/Berlin' } });
      const calendarId = created.data.id!;
      const colors = await cal.colors.get();
      assert.equal(Object.keys(colors.data.event ?? {}).length, 11);
      const list = await cal.calendarList.list();
      assert.deepEqual(list.data.items?.map((c) => c.id), [DEV, calendarId]);
      const ev = await cal.events.insert({
        calendarId,
        requestBody: { summary: 'Sprint review', start: { dateTime: '2026-03-20T10:00:00', timeZone: 'Europe/Berlin' }, end: { dateTime: '2026-03-20T11:00:00', timeZone: 'Europe/Berlin' }, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] },
      });
      assert.equal(ev.status, 200);
      const got = await cal.events.get({ calendarId, eventId: ev.data.id! });
      assert.equal(got.data.summary, 'Sprint review');
      const notModified = await cal.events.get({ calendarId, eventId: ev.data.id! }, { headers: { 'If-None-Match': got.data.etag! } });
      assert.equal(notModified.status, 304);
      const instances = await cal.events.instances({ calendarId, eventId: ev.data.id! });
      // Berlin moves to summer time on 29 March: 10:00 local is 09:00Z, then 08:00Z.
      assert.deepEqual(instances.data.items?.map((i) => i.id), ['20260320T090000Z', '20260327T090000Z', '20260403T080000Z'].map((s) => `${ev.data.id}_${s}`));
      const patched = await cal.events.patch({ calendarId, eventId: instances.data.items![1].id!, requestBody: { summary: 'Review (moved room)', location: 'B2' } });
      assert.equal(patched.data.recurringEventId, ev.data.id);
      const singles = await cal.events.list({ calendarId, singleEvents: true, orderBy: 'startTime', timeMin: '2026-03-01T00:00:00Z', timeMax: '2026-05-01T00:00:00Z' });
      assert.deepEqual(singles.data.items?.map((i) => i.summary), ['Sprint review', 'Review (moved room)', 'Sprint review']);
      const token = singles.data.nextSyncToken!;
      await cal.events.update({ calendarId, eventId: ev.data.id!, requestBody: { ...got.data, summary: 'Sprint demo' } });
      // A changed series syncs as its instances (the exception keeps its own summary), paged.
      const changed = await cal.events.list({ calendarId, syncToken: token, singleEvents: true, maxResults: 2 });
      assert.deepEqual(changed.data.items?.map((i) => i.summary), ['Sprint demo', 'Review (moved room)']);
      const rest = await cal.events.list({ calendarId, syncToken: token, singleEvents: true, maxResults: 2, pageToken: changed.data.nextPageToken! });
      assert.deepEqual(rest.data.items?.map((i) => [i.summary, i.recurringEventId]), [['Sprint demo', ev.data.id]]);
      assert.ok(rest.data.nextSyncToken);
      await cal.events.delete({ calendarId, eventId: ev.data.id! });
      const gone = await cal.events.get({ calendarId, eventId: ev.data.id! });
      assert.equal(gone.data.status, 'cancelled');
      await assert.rejects(cal.events.delete({ calendarId, eventId: ev.data.id! }), (e: any) => e.code === 410 || e.status === 410);
      await assert.rejects(cal.events.list({ calendarId, syncToken: 'CPbogus' }), (e: any) => e.status === 410 && e.response?.data?.error?.errors?.[0]?.reason === 'fullSyncRequired');
      await assert.rejects(cal.events.list({ calendarId, orderBy: 'startTime' }), (e: any) => e.status === 400);
    });

    it('import, move, quickAdd, conference creation and invitations', async () => {
      const cal = client(t);
      const imported = await cal.events.import({ calendarId: 'primary', requestBody: { iCalUID: 'ext-1@partner.test', summary: 'Partner call', start: { dateTime: '2026-03-05T16:00:00Z' }, end: { dateTime: '2026-03-05T17:00:00Z' }, organizer: { email: 'pm@partner.test' } } });
      assert.equal(imported.data.organizer?.email, 'pm@partner.test');
      const target = await cal.calendars.insert({ requestBody: { summary: 'Archive' } });
      const moved = await cal.events.move({ calendarId: 'primary', eventId: imported.data.id!, destination: target.data.id! });
      assert.equal(moved.data.organizer?.email, target.data.id);
      const quick = await cal.events.quickAdd({ calendarId: 'primary', text: 'Dentist next friday at 8am' });
      assert.equal(quick.data.summary, 'Dentist');
      assert.equal(quick.data.start?.dateTime, '2026-03-13T08:00:00Z');
      const meet = await cal.events.insert({
        calendarId: 'primary',
        conferenceDataVersion: 1,
        sendUpdates: 'all',
        requestBody: { summary: 'Sync', start: { dateTime: '2026-03-06T10:00:00Z' }, end: { dateTime: '2026-03-06T10:30:00Z' }, attendees: [{ email: ALICE }], conferenceData: { createRequest: { requestId: 'req-1', conferenceSolutionKey: { type: 'hangoutsMeet' } } } },
      });
      assert.equal(meet.data.conferenceData?.createRequest?.status?.statusCode, 'pending');
      await advance(t, '3s');
      const ready = await cal.events.get({ calendarId: 'primary', eventId: meet.data.id! });
      assert.equal(ready.data.conferenceData?.createRequest?.status?.statusCode, 'success');
      assert.ok(ready.data.hangoutLink);
      const alice = client(t, TOKENS.alice);
      const copy = await alice.events.get({ calendarId: 'primary', eventId: meet.data.id! });
      assert.equal(copy.data.hangoutLink, ready.data.hangoutLink);
      await alice.events.patch({ calendarId: 'primary', eventId: meet.data.id!, requestBody: { attendees: [{ email: ALICE, responseStatus: 'declined' }] } });
      const organizerView = await cal.events.get({ calendarId: 'primary', eventId: meet.data.id! });
      assert.equal(organizerView.data.attendees?.find((a) => a.email === ALICE)?.responseStatus, 'declined');
    });
  });
}
