// Sharing and what happens around an event: ACL (404 without access, 403 below the needed role), attendee copies in
// twinstack users' calendars with responses flowing back, invitation e-mails with an iCalendar part, conference
// creation by a durable job, quickAdd, and watch channels delivering webhooks to a receiver.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DATABASES, call } from '../helpers/runtime.ts';
import { ALICE, BOB, DEV, TOKENS, advance, api, calendarSuite, expectError, outbox, syncPoint, timed, unchanged } from './helpers.ts';

const enc = encodeURIComponent;
const T = timed('2026-03-12T15:00:00Z', '2026-03-12T16:00:00Z');

for (const database of DATABASES) {
  describe(`calendar sharing, invitations, conferences and watch (${database})`, () => {
    const suite = calendarSuite(database);
    const { dev, alice, bob } = suite;
    let receiver: Server;
    const hooks: IncomingHttpHeaders[] = [];
    before(async () => {
      receiver = createServer((req, res) => {
        hooks.push(req.headers);
        req.resume();
        res.end();
      });
      await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    });
    /** Delivers due webhooks until `done` holds (deliveries run beside the scheduler's own passes). */
    const delivered = async (done: () => boolean | Promise<boolean>) => {
      for (let i = 0; i < 100 && !(await done()); i++) {
        await call(`${suite.t.adminUrl}/outbox/deliver`, { method: 'POST' });
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(await done());
    };
    after(() => receiver.close());

    it('credentials: missing, unknown and read-only tokens', async () => {
      const none = await call(`${suite.t.url('calendar')}/calendar/v3/calendars/primary/events`);
      expectError(none, 401);
      expectError(await api(suite.t, 'wrong-token')('/calendars/primary/events'), 401, 'authError');
      const ro = api(suite.t, TOKENS.readonly);
      assert.equal((await ro('/calendars/primary/events')).status, 200);
      expectError(await ro('/calendars/primary/events', { body: T }), 403, 'insufficientPermissions');
      expectError(await call(`${suite.t.url('calendar')}/calendar/v3/calendars/primary/events?key=test-dev-api-key`), 401);
    });

    it('ACL: another user sees 404 until shared; reader cannot write; writer can', async () => {
      const cal = (await dev('/calendars', { body: { summary: 'Shared', timeZone: 'Europe/Lisbon' } })).body.id;
      const ev = await dev(`/calendars/${enc(cal)}/events`, { body: { ...T, summary: 'team' } });
      expectError(await alice(`/calendars/${enc(cal)}/events`), 404, 'notFound');
      expectError(await alice(`/calendars/${enc(cal)}/events/${ev.body.id}`), 404);
      expectError(await alice(`/calendars/${enc(cal)}`), 404);
      const mark = await syncPoint(dev, cal);
      expectError(await alice(`/calendars/${enc(cal)}/events`, { body: T }), 404);
      expectError(await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'reader', scope: { type: 'user', value: 'not-an-email' } } }), 400);
      expectError(await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'boss', scope: { type: 'user', value: ALICE } } }), 400);
      expectError(await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'reader', scope: { type: 'group', value: 'team' } } }), 400);
      const rule = await dev(`/calendars/${enc(cal)}/acl`, { body: { role: 'reader', scope: { type: 'user', value: ALICE } } });
      assert.equal(rule.body.id, `user:${ALICE}`, JSON.stringify(rule.body));
      assert.equal((await alice(`/calendars/${enc(cal)}/events/${ev.body.id}`)).body.summary, 'team');
      expectError(await alice(`/calendars/${enc(cal)}/events`, { body: T }), 403, 'requiredAccessLevel');
      expectError(await alice(`/calendars/${enc(cal)}/events/${ev.body.id}`, { method: 'DELETE' }), 403);
      expectError(await alice(`/calendars/${enc(cal)}/acl`), 403);
      await unchanged(dev, mark, cal);
      const listed = await alice('/users/me/calendarList');
      assert.deepEqual(listed.body.items.map((c: any) => [c.id, c.accessRole, c.primary ?? false]), [[ALICE, 'owner', true], [cal, 'reader', false]]);
      assert.equal((await alice(`/users/me/calendarList?minAccessRole=writer`)).body.items.length, 1);
      await dev(`/calendars/${enc(cal)}/acl/${enc(`user:${ALICE}`)}`, { method: 'PATCH', body: { role: 'writer' } });
      assert.equal((await alice(`/calendars/${enc(cal)}/events`, { body: { ...T, summary: 'by alice' } })).status, 200);
      const acl = await dev(`/calendars/${enc(cal)}/acl`);
      assert.deepEqual(acl.body.items.map((r: any) => [r.id, r.role]), [[`user:${DEV}`, 'owner'], [`user:${ALICE}`, 'writer']]);
      expectError(await dev(`/calendars/${enc(cal)}/acl/${enc(`user:${DEV}`)}`, { method: 'DELETE' }), 403);
      assert.equal((await dev(`/calendars/${enc(cal)}/acl/${enc(`user:${ALICE}`)}`, { method: 'DELETE' })).status, 204);
      expectError(await alice(`/calendars/${enc(cal)}/events`), 404);
    });

    it('calendars: insert, patch, time zone checks, delete only secondaries, clear only primary', async () => {
      const before = (await dev('/users/me/calendarList')).body.items.length;
      expectError(await dev('/calendars', { body: { timeZone: 'UTC' } }), 400, 'required');
      expectError(await dev('/calendars', { body: { summary: 7 } }), 400);
      expectError(await dev('/calendars', { body: { summary: 'x', colour: 'red' } }), 400);
      expectError(await dev('/calendars', { body: { summary: 'x', timeZone: 'Nowhere/Zone' } }), 400);
      expectError(await dev('/calendars', { body: { summary: 'x'.repeat(1025) } }), 400);
      assert.equal((await dev('/users/me/calendarList')).body.items.length, before);
      const created = await dev('/calendars', { body: { summary: 'Temp', description: 'd' } });
      assert.equal(created.body.kind, 'calendar#calendar');
      const patched = await dev(`/calendars/${enc(created.body.id)}`, { method: 'PATCH', body: { timeZone: 'Asia/Tokyo' } });
      assert.equal(patched.body.timeZone, 'Asia/Tokyo');
      assert.equal(patched.body.description, 'd');
      expectError(await dev(`/calendars/${enc(created.body.id)}/clear`, { method: 'POST' }), 400);
      expectError(await dev('/calendars/primary', { method: 'DELETE' }), 400);
      expectError(await alice(`/calendars/${enc(created.body.id)}`, { method: 'DELETE' }), 404);
      assert.equal((await dev(`/calendars/${enc(created.body.id)}`, { method: 'DELETE' })).status, 204);
      expectError(await dev(`/calendars/${enc(created.body.id)}`), 404);
      const primary = await dev('/calendars/primary');
      assert.equal(primary.body.id, DEV);
      expectError(await dev('/users/me/calendarList', { body: { id: 'x' } }), 404, 'notFound');
    });

    it('invitations: attendee copies, e-mail with text/calendar, responses flow back to the organizer', async () => {
      const ev = await dev('/calendars/primary/events?sendUpdates=all', {
        body: { ...T, summary: 'Planning', location: 'Room 4', attendees: [{ email: ALICE }, { email: BOB, optional: true }, { email: 'ext@outside.test' }] },
      });
      assert.equal(ev.status, 200);
      const copy = await alice(`/calendars/primary/events/${ev.body.id}`);
      assert.equal(copy.body.summary, 'Planning');
      assert.equal(copy.body.organizer.email, DEV);
      assert.equal(copy.body.organizer.self, undefined);
      assert.equal(copy.body.attendees.find((x: any) => x.email === ALICE).self, true);
      assert.equal(copy.body.iCalUID, ev.body.iCalUID);
      const mails = (await outbox(suite.t, 'email')).filter((m) => m.correlation === `event:${ev.body.iCalUID}`);
      assert.deepEqual(mails.map((m) => m.recipient).sort(), [ALICE, BOB, 'ext@outside.test']);
      assert.match(mails[0].subject, /^Invitation: Planning/);
      assert.match(mails[0].headers['Content-Type'], /^multipart\/alternative/);
      assert.match(mails[0].body, /Content-Type: text\/calendar; charset=UTF-8; method=REQUEST/);
      assert.match(mails[0].body, /BEGIN:VEVENT[\s\S]*DTSTART:20260312T150000Z[\s\S]*END:VEVENT/);
      assert.ok(mails[0].body.includes(`UID:${ev.body.iCalUID}`));
      // Alice accepts on her copy; the organizer's version and Bob's copy show it.
      const mark = await syncPoint(alice);
      expectError(await alice(`/calendars/primary/events/${ev.body.id}`, { method: 'PATCH', body: { summary: 'Hijack' } }), 403, 'forbiddenForNonOrganizer');
      await unchanged(alice, mark);
      const answered = await alice(`/calendars/primary/events/${ev.body.id}?sendUpdates=all`, {
        method: 'PATCH',
        body: { attendees: copy.body.attendees.map((x: any) => (x.email === ALICE ? { ...x, responseStatus: 'accepted', comment: 'see you' } : x)), reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 5 }] } },
      });
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      assert.equal(answered.body.reminders.overrides[0].minutes, 5);
      const organizer = await dev(`/calendars/primary/events/${ev.body.id}`);
      assert.equal(organizer.body.attendees.find((x: any) => x.email === ALICE).responseStatus, 'accepted');
      assert.deepEqual(organizer.body.reminders, { useDefault: true });
      const bobs = await bob(`/calendars/primary/events/${ev.body.id}`);
      assert.equal(bobs.body.attendees.find((x: any) => x.email === ALICE).responseStatus, 'accepted');
      const replies = (await outbox(suite.t, 'email')).filter((m) => m.recipient === DEV && /Accepted/.test(m.subject));
      assert.equal(replies.length, 1);
      assert.match(replies[0].body, /METHOD:REPLY/);
      // The organizer's next edit keeps Alice's answer and her reminders; removing Bob cancels his copy.
      await dev(`/calendars/primary/events/${ev.body.id}?sendUpdates=externalOnly`, { method: 'PATCH', body: { summary: 'Planning v2', attendees: [{ email: ALICE }, { email: 'ext@outside.test' }] } });
      const after = await alice(`/calendars/primary/events/${ev.body.id}`);
      assert.equal(after.body.summary, 'Planning v2');
      assert.equal(after.body.attendees.find((x: any) => x.email === ALICE).responseStatus, 'accepted');
      assert.equal(after.body.reminders.overrides[0].minutes, 5);
      assert.equal((await bob(`/calendars/primary/events/${ev.body.id}`)).body.status, 'cancelled');
      const updates = (await outbox(suite.t, 'email')).filter((m) => /^Updated invitation: Planning v2/.test(m.subject));
      assert.deepEqual(updates.map((m) => m.recipient), ['ext@outside.test']);
      // Deleting her copy declines for Alice; a second delete is 410.
      const mine = await dev('/calendars/primary/events', { body: { ...T, summary: 'Optional sync', attendees: [{ email: ALICE }] } });
      assert.equal((await alice(`/calendars/primary/events/${mine.body.id}`, { method: 'DELETE' })).status, 204);
      assert.equal((await alice(`/calendars/primary/events/${mine.body.id}`)).body.status, 'cancelled');
      expectError(await alice(`/calendars/primary/events/${mine.body.id}`, { method: 'DELETE' }), 410, 'deleted');
      const declined = await dev(`/calendars/primary/events/${mine.body.id}`);
      assert.equal(declined.body.status, 'confirmed');
      assert.equal(declined.body.attendees[0].responseStatus, 'declined');
      await dev(`/calendars/primary/events/${ev.body.id}?sendUpdates=all`, { method: 'DELETE' });
      assert.equal((await alice(`/calendars/primary/events/${ev.body.id}`)).body.status, 'cancelled');
      const cancels = (await outbox(suite.t, 'email')).filter((m) => /^Canceled event/.test(m.subject));
      assert.ok(cancels.some((m) => m.recipient === ALICE && /METHOD:CANCEL/.test(m.body)));
    });

    it('attendeesOmitted on a write: the guests the body leaves out stay, and the flag is not stored', async () => {
      const ev = await dev('/calendars/primary/events', { body: { ...T, summary: 'Review', attendees: [{ email: DEV }, { email: ALICE }, { email: 'ext@outside.test' }] } });
      const guests = ['developer@twinstack.local', ALICE, 'ext@outside.test'];
      // The organizer reads with maxAttendees=1 and sends back what it read.
      const trimmed = await dev(`/calendars/primary/events/${ev.body.id}?maxAttendees=1`);
      assert.equal(trimmed.body.attendeesOmitted, true);
      const renamed = await dev(`/calendars/primary/events/${ev.body.id}`, { method: 'PUT', body: { ...trimmed.body, summary: 'Review v2' } });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.deepEqual(renamed.body.attendees.map((x: any) => x.email), guests);
      assert.equal(renamed.body.attendeesOmitted, undefined);
      assert.equal((await dev(`/calendars/primary/events/${ev.body.id}`)).body.attendeesOmitted, undefined);
      // An attendee answers with their own entry alone.
      const answered = await alice(`/calendars/primary/events/${ev.body.id}`, { method: 'PATCH', body: { attendeesOmitted: true, attendees: [{ email: ALICE, responseStatus: 'tentative' }] } });
      assert.equal(answered.status, 200, JSON.stringify(answered.body));
      const organizer = await dev(`/calendars/primary/events/${ev.body.id}`);
      assert.deepEqual(organizer.body.attendees.map((x: any) => [x.email, x.responseStatus]), [[guests[0], 'needsAction'], [ALICE, 'tentative'], [guests[2], 'needsAction']]);
      // A bad entry is still refused, and nothing changes.
      const mark = await syncPoint(dev);
      expectError(await dev(`/calendars/primary/events/${ev.body.id}`, { method: 'PATCH', body: { attendeesOmitted: true, attendees: [{ email: 'not an address' }] } }), 400, 'invalid');
      expectError(await alice(`/calendars/primary/events/${ev.body.id}`, { method: 'PATCH', body: { attendeesOmitted: true, attendees: [{ email: ALICE, responseStatus: 'maybe' }] } }), 400, 'invalid');
      await unchanged(dev, mark);
    });

    it('conference data: persisted only with conferenceDataVersion=1; a create request completes through the job', async () => {
      const ignored = await dev('/calendars/primary/events', { body: { ...T, conferenceData: { createRequest: { requestId: 'r1', conferenceSolutionKey: { type: 'hangoutsMeet' } } } } });
      assert.equal(ignored.body.conferenceData, undefined);
      const ev = await dev('/calendars/primary/events?conferenceDataVersion=1', { body: { ...T, summary: 'call', conferenceData: { createRequest: { requestId: 'r1', conferenceSolutionKey: { type: 'confMeet' } } } } });
      assert.equal(ev.body.conferenceData.createRequest.status.statusCode, 'pending');
      await advance(suite.t, '5s');
      const done = await dev(`/calendars/primary/events/${ev.body.id}`);
      const conf = done.body.conferenceData;
      assert.equal(conf.createRequest.status.statusCode, 'success');
      assert.match(conf.conferenceId, /^[a-z]{3}-[a-z]{4}-[a-z]{3}$/);
      assert.equal(conf.entryPoints[0].entryPointType, 'video');
      assert.ok(conf.signature);
      assert.equal(done.body.hangoutLink, conf.entryPoints[0].uri);
      // The same request id again changes nothing; a new one starts a new request.
      const same = await dev(`/calendars/primary/events/${ev.body.id}?conferenceDataVersion=1`, { method: 'PATCH', body: { conferenceData: { createRequest: { requestId: 'r1', conferenceSolutionKey: { type: 'confMeet' } } } } });
      assert.equal(same.body.conferenceData.conferenceId, conf.conferenceId);
      const addOn = await dev('/calendars/primary/events?conferenceDataVersion=1', { body: { ...T, conferenceData: { createRequest: { requestId: 'r2', conferenceSolutionKey: { type: 'addOn' } } } } });
      await suite.t.restart();
      await advance(suite.t, '5s');
      const failed = await dev(`/calendars/primary/events/${addOn.body.id}`);
      assert.equal(failed.body.conferenceData.createRequest.status.statusCode, 'failure');
      assert.equal(failed.body.conferenceData.entryPoints, undefined);
      const given = await dev('/calendars/primary/events?conferenceDataVersion=1', {
        body: { ...T, conferenceData: { conferenceSolution: { key: { type: 'addOn' }, name: 'Bridge' }, entryPoints: [{ entryPointType: 'video', uri: 'https://bridge.test/1', label: 'bridge' }, { entryPointType: 'phone', uri: 'tel:+1-555-0100;1234#', pin: '1234' }], notes: '<i>dial in</i>' } },
      });
      assert.equal(given.body.conferenceData.entryPoints.length, 2);
      const mark = await syncPoint(dev);
      const bad: unknown[] = [
        { createRequest: { conferenceSolutionKey: { type: 'confMeet' } } },
        { createRequest: { requestId: 'x', conferenceSolutionKey: { type: 'eventNamedConf' } } },
        { createRequest: { requestId: 'x', conferenceSolutionKey: { type: 'pigeon' } } },
        { conferenceSolution: { key: { type: 'addOn' } }, entryPoints: [] },
        { conferenceSolution: { key: { type: 'addOn' } }, entryPoints: [{ entryPointType: 'more', uri: 'https://x.test' }] },
        { conferenceSolution: { key: { type: 'addOn' } }, entryPoints: [{ entryPointType: 'video', uri: 'https://a.test' }, { entryPointType: 'video', uri: 'https://b.test' }] },
        { conferenceSolution: { key: { type: 'addOn' } }, entryPoints: [{ entryPointType: 'phone', uri: 'https://x.test' }] },
        { conferenceSolution: { key: { type: 'addOn' } }, entryPoints: [{ entryPointType: 'sip', uri: 'tel:1' }] },
        { conferenceSolution: { key: { type: 'addOn' } }, entryPoints: [{ entryPointType: 'video', uri: `https://x.test/${'a'.repeat(1290)}` }] },
        { conferenceSolution: { key: { type: 'addOn' } }, entryPoints: [{ entryPointType: 'video', uri: 'https://x.test', label: 'l'.repeat(513) }] },
        { conferenceSolution: { key: { type: 'addOn' } }, entryPoints: [{ entryPointType: 'video', uri: 'https://x.test', passcode: 'p'.repeat(129) }] },
        { conferenceSolution: { key: { type: 'addOn' } }, entryPoints: [{ entryPointType: 'video', uri: 'https://x.test' }], notes: 'n'.repeat(2049) },
      ];
      for (const conferenceData of bad) expectError(await dev('/calendars/primary/events?conferenceDataVersion=1', { body: { ...T, conferenceData } }), 400);
      await unchanged(dev, mark);
    });

    it('quickAdd parses text in the calendar time zone', async () => {
      const cal = (await dev('/calendars', { body: { summary: 'Quick', timeZone: 'America/New_York' } })).body.id;
      const ev = await dev(`/calendars/${enc(cal)}/events/quickAdd?text=${enc('Lunch with Ann tomorrow at 1pm')}`, { method: 'POST' });
      assert.equal(ev.status, 200, JSON.stringify(ev.body));
      assert.equal(ev.body.summary, 'Lunch with Ann');
      assert.equal(ev.body.start.dateTime, '2026-03-03T13:00:00-05:00');
      assert.equal(ev.body.end.dateTime, '2026-03-03T14:00:00-05:00');
      const allDay = await dev(`/calendars/${enc(cal)}/events/quickAdd?text=${enc('Conference on March 20')}`, { method: 'POST' });
      assert.deepEqual([allDay.body.summary, allDay.body.start, allDay.body.end], ['Conference', { date: '2026-03-20' }, { date: '2026-03-21' }]);
      const mark = await syncPoint(dev, cal);
      expectError(await dev(`/calendars/${enc(cal)}/events/quickAdd`, { method: 'POST' }), 400, 'required');
      expectError(await dev(`/calendars/${enc(cal)}/events/quickAdd?text=${'x'.repeat(1025)}`, { method: 'POST' }), 400);
      expectError(await alice(`/calendars/${enc(cal)}/events/quickAdd?text=hi`, { method: 'POST' }), 404);
      await unchanged(dev, mark, cal);
    });

    it('watch: a sync message first, then a webhook per change; channels.stop ends it', async () => {
      const cal = (await dev('/calendars', { body: { summary: 'Watched' } })).body.id;
      const address = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      expectError(await dev(`/calendars/${enc(cal)}/events/watch`, { body: { id: 'ch1', type: 'web_hook' } }), 400);
      expectError(await alice(`/calendars/${enc(cal)}/events/watch`, { body: { id: 'ch1', type: 'web_hook', address } }), 404);
      const ch = await dev(`/calendars/${enc(cal)}/events/watch`, { body: { id: 'ch1', type: 'web_hook', address, token: 'tok' } });
      assert.equal(ch.status, 200, JSON.stringify(ch.body));
      assert.equal(ch.body.kind, 'api#channel');
      await dev(`/calendars/${enc(cal)}/events`, { body: T });
      const mine = () => hooks.filter((h) => h['x-goog-channel-id'] === 'ch1');
      await delivered(() => mine().length >= 2);
      assert.deepEqual(mine().map((h) => [h['x-goog-resource-state'], h['x-goog-message-number'], h['x-goog-channel-token']]), [['sync', '1', 'tok'], ['exists', '2', 'tok']]);
      assert.equal(mine()[0]['x-goog-resource-id'], ch.body.resourceId);
      expectError(await dev('/channels/stop', { body: { id: 'ch1', resourceId: 'wrong' } }), 404);
      assert.equal((await dev('/channels/stop', { body: { id: 'ch1', resourceId: ch.body.resourceId } })).status, 204);
      await dev(`/calendars/${enc(cal)}/events`, { body: T });
      await delivered(async () => (await outbox(suite.t, 'webhook')).every((m) => m.status === 'delivered'));
      assert.equal(mine().length, 2);
    });
  });
}
