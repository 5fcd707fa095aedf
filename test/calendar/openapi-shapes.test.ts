// The calendar's OpenAPI document describes its request parameters and bodies, and requests derived from that
// description get no 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, call, DEV_TOKEN, type TestRuntime } from '../helpers/runtime.ts';
import { api, ALICE, DEV, startCalendar, timed } from './helpers.ts';
import { fuzzDocumented } from '../helpers/openapi-requests.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 15);

for (const database of DATABASES) {
  describe(`calendar OpenAPI shapes (${database})`, () => {
    let t: TestRuntime;
    let doc: any;
    const eventIds: string[] = [];

    before(async () => {
      t = await startCalendar(database);
      doc = (await call(`${t.url('calendar')}/openapi.json`)).body;
      const cal = api(t);
      const single = await cal('/calendars/primary/events', { body: { summary: 'one', ...timed('2026-03-03T10:00:00Z', '2026-03-03T11:00:00Z') } });
      const series = await cal('/calendars/primary/events', { body: { summary: 'weekly', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'], ...timed('2026-03-04T09:00:00Z', '2026-03-04T09:30:00Z') } });
      eventIds.push(single.body.id, series.body.id);
      await cal('/calendars/primary/acl', { body: { scope: { type: 'user', value: ALICE }, role: 'reader' } });
    });
    after(async () => t.close());

    const bodyOf = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema;
    const queryOf = (path: string, method: string) => new Map<string, any>(doc.paths[path][method].parameters.filter((p: any) => p.in === 'query').map((p: any) => [p.name, p.schema]));

    it('describes the Event resource that events.insert, update, patch and import take', () => {
      for (const [path, method] of [['/calendar/v3/calendars/{calendarId}/events', 'post'], ['/calendar/v3/calendars/{calendarId}/events/{eventId}', 'put'], ['/calendar/v3/calendars/{calendarId}/events/{eventId}', 'patch'], ['/calendar/v3/calendars/{calendarId}/events/import', 'post']]) {
        const event = bodyOf(path!, method!);
        assert.equal(event.additionalProperties, false, `${method} ${path}`);
        assert.equal(event.properties.summary.maxLength, 1024);
        assert.deepEqual(event.properties.start.properties.date.format, 'date');
        assert.deepEqual(event.properties.visibility.enum, ['default', 'public', 'private', 'confidential']);
        assert.equal(event.properties.attendees.maxItems, 1000);
        assert.deepEqual(event.properties.attendees.items.required, ['email']);
        assert.equal(event.properties.reminders.properties.overrides.items.properties.minutes.maximum, 40320);
      }
    });

    it('describes the parameters of the event methods', () => {
      const write = queryOf('/calendar/v3/calendars/{calendarId}/events', 'post');
      assert.deepEqual(write.get('sendUpdates').enum, ['all', 'externalOnly', 'none']);
      assert.equal(write.get('conferenceDataVersion').maximum, 1);
      const list = queryOf('/calendar/v3/calendars/{calendarId}/events', 'get');
      assert.deepEqual(list.get('orderBy').enum, ['startTime', 'updated']);
      assert.equal(list.get('singleEvents').type, 'boolean');
      assert.ok(list.has('fields') && list.has('prettyPrint'), 'system parameters too');
      const quickAdd = doc.paths['/calendar/v3/calendars/{calendarId}/events/quickAdd'].post.parameters.find((p: any) => p.name === 'text');
      assert.equal(quickAdd.required, true);
      const move = queryOf('/calendar/v3/calendars/{calendarId}/events/{eventId}/move', 'post');
      assert.equal(move.get('destination').type, 'string');
    });

    it('describes the other resources: calendars, calendar list, ACL rules, channels and freebusy', () => {
      assert.equal(bodyOf('/calendar/v3/calendars', 'post').properties.timeZone.type, 'string');
      const entry = bodyOf('/calendar/v3/users/me/calendarList', 'post');
      assert.equal(entry.properties.backgroundColor.pattern, '^#[0-9a-fA-F]{6}$');
      assert.equal(entry.properties.colorId.enum.length, 24);
      assert.deepEqual(bodyOf('/calendar/v3/calendars/{calendarId}/acl', 'post').properties.role.enum, ['none', 'freeBusyReader', 'reader', 'writer', 'owner']);
      const channel = bodyOf('/calendar/v3/calendars/{calendarId}/events/watch', 'post');
      assert.deepEqual(channel.required, ['id', 'address']);
      const freeBusy = bodyOf('/calendar/v3/freeBusy', 'post');
      assert.deepEqual(freeBusy.required, ['timeMin', 'timeMax']);
      assert.equal(freeBusy.properties.items.maxItems, 50);
    });

    it('answers requests derived from the document without a 5xx', async () => {
      const findings = await fuzzDocumented(t.url('calendar'), doc, {
        headers: { authorization: `Bearer ${DEV_TOKEN}` },
        pathValues: { calendarId: ['primary', DEV], eventId: eventIds, ruleId: [`user:${ALICE}`], setting: ['timezone', 'locale'] },
        runs: RUNS,
      });
      assert.deepEqual(findings, []);
    });
  });
}
