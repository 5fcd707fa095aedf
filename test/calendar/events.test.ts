// events.insert/get/update/patch/delete/import/move through HTTP: every rule of the event table and limits, ETags,
// and bad input refused with Calendar's error body and no change.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { DEV, calendarSuite, expectError, syncPoint, timed, unchanged } from './helpers.ts';

const T = timed('2026-03-10T09:00:00Z', '2026-03-10T10:00:00Z');

for (const database of DATABASES) {
  describe(`calendar events over HTTP (${database})`, () => {
    const suite = calendarSuite(database);
    const { dev: a } = suite;

    it('inserts, reads back with an ETag, and answers 304 to If-None-Match', async () => {
      const ins = await a('/calendars/primary/events', { body: { summary: 'Plan', description: '<b>agenda</b>', location: 'Room 1', colorId: '3', ...T, extendedProperties: { private: { k: 'v' }, shared: { s: '1' } } } });
      assert.equal(ins.status, 200);
      assert.match(ins.body.id, /^[a-v0-9]{5,1024}$/);
      assert.equal(ins.body.kind, 'calendar#event');
      assert.equal(ins.body.organizer.email, DEV);
      assert.equal(ins.body.organizer.self, true);
      assert.equal(ins.body.creator.email, DEV);
      assert.equal(ins.body.sequence, 0);
      assert.deepEqual(ins.body.reminders, { useDefault: true });
      assert.equal(ins.body.iCalUID.length > 0, true);
      const got = await a(`/calendars/primary/events/${ins.body.id}`);
      assert.deepEqual(got.body, ins.body);
      const again = await a(`/calendars/${encodeURIComponent(DEV)}/events/${ins.body.id}`, { headers: { 'if-none-match': got.body.etag } });
      assert.equal(again.status, 304);
      assert.equal(again.text, '');
    });

    it('takes a client id, refuses a bad one and a reused one (even deleted) with no change', async () => {
      const ok = await a('/calendars/primary/events', { body: { id: 'abcdev12345', ...T } });
      assert.equal(ok.body.id, 'abcdev12345');
      await a('/calendars/primary/events/abcdev12345', { method: 'DELETE' });
      const mark = await syncPoint(a);
      expectError(await a('/calendars/primary/events', { body: { id: 'abcdev12345', ...T } }), 409, 'duplicate');
      for (const id of ['abcd', 'ABCDEF', 'abcdwxyz', 'a'.repeat(1025), 'abc_def12', 42]) {
        expectError(await a('/calendars/primary/events', { body: { id, ...T } }), 400, 'invalid');
      }
      expectError(await a('/calendars/primary/events', { body: { id: 'bothidanduid', iCalUID: 'x@y', ...T } }), 400);
      await unchanged(a, mark);
    });

    it('refuses bad times, types, unknown fields and over-long values, changing nothing', async () => {
      const mark = await syncPoint(a);
      const bad: Array<[unknown, string?]> = [
        [{ start: T.start }, 'required'],
        [{ end: T.end }, 'required'],
        [timed('2026-03-10T10:00:00Z', '2026-03-10T09:00:00Z'), 'timeRangeEmpty'],
        [{ start: { date: '2026-03-10' }, end: { date: '2026-03-10' } }, 'timeRangeEmpty'],
        [{ start: { date: '2026-03-10' }, end: { dateTime: '2026-03-11T00:00:00Z' } }],
        [timed('2026-03-10T09:00:00', '2026-03-10T10:00:00')],
        [timed('2026-03-10T09:00:00', '2026-03-10T10:00:00', 'Mars/Olympus')],
        [{ start: { date: '2026-02-30' }, end: { date: '2026-03-01' } }],
        [{ ...T, summary: 42 }],
        [{ ...T, summary: 'x'.repeat(1025) }],
        [{ ...T, description: 'x'.repeat(8193) }],
        [{ ...T, colorId: '99' }],
        [{ ...T, transparency: 'see-through' }],
        [{ ...T, visibility: 'secret' }],
        [{ ...T, status: 'done' }],
        [{ ...T, nonsense: true }],
        [{ ...T, recurrence: ['RRULE:FREQ=DAILY'] }],
        [{ ...T, start: { ...T.start, timeZone: 'UTC' }, end: T.end, recurrence: ['RRULE:FREQ=NEVER'] }],
        // Calendar repeats by the day at the finest, at most 24 times a day.
        [{ ...T, start: { ...T.start, timeZone: 'UTC' }, end: T.end, recurrence: ['RRULE:FREQ=SECONDLY'] }],
        [{ ...T, start: { ...T.start, timeZone: 'UTC' }, end: T.end, recurrence: [`RRULE:FREQ=DAILY;BYMINUTE=${Array.from({ length: 60 }, (_, i) => i).join(',')}`] }],
        [{ ...T, reminders: { useDefault: false, overrides: Array.from({ length: 6 }, () => ({ method: 'popup', minutes: 10 })) } }],
        [{ ...T, reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 40321 }] } }],
        [{ ...T, reminders: { useDefault: false, overrides: [{ method: 'sms', minutes: 10 }] } }],
        [{ ...T, reminders: { useDefault: false, overrides: [{ method: 'popup' }] } }, 'required'],
        [{ ...T, reminders: { useDefault: true, overrides: [{ method: 'popup', minutes: 5 }] } }],
        [{ ...T, attendees: [{ email: 'not an email' }] }],
        [{ ...T, attendees: [{ displayName: 'no email' }] }, 'required'],
        [{ ...T, attendees: [{ email: 'a@b.test' }, { email: 'A@b.test' }] }],
        [{ ...T, attendees: [{ email: 'a@b.test', responseStatus: 'maybe' }] }],
        [{ ...T, extendedProperties: { private: { k: 7 } } }],
        [{ ...T, extendedProperties: { private: { ['k'.repeat(45)]: 'v' } } }],
        [{ ...T, source: { url: 'ftp://x', title: 't' } }],
        [{ ...T, sequence: -1 }],
        [{ ...T, eventType: 'fromGmail' }, 'eventTypeRestriction'],
        [{ ...T, eventType: 'party' }],
        ['not an object'],
      ];
      for (const [body, reason] of bad) expectError(await a('/calendars/primary/events', { body }), 400, reason);
      expectError(await a('/calendars/primary/events', { raw: '{"summary":', headers: { 'content-type': 'application/json' } }), 400);
      expectError(await a('/calendars/nobody%40nowhere.test/events', { body: T }), 404, 'notFound');
      await unchanged(a, mark);
    });

    it('reminders: at most 5 overrides from 0 to 40320 minutes; changing them does not move updated', async () => {
      const ins = await a('/calendars/primary/events', { body: { ...T, reminders: { useDefault: false, overrides: [{ method: 'email', minutes: 0 }, { method: 'popup', minutes: 40320 }] } } });
      assert.equal(ins.status, 200);
      await fetch(`${suite.t.adminUrl}/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: '1h' }) });
      const patched = await a(`/calendars/primary/events/${ins.body.id}`, { method: 'PATCH', body: { reminders: { useDefault: true } } });
      assert.deepEqual(patched.body.reminders, { useDefault: true });
      assert.equal(patched.body.updated, ins.body.updated);
      assert.notEqual(patched.body.etag, ins.body.etag);
      const renamed = await a(`/calendars/primary/events/${ins.body.id}`, { method: 'PATCH', body: { summary: 'renamed' } });
      assert.notEqual(renamed.body.updated, ins.body.updated);
    });

    it('update replaces, patch merges (arrays replaced), sequence rises on time changes, If-Match guards', async () => {
      const ins = await a('/calendars/primary/events', { body: { ...T, summary: 'S', location: 'L', attendees: [{ email: 'x@example.test' }, { email: 'y@example.test' }], extendedProperties: { private: { a: '1', b: '2' } } } });
      const id = ins.body.id;
      const patched = await a(`/calendars/primary/events/${id}`, { method: 'PATCH', body: { attendees: [{ email: 'z@example.test' }], extendedProperties: { private: { b: '3' } } } });
      assert.deepEqual(patched.body.attendees.map((x: any) => x.email), ['z@example.test']);
      assert.deepEqual(patched.body.extendedProperties.private, { a: '1', b: '3' });
      assert.equal(patched.body.location, 'L');
      assert.equal(patched.body.sequence, 0);
      const moved = await a(`/calendars/primary/events/${id}`, { method: 'PATCH', body: { start: { dateTime: '2026-03-10T09:30:00Z' } }, headers: { 'if-match': patched.body.etag } });
      assert.equal(moved.body.sequence, 1);
      assert.equal(moved.body.start.dateTime, '2026-03-10T09:30:00Z');
      const mark = await syncPoint(a);
      expectError(await a(`/calendars/primary/events/${id}`, { method: 'PATCH', body: { summary: 'stale' }, headers: { 'if-match': patched.body.etag } }), 412, 'conditionNotMet');
      expectError(await a(`/calendars/primary/events/${id}`, { method: 'DELETE', headers: { 'if-match': patched.body.etag } }), 412);
      expectError(await a(`/calendars/primary/events/${id}`, { method: 'PUT', body: { summary: 'no times' } }), 400, 'required');
      expectError(await a(`/calendars/primary/events/${id}`, { method: 'PATCH', body: { sequence: 0 } }), 400);
      expectError(await a(`/calendars/primary/events/${id}`, { method: 'PATCH', body: { id: 'otherid123' } }), 400);
      expectError(await a(`/calendars/primary/events/${id}`, { method: 'PATCH', body: { eventType: 'focusTime' } }), 400, 'eventTypeRestriction');
      expectError(await a('/calendars/primary/events/unknownid99', { method: 'PATCH', body: { summary: 'x' } }), 404);
      await unchanged(a, mark);
      const replaced = await a(`/calendars/primary/events/${id}`, { method: 'PUT', body: { ...T, summary: 'only' }, headers: { 'if-match': moved.body.etag } });
      assert.equal(replaced.status, 200);
      assert.equal(replaced.body.location, undefined);
      assert.equal(replaced.body.attendees, undefined);
      assert.equal(replaced.body.sequence, 2);
      // Read-only fields sent back are ignored.
      const roundTrip = await a(`/calendars/primary/events/${id}`, { method: 'PUT', body: { ...replaced.body, created: '2000-01-01T00:00:00Z', htmlLink: 'x' } });
      assert.equal(roundTrip.body.created, ins.body.created);
    });

    it('delete cancels (visible to get and showDeleted), deleting again gives 410', async () => {
      const ins = await a('/calendars/primary/events', { body: { ...T, summary: 'gone' } });
      const del = await a(`/calendars/primary/events/${ins.body.id}`, { method: 'DELETE' });
      assert.equal(del.status, 204);
      const got = await a(`/calendars/primary/events/${ins.body.id}`);
      assert.equal(got.body.status, 'cancelled');
      const again = await a(`/calendars/primary/events/${ins.body.id}`, { method: 'DELETE' });
      expectError(again, 410, 'deleted');
      // No google.rpc code stands for 410: Calendar's body carries none.
      assert.deepEqual(Object.keys(again.body.error), ['code', 'message', 'errors']);
      const visible = await a('/calendars/primary/events?maxResults=2500');
      assert.ok(!visible.body.items.some((e: any) => e.id === ins.body.id));
      const withDeleted = await a('/calendars/primary/events?showDeleted=true&maxResults=2500');
      assert.ok(withDeleted.body.items.some((e: any) => e.id === ins.body.id && e.status === 'cancelled'));
    });

    it('attachments only with supportsAttachments, at most 25; attendees limited by maxAttendees', async () => {
      const files = (n: number) => Array.from({ length: n }, (_, i) => ({ fileUrl: `https://files.example.test/file/d/f${i}/view`, title: `f${i}` }));
      const ignored = await a('/calendars/primary/events', { body: { ...T, attachments: files(2) } });
      assert.equal(ignored.body.attachments, undefined);
      const kept = await a('/calendars/primary/events?supportsAttachments=true', { body: { ...T, attachments: files(25) } });
      assert.equal(kept.body.attachments.length, 25);
      assert.equal(kept.body.attachments[3].fileId, 'f3');
      const mark = await syncPoint(a);
      expectError(await a('/calendars/primary/events?supportsAttachments=true', { body: { ...T, attachments: files(26) } }), 400);
      expectError(await a('/calendars/primary/events?supportsAttachments=true', { body: { ...T, attachments: [{ title: 'no url' }] } }), 400, 'required');
      await unchanged(a, mark);
      const patched = await a(`/calendars/primary/events/${kept.body.id}`, { method: 'PATCH', body: { attachments: [] } });
      assert.equal(patched.body.attachments.length, 25);
      const many = await a('/calendars/primary/events?maxAttendees=1', { body: { ...T, attendees: [{ email: DEV, responseStatus: 'accepted' }, { email: 'p@example.test' }, { email: 'q@example.test' }] } });
      assert.equal(many.body.attendeesOmitted, true);
      assert.deepEqual(many.body.attendees.map((x: any) => x.email), [DEV]);
      const full = await a(`/calendars/primary/events/${many.body.id}`);
      assert.equal(full.body.attendees.length, 3);
      assert.equal(full.body.attendees[0].organizer, true);
      assert.equal(full.body.attendees[1].responseStatus, 'needsAction');
    });

    it('typed events: focusTime, outOfOffice, workingLocation and birthday rules', async () => {
      const focus = await a('/calendars/primary/events', { body: { ...T, eventType: 'focusTime', focusTimeProperties: { chatStatus: 'doNotDisturb', autoDeclineMode: 'declineOnlyNewConflictingInvitations' } } });
      assert.equal(focus.status, 200);
      assert.equal(focus.body.transparency, 'opaque');
      const ooo = await a('/calendars/primary/events', { body: { ...T, eventType: 'outOfOffice', outOfOfficeProperties: { declineMessage: 'away' } } });
      assert.equal(ooo.body.outOfOfficeProperties.declineMessage, 'away');
      const wl = await a('/calendars/primary/events', { body: { start: { date: '2026-03-11' }, end: { date: '2026-03-12' }, eventType: 'workingLocation', workingLocationProperties: { type: 'officeLocation', officeLocation: { buildingId: 'B1', label: 'HQ' } } } });
      assert.equal(wl.body.visibility, 'public');
      assert.equal(wl.body.transparency, 'transparent');
      const bday = await a('/calendars/primary/events', { body: { summary: 'Ann', start: { date: '2026-05-04' }, end: { date: '2026-05-05' }, eventType: 'birthday', recurrence: ['RRULE:FREQ=YEARLY'] } });
      assert.equal(bday.status, 200, JSON.stringify(bday.body));
      assert.equal(bday.body.birthdayProperties.type, 'birthday');
      assert.match(bday.body.birthdayProperties.contact, /^people\/c\d+$/);
      assert.equal(bday.body.visibility, 'private');
      const renamed = await a(`/calendars/primary/events/${bday.body.id}`, { method: 'PATCH', body: { summary: 'Ann B.' } });
      assert.equal(renamed.status, 200);
      const secondary = await a('/calendars', { body: { summary: 'Team', timeZone: 'Europe/Berlin' } });
      const mark = await syncPoint(a);
      const refused: unknown[] = [
        { ...T, eventType: 'focusTime' },
        { start: { date: '2026-03-11' }, end: { date: '2026-03-12' }, eventType: 'focusTime', focusTimeProperties: {} },
        { ...T, eventType: 'focusTime', focusTimeProperties: { chatStatus: 'busy' } },
        { ...T, eventType: 'focusTime', focusTimeProperties: {}, transparency: 'transparent' },
        { ...T, eventType: 'outOfOffice' },
        { ...T, eventType: 'workingLocation', workingLocationProperties: { type: 'moon' } },
        { ...T, eventType: 'workingLocation', workingLocationProperties: { type: 'homeOffice' }, visibility: 'private' },
        { ...T, focusTimeProperties: {} },
        { summary: 'x', start: { date: '2026-05-04' }, end: { date: '2026-05-06' }, eventType: 'birthday', recurrence: ['RRULE:FREQ=YEARLY'] },
        { summary: 'x', start: { date: '2026-05-04' }, end: { date: '2026-05-05' }, eventType: 'birthday' },
        { summary: 'x', start: { date: '2026-05-04' }, end: { date: '2026-05-05' }, eventType: 'birthday', recurrence: ['RRULE:FREQ=YEARLY'], birthdayProperties: { type: 'anniversary' } },
      ];
      for (const body of refused) expectError(await a('/calendars/primary/events', { body }), 400);
      expectError(await a(`/calendars/primary/events/${bday.body.id}`, { method: 'PATCH', body: { location: 'Park' } }), 400, 'eventTypeRestriction');
      expectError(await a(`/calendars/primary/events/${bday.body.id}`, { method: 'PATCH', body: { birthdayProperties: { type: 'other' } } }), 400);
      await unchanged(a, mark);
      expectError(await a(`/calendars/${encodeURIComponent(secondary.body.id)}/events`, { body: { ...T, eventType: 'outOfOffice', outOfOfficeProperties: {} } }), 400, 'eventTypeRestriction');
      expectError(await a(`/calendars/primary/events/${focus.body.id}/move?destination=${encodeURIComponent(secondary.body.id)}`, { method: 'POST' }), 400, 'eventTypeRestriction');
    });

    it('import needs an iCalUID, keeps the organizer, updates on a second import; only default events', async () => {
      const mark = await syncPoint(a);
      expectError(await a('/calendars/primary/events/import', { body: { ...T, summary: 'no uid' } }), 400, 'required');
      expectError(await a('/calendars/primary/events/import', { body: { ...T, iCalUID: 'f@x', eventType: 'focusTime', focusTimeProperties: {} } }), 400, 'eventTypeRestriction');
      await unchanged(a, mark);
      const imp = await a('/calendars/primary/events/import', { body: { ...T, iCalUID: 'meeting-1@other.test', summary: 'Imported', organizer: { email: 'boss@other.test', displayName: 'Boss' } } });
      assert.equal(imp.status, 200);
      assert.equal(imp.body.organizer.email, 'boss@other.test');
      assert.equal(imp.body.iCalUID, 'meeting-1@other.test');
      const again = await a('/calendars/primary/events/import', { body: { ...T, iCalUID: 'meeting-1@other.test', summary: 'Imported v2' } });
      assert.equal(again.body.id, imp.body.id);
      assert.equal(again.body.summary, 'Imported v2');
      const byUid = await a(`/calendars/primary/events?iCalUID=${encodeURIComponent('meeting-1@other.test')}`);
      assert.deepEqual(byUid.body.items.map((e: any) => e.id), [imp.body.id]);
    });

    it('import with an originalStartTime writes that instance of the imported series (a RECURRENCE-ID), not the series', async () => {
      const when = (date: string, time: string) => ({ dateTime: `${date}T${time}`, timeZone: 'Europe/Paris' });
      const uid = 'weekly-7@other.test';
      const series = await a('/calendars/primary/events/import', {
        body: { iCalUID: uid, summary: 'Weekly', start: when('2026-04-06', '10:00:00'), end: when('2026-04-06', '11:00:00'), recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] },
      });
      assert.equal(series.status, 200, JSON.stringify(series.body));
      const moved = await a('/calendars/primary/events/import', {
        body: { iCalUID: uid, summary: 'Weekly (moved)', originalStartTime: when('2026-04-13', '10:00:00'), start: when('2026-04-14', '15:00:00'), end: when('2026-04-14', '16:00:00') },
      });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.id, `${series.body.id}_20260413T080000Z`);
      assert.equal(moved.body.recurringEventId, series.body.id);
      assert.equal(moved.body.originalStartTime.dateTime, '2026-04-13T10:00:00+02:00');
      const master = await a(`/calendars/primary/events/${series.body.id}`);
      assert.deepEqual([master.body.summary, master.body.recurrence], ['Weekly', ['RRULE:FREQ=WEEKLY;COUNT=3']]);
      const inst = await a(`/calendars/primary/events/${series.body.id}/instances`);
      assert.deepEqual(inst.body.items.map((e: any) => [e.summary, e.start.dateTime]), [
        ['Weekly', '2026-04-06T10:00:00+02:00'],
        ['Weekly (moved)', '2026-04-14T15:00:00+02:00'],
        ['Weekly', '2026-04-20T10:00:00+02:00'],
      ]);
      // Importing the same instance again updates the exception.
      const again = await a('/calendars/primary/events/import', {
        body: { iCalUID: uid, summary: 'Weekly (moved again)', originalStartTime: when('2026-04-13', '10:00:00'), start: when('2026-04-15', '15:00:00'), end: when('2026-04-15', '16:00:00') },
      });
      assert.equal(again.body.id, moved.body.id);
      assert.equal(again.body.start.dateTime, '2026-04-15T15:00:00+02:00');
      // An original start the series does not have, or a recurrence on an instance, is refused and changes nothing.
      const mark = await syncPoint(a);
      const refused = await a('/calendars/primary/events/import', { body: { iCalUID: uid, originalStartTime: when('2026-04-13', '09:00:00'), ...timed('2026-04-14T13:00:00Z', '2026-04-14T14:00:00Z') } });
      expectError(refused, 400, 'invalid');
      assert.equal(refused.body.error.errors[0].location, 'originalStartTime');
      expectError(await a('/calendars/primary/events/import', { body: { iCalUID: uid, originalStartTime: when('2026-04-20', '10:00:00'), start: when('2026-04-20', '10:00:00'), end: when('2026-04-20', '11:00:00'), recurrence: ['RRULE:FREQ=DAILY'] } }), 400, 'invalid');
      await unchanged(a, mark);
    });

    it('move: to a writable calendar, organizer changes, source shows it cancelled', async () => {
      const target = await a('/calendars', { body: { summary: 'Moves', timeZone: 'Asia/Tokyo' } });
      const ins = await a('/calendars/primary/events', { body: { ...T, summary: 'to move' } });
      const mark = await syncPoint(a);
      expectError(await a(`/calendars/primary/events/${ins.body.id}/move`, { method: 'POST' }), 400, 'required');
      expectError(await a(`/calendars/primary/events/${ins.body.id}/move?destination=nobody%40x.test`, { method: 'POST' }), 404);
      expectError(await a(`/calendars/primary/events/missing123/move?destination=${encodeURIComponent(target.body.id)}`, { method: 'POST' }), 404);
      await unchanged(a, mark);
      const moved = await a(`/calendars/primary/events/${ins.body.id}/move?destination=${encodeURIComponent(target.body.id)}`, { method: 'POST' });
      assert.equal(moved.status, 200);
      assert.equal(moved.body.organizer.email, target.body.id);
      assert.equal(moved.body.start.dateTime, '2026-03-10T18:00:00+09:00');
      const there = await a(`/calendars/${encodeURIComponent(target.body.id)}/events/${ins.body.id}`);
      assert.equal(there.body.status, 'confirmed');
      assert.equal((await a(`/calendars/primary/events/${ins.body.id}`)).body.status, 'cancelled');
    });
  });
}
