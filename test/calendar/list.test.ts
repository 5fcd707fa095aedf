// Recurring events over HTTP (instances, exceptions, singleEvents lists across DST) and events.list parameters with
// sync tokens (410 fullSyncRequired, continuity across a restart).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { api, expectError, startCalendar, timed, type Api } from './helpers.ts';

const enc = encodeURIComponent;

for (const database of DATABASES) {
  describe(`calendar recurrence and lists over HTTP (${database})`, () => {
    let t: TestRuntime;
    let a: Api;
    let cal: string;
    const path = (rest = '') => `/calendars/${enc(cal)}/events${rest}`;
    before(async () => {
      t = await startCalendar(database);
      a = api(t);
      cal = (await a('/calendars', { body: { summary: 'Series', timeZone: 'America/New_York' } })).body.id;
    });
    after(async () => t.close());

    it('a weekly series across the March DST change: instance ids, originalStartTime, singleEvents list', async () => {
      const series = await a(path(), {
        body: { summary: 'Standup', recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=FR;COUNT=4'], ...timed('2026-03-06T09:00:00', '2026-03-06T09:15:00', 'America/New_York') },
      });
      assert.equal(series.status, 200, JSON.stringify(series.body));
      const inst = await a(path(`/${series.body.id}/instances`));
      assert.deepEqual(
        inst.body.items.map((i: any) => [i.id, i.start.dateTime, i.originalStartTime.dateTime, i.recurringEventId]),
        [
          [`${series.body.id}_20260306T140000Z`, '2026-03-06T09:00:00-05:00', '2026-03-06T09:00:00-05:00', series.body.id],
          [`${series.body.id}_20260313T130000Z`, '2026-03-13T09:00:00-04:00', '2026-03-13T09:00:00-04:00', series.body.id],
          [`${series.body.id}_20260320T130000Z`, '2026-03-20T09:00:00-04:00', '2026-03-20T09:00:00-04:00', series.body.id],
          [`${series.body.id}_20260327T130000Z`, '2026-03-27T09:00:00-04:00', '2026-03-27T09:00:00-04:00', series.body.id],
        ],
      );
      assert.equal(inst.body.items[0].recurrence, undefined);
      assert.equal(inst.body.items[1].iCalUID, series.body.iCalUID);
      const one = await a(path(`/${series.body.id}_20260313T130000Z`));
      assert.equal(one.body.start.dateTime, '2026-03-13T09:00:00-04:00');
      expectError(await a(path(`/${series.body.id}_20260314T130000Z`)), 404);
      const utc = await a(path(`?singleEvents=true&orderBy=startTime&timeZone=UTC&timeMin=${enc('2026-03-10T00:00:00Z')}&timeMax=${enc('2026-03-21T00:00:00Z')}`));
      assert.deepEqual(utc.body.items.map((i: any) => i.start.dateTime), ['2026-03-13T13:00:00Z', '2026-03-20T13:00:00Z']);
      assert.equal(utc.body.timeZone, 'UTC');
    });

    it('exceptions: a modified and a cancelled instance; the series edit keeps them; deleting the series cancels all', async () => {
      const series = await a(path(), { body: { summary: 'Daily', recurrence: ['RRULE:FREQ=DAILY;COUNT=5'], ...timed('2026-04-01T08:00:00', '2026-04-01T08:30:00', 'America/New_York') } });
      const id = series.body.id;
      const second = `${id}_20260402T120000Z`;
      const third = `${id}_20260403T120000Z`;
      const changed = await a(path(`/${second}`), { method: 'PATCH', body: { summary: 'Moved', start: { dateTime: '2026-04-02T10:00:00-04:00' }, end: { dateTime: '2026-04-02T10:30:00-04:00' } } });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(changed.body.recurringEventId, id);
      assert.equal(changed.body.originalStartTime.dateTime, '2026-04-02T08:00:00-04:00');
      assert.equal((await a(path(`/${third}`), { method: 'DELETE' })).status, 204);
      expectError(await a(path(`/${third}`), { method: 'DELETE' }), 410, 'deleted');
      await a(path(`/${id}`), { method: 'PATCH', body: { description: 'series note' } });
      const list = await a(path(`/${id}/instances`));
      assert.deepEqual(list.body.items.map((i: any) => [i.id, i.summary, i.start.dateTime, i.description]), [
        [`${id}_20260401T120000Z`, 'Daily', '2026-04-01T08:00:00-04:00', 'series note'],
        [second, 'Moved', '2026-04-02T10:00:00-04:00', undefined],
        [`${id}_20260404T120000Z`, 'Daily', '2026-04-04T08:00:00-04:00', 'series note'],
        [`${id}_20260405T120000Z`, 'Daily', '2026-04-05T08:00:00-04:00', 'series note'],
      ]);
      const withDeleted = await a(path(`/${id}/instances?showDeleted=true`));
      assert.equal(withDeleted.body.items[2].status, 'cancelled');
      // Without singleEvents the series and its exceptions are listed as stored (cancelled instances too).
      const raw = await a(path(`?iCalUID=${enc(series.body.iCalUID)}`));
      assert.deepEqual(raw.body.items.map((i: any) => [i.id, i.status]).sort(), [[id, 'confirmed'], [second, 'confirmed'], [third, 'cancelled']].sort());
      const singles = await a(path(`?singleEvents=true&orderBy=startTime&timeMin=${enc('2026-04-01T00:00:00Z')}&timeMax=${enc('2026-04-06T00:00:00Z')}&q=daily`));
      assert.deepEqual(singles.body.items.map((i: any) => i.id), [`${id}_20260401T120000Z`, `${id}_20260404T120000Z`, `${id}_20260405T120000Z`]);
      await a(path(`/${id}`), { method: 'DELETE' });
      const after = await a(path(`/${id}/instances?showDeleted=true`));
      assert.ok(after.body.items.every((i: any) => i.status === 'cancelled'));
      expectError(await a(path(`/${second}`), { method: 'DELETE' }), 410);
    });

    it('an open-ended all-day series is expanded lazily: paged instances and a bounded window', async () => {
      const series = await a(path(), { body: { summary: 'Every day', recurrence: ['RRULE:FREQ=DAILY'], start: { date: '2026-01-01' }, end: { date: '2026-01-02' } } });
      const first = await a(path(`/${series.body.id}/instances?maxResults=3`));
      assert.deepEqual(first.body.items.map((i: any) => i.id), ['20260101', '20260102', '20260103'].map((d) => `${series.body.id}_${d}`));
      const second = await a(path(`/${series.body.id}/instances?maxResults=3&pageToken=${enc(first.body.nextPageToken)}`));
      assert.deepEqual(second.body.items.map((i: any) => i.start.date), ['2026-01-04', '2026-01-05', '2026-01-06']);
      const far = await a(path(`/${series.body.id}/instances?timeMin=${enc('2090-06-01T00:00:00-04:00')}&timeMax=${enc('2090-06-03T00:00:00-04:00')}`));
      assert.deepEqual(far.body.items.map((i: any) => i.start.date), ['2090-06-01', '2090-06-02']);
      const window = await a(path(`?singleEvents=true&timeMin=${enc('2090-06-01T00:00:00-04:00')}&timeMax=${enc('2090-06-03T00:00:00-04:00')}`));
      assert.deepEqual(window.body.items.map((i: any) => i.start.date), ['2090-06-01', '2090-06-02']);
      const byStart = await a(path(`/${series.body.id}/instances?originalStart=${enc('2026-02-01T00:00:00-05:00')}`));
      assert.deepEqual(byStart.body.items.map((i: any) => i.start.date), ['2026-02-01']);
    });

    it('list parameters: time bounds, q, eventTypes, extended properties, orderBy, updatedMin, paging', async () => {
      const c = (await a('/calendars', { body: { summary: 'Filters', timeZone: 'UTC' } })).body.id;
      const p = (rest: string) => `/calendars/${enc(c)}/events${rest}`;
      await a(p(''), { body: { summary: 'Alpha review', ...timed('2026-05-01T09:00:00Z', '2026-05-01T10:00:00Z'), extendedProperties: { private: { team: 'red' }, shared: { room: '7' } } } });
      await a(p(''), { body: { summary: 'Beta', location: 'Lisbon office', ...timed('2026-05-02T09:00:00Z', '2026-05-02T10:00:00Z'), attendees: [{ email: 'carol@example.test', displayName: 'Carol Q' }] } });
      await a(p(''), { body: { summary: 'Gamma', ...timed('2026-05-03T09:00:00Z', '2026-05-03T10:00:00Z'), extendedProperties: { private: { team: 'blue' } } } });
      const ids = async (rest: string) => (await a(p(rest))).body.items.map((i: any) => i.summary);
      // timeMin is compared with the end, timeMax with the start, both exclusive.
      assert.deepEqual(await ids(`?timeMin=${enc('2026-05-01T10:00:00Z')}&timeMax=${enc('2026-05-03T09:00:00Z')}`), ['Beta']);
      assert.deepEqual(await ids('?q=lisbon'), ['Beta']);
      assert.deepEqual(await ids('?q=carol'), ['Beta']);
      assert.deepEqual(await ids('?q=REVIEW%20alpha'), ['Alpha review']);
      assert.deepEqual(await ids('?privateExtendedProperty=team%3Dblue'), ['Gamma']);
      assert.deepEqual(await ids('?sharedExtendedProperty=room%3D7&privateExtendedProperty=team%3Dred'), ['Alpha review']);
      assert.deepEqual(await ids('?eventTypes=focusTime'), []);
      assert.deepEqual(await ids('?eventTypes=default&eventTypes=focusTime'), ['Alpha review', 'Beta', 'Gamma']);
      await fetch(`${t.adminUrl}/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance: '1h' }) });
      const all = (await a(p(''))).body.items;
      await a(p(`/${all[0].id}`), { method: 'PATCH', body: { summary: 'Alpha v2' } });
      const byUpdate = await ids('?orderBy=updated');
      assert.deepEqual([...byUpdate.slice(0, 2).sort(), byUpdate[2]], ['Beta', 'Gamma', 'Alpha v2']);
      assert.deepEqual(await ids(`?updatedMin=${enc('2026-03-02T12:30:00Z')}`), ['Alpha v2']);
      const page1 = await a(p('?maxResults=2&singleEvents=true&orderBy=startTime'));
      assert.equal(page1.body.items.length, 2);
      assert.equal(page1.body.nextSyncToken, undefined);
      const page2 = await a(p(`?maxResults=2&singleEvents=true&orderBy=startTime&pageToken=${enc(page1.body.nextPageToken)}`));
      assert.deepEqual(page2.body.items.map((i: any) => i.summary), ['Gamma']);
      assert.ok(page2.body.nextSyncToken);
      const stored1 = await a(p('?maxResults=2'));
      const stored2 = await a(p(`?maxResults=2&pageToken=${enc(stored1.body.nextPageToken)}`));
      assert.deepEqual([...stored1.body.items, ...stored2.body.items].map((i: any) => i.summary), ['Alpha v2', 'Beta', 'Gamma']);
      expectError(await a(p('?orderBy=startTime')), 400, 'invalid');
      expectError(await a(p(`?timeMin=${enc('2026-05-03T00:00:00Z')}&timeMax=${enc('2026-05-01T00:00:00Z')}`)), 400, 'timeRangeEmpty');
      expectError(await a(p('?timeMin=2026-05-03')), 400);
      expectError(await a(p('?maxResults=zero')), 400);
      expectError(await a(p('?timeZone=Nowhere%2FCity')), 400);
      expectError(await a(p('?eventTypes=party')), 400);
      expectError(await a(p('?singleEvents=maybe')), 400);
      expectError(await a(p('?privateExtendedProperty=novalue')), 400);
      expectError(await a(p('?pageToken=garbage')), 400);
    });

    it('instances refuse an empty time range as events.list does: 400 timeRangeEmpty', async () => {
      const series = await a(path(), { body: { summary: 'Range', recurrence: ['RRULE:FREQ=DAILY;COUNT=3'], ...timed('2026-07-01T09:00:00', '2026-07-01T10:00:00', 'UTC') } });
      assert.equal(series.status, 200, JSON.stringify(series.body));
      for (const [min, max] of [['2026-07-03T00:00:00Z', '2026-07-01T00:00:00Z'], ['2026-07-02T00:00:00Z', '2026-07-02T00:00:00Z']]) {
        const window = `timeMin=${enc(min)}&timeMax=${enc(max)}`;
        const list = await a(path(`?${window}`));
        const inst = await a(path(`/${series.body.id}/instances?${window}`));
        expectError(inst, 400, 'timeRangeEmpty');
        assert.deepEqual(inst.body, list.body);
        assert.deepEqual(inst.body.error.errors[0], {
          domain: 'calendar', reason: 'timeRangeEmpty', message: 'The specified time range is empty.', location: 'timeMax', locationType: 'parameter',
        });
      }
    });

    it('without showDeleted, cancelled instances are listed only while their series lives', async () => {
      const series = await a(path(), { body: { summary: 'Gone soon', recurrence: ['RRULE:FREQ=DAILY;COUNT=4'], ...timed('2026-09-01T09:00:00', '2026-09-01T10:00:00', 'UTC') } });
      const id = series.body.id;
      await a(path(`/${id}_20260902T090000Z`), { method: 'DELETE' });
      await a(path(`/${id}_20260903T090000Z`), { method: 'PATCH', body: { summary: 'Edited' } });
      const listed = async (more = '') => (await a(path(`?iCalUID=${enc(series.body.iCalUID)}${more}`))).body.items.map((i: any) => [i.id, i.status]).sort();
      assert.deepEqual(await listed(), [[id, 'confirmed'], [`${id}_20260902T090000Z`, 'cancelled'], [`${id}_20260903T090000Z`, 'confirmed']]);
      const before = await a(path(`?iCalUID=${enc(series.body.iCalUID)}`));
      await a(path(`/${id}`), { method: 'DELETE' });
      const everything = [[id, 'cancelled'], [`${id}_20260902T090000Z`, 'cancelled'], [`${id}_20260903T090000Z`, 'cancelled']];
      assert.deepEqual(await listed(), []);
      assert.deepEqual(await listed('&showDeleted=true'), everything);
      assert.deepEqual(await listed(`&updatedMin=${enc('2026-01-01T00:00:00Z')}`), everything);
      // A sync from before the deletion carries every row it cancelled.
      const sync = await a(path(`?syncToken=${enc(before.body.nextSyncToken)}`));
      assert.deepEqual(sync.body.items.filter((i: any) => i.iCalUID === series.body.iCalUID).map((i: any) => [i.id, i.status]).sort(), [everything[0], everything[2]]);
    });

    it('q finds a working location by its office building and desk as well as its labels', async () => {
      const office = await a('/calendars/primary/events', {
        body: { start: { date: '2026-06-01' }, end: { date: '2026-06-02' }, eventType: 'workingLocation', workingLocationProperties: { type: 'officeLocation', officeLocation: { buildingId: 'Bldg-41', deskId: 'Desk7C', label: 'North campus' } } },
      });
      assert.equal(office.status, 200, JSON.stringify(office.body));
      const found = async (q: string) => (await a(`/calendars/primary/events?eventTypes=workingLocation&q=${enc(q)}`)).body.items.map((i: any) => i.id);
      for (const q of ['bldg-41', 'DESK7C', 'north campus', 'bldg-41 desk7c']) assert.deepEqual(await found(q), [office.body.id], q);
      assert.deepEqual(await found('bldg-42'), []);
    });

    it('instances: timeMin and timeMax apply to a moved instance at its new time, as singleEvents lists do', async () => {
      const series = await a(path(), { body: { summary: 'Daily', recurrence: ['RRULE:FREQ=DAILY;COUNT=5'], ...timed('2026-08-03T09:00:00', '2026-08-03T10:00:00', 'UTC') } });
      const id = series.body.id;
      // The 4 August instance moves to 6 August 15:00, the 6 August one to 2 August.
      await a(path(`/${id}_20260804T090000Z`), { method: 'PATCH', body: timed('2026-08-06T15:00:00Z', '2026-08-06T16:00:00Z') });
      await a(path(`/${id}_20260806T090000Z`), { method: 'PATCH', body: timed('2026-08-02T08:00:00Z', '2026-08-02T09:00:00Z') });
      const window = (min: string, max: string, more = '') => `timeMin=${enc(min)}&timeMax=${enc(max)}${more}`;
      for (const [min, max, expected] of [
        ['2026-08-06T12:00:00Z', '2026-08-07T00:00:00Z', ['20260804T090000Z']],
        ['2026-08-04T00:00:00Z', '2026-08-05T00:00:00Z', []],
        ['2026-08-01T00:00:00Z', '2026-08-03T00:00:00Z', ['20260806T090000Z']],
        ['2026-08-03T00:00:00Z', '2026-08-08T00:00:00Z', ['20260803T090000Z', '20260804T090000Z', '20260805T090000Z', '20260807T090000Z']],
      ] as const) {
        const inst = await a(path(`/${id}/instances?${window(min, max)}`));
        assert.deepEqual(inst.body.items.map((i: any) => i.id), expected.map((s) => `${id}_${s}`), `${min} to ${max}`);
        const list = await a(path(`?singleEvents=true&iCalUID=${enc(series.body.iCalUID)}&${window(min, max)}`));
        assert.deepEqual(new Set(list.body.items.map((i: any) => i.id)), new Set(inst.body.items.map((i: any) => i.id)));
      }
      const paged = await a(path(`/${id}/instances?maxResults=1&${window('2026-08-01T00:00:00Z', '2026-08-03T12:00:00Z')}`));
      const rest = await a(path(`/${id}/instances?maxResults=1&${window('2026-08-01T00:00:00Z', '2026-08-03T12:00:00Z', `&pageToken=${enc(paged.body.nextPageToken)}`)}`));
      assert.deepEqual([...paged.body.items, ...rest.body.items].map((i: any) => i.id), [`${id}_20260803T090000Z`, `${id}_20260806T090000Z`]);
      assert.equal(rest.body.nextPageToken, undefined);
    });

    it('singleEvents pages merge singles and several series in order: ties by id, exceptions in place, same items whatever the page size', async () => {
      const own = (await a('/calendars', { body: { summary: 'Merge', timeZone: 'Europe/Berlin' } })).body.id;
      const p = (rest = '') => `/calendars/${enc(own)}/events${rest}`;
      const zone = 'Europe/Berlin';
      const daily = (await a(p(), { body: { summary: 'daily', recurrence: ['RRULE:FREQ=DAILY'], ...timed('2026-03-20T09:00:00', '2026-03-20T09:30:00', zone) } })).body;
      const weekly = (await a(p(), { body: { summary: 'weekly', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'], ...timed('2026-03-23T09:00:00', '2026-03-23T10:00:00', zone) } })).body;
      await a(p(), { body: { summary: 'all day', recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TH'], start: { date: '2026-03-19' }, end: { date: '2026-03-20' } } });
      for (const day of ['23', '24', '30', '31']) await a(p(), { body: { summary: `single ${day}`, ...timed(`2026-03-${day}T09:00:00`, `2026-03-${day}T09:45:00`, zone) } });
      // One instance of the daily series moved to the evening, one cancelled.
      assert.equal((await a(p(`/${daily.id}_20260325T080000Z`), { method: 'PATCH', body: { start: { dateTime: '2026-03-25T18:00:00+01:00' }, end: { dateTime: '2026-03-25T18:30:00+01:00' } } })).status, 200);
      assert.equal((await a(p(`/${daily.id}_20260326T080000Z`), { method: 'DELETE' })).status, 204);
      const window = `singleEvents=true&timeMin=${enc('2026-03-22T00:00:00+01:00')}&timeMax=${enc('2026-04-05T00:00:00+02:00')}`;
      for (const order of ['startTime', 'updated']) {
        const whole = await a(p(`?${window}&orderBy=${order}&maxResults=2500`));
        assert.equal(whole.status, 200, JSON.stringify(whole.body));
        const ids = whole.body.items.map((i: any) => i.id);
        const key = (i: any) => (order === 'startTime' ? Date.parse(i.start.dateTime ?? `${i.start.date}T00:00:00+01:00`) : Date.parse(i.updated));
        for (let n = 1; n < whole.body.items.length; n++) {
          const [x, y] = [whole.body.items[n - 1], whole.body.items[n]];
          assert.ok(key(x) < key(y) || (key(x) === key(y) && x.id < y.id), `${order}: ${x.id} before ${y.id}`);
        }
        assert.ok(ids.includes(`${daily.id}_20260325T080000Z`) && !ids.includes(`${daily.id}_20260326T080000Z`));
        assert.equal(ids.filter((id: string) => id.startsWith(`${weekly.id}_`)).length, 2);
        const paged: string[] = [];
        let token: string | undefined;
        do {
          const page = await a(p(`?${window}&orderBy=${order}&maxResults=4${token ? `&pageToken=${enc(token)}` : ''}`));
          assert.equal(page.status, 200, JSON.stringify(page.body));
          assert.ok(page.body.items.length <= 4);
          paged.push(...page.body.items.map((i: any) => i.id));
          token = page.body.nextPageToken;
          if (!token) assert.ok(page.body.nextSyncToken);
        } while (token);
        assert.deepEqual(paged, ids);
      }
    });

    it('singleEvents lists share each parsed series master, yet show an edit of it at once', async () => {
      // A calendar of its own: the other tests' series reach into this window.
      const own = (await a('/calendars', { body: { summary: 'Shared masters', timeZone: 'America/New_York' } })).body.id;
      const ownPath = (rest = '') => `/calendars/${enc(own)}/events${rest}`;
      const series = await a(ownPath(), {
        body: {
          summary: 'Review',
          attendees: [{ email: 'a@example.com' }, { email: 'b@example.com' }, { email: own }],
          reminders: { useDefault: false, overrides: [{ method: 'popup', minutes: 5 }] },
          recurrence: ['RRULE:FREQ=DAILY;COUNT=5'],
          ...timed('2026-09-01T10:00:00', '2026-09-01T10:30:00', 'America/New_York'),
        },
      });
      assert.equal(series.status, 200, JSON.stringify(series.body));
      const month = (extra = '') => a(ownPath(`?singleEvents=true&orderBy=startTime&timeMin=${enc('2026-09-01T00:00:00Z')}&timeMax=${enc('2026-10-01T00:00:00Z')}${extra}`));
      for (let round = 0; round < 2; round++) {
        const listed = await month();
        assert.equal(listed.status, 200, JSON.stringify(listed.body));
        assert.deepEqual(listed.body.items.map((i: any) => i.summary), Array(5).fill('Review'));
        // Rendering and partial responses build their own objects: the shared master is never changed.
        const trimmed = await month('&maxAttendees=1&fields=' + enc('items(summary,attendees,attendeesOmitted,reminders/overrides)'));
        assert.equal(trimmed.status, 200, JSON.stringify(trimmed.body));
        assert.deepEqual(trimmed.body.items[0], {
          summary: 'Review',
          attendees: [{ email: own, organizer: true, responseStatus: 'needsAction', self: true }],
          attendeesOmitted: true,
          reminders: { overrides: [{ method: 'popup', minutes: 5 }] },
        });
      }
      const patched = await a(ownPath(`/${series.body.id}`), { method: 'PATCH', body: { summary: 'Weekly review' } });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.deepEqual((await month()).body.items.map((i: any) => i.summary), Array(5).fill('Weekly review'));
    });

    it('sync tokens: changes and deletions since, forbidden combinations, 410 for bad tokens, continuity after a restart', async () => {
      const c = (await a('/calendars', { body: { summary: 'Sync', timeZone: 'UTC' } })).body.id;
      const p = (rest: string) => `/calendars/${enc(c)}/events${rest}`;
      const one = await a(p(''), { body: { summary: 'one', ...timed('2026-06-01T09:00:00Z', '2026-06-01T10:00:00Z') } });
      const two = await a(p(''), { body: { summary: 'two', ...timed('2026-06-02T09:00:00Z', '2026-06-02T10:00:00Z') } });
      const full = await a(p(''));
      assert.equal(full.body.items.length, 2);
      const token = full.body.nextSyncToken;
      assert.ok(token);
      const none = await a(p(`?syncToken=${enc(token)}`));
      assert.deepEqual(none.body.items, []);
      assert.equal(none.body.nextSyncToken, token);
      await a(p(`/${one.body.id}`), { method: 'PATCH', body: { summary: 'one!' } });
      await a(p(`/${two.body.id}`), { method: 'DELETE' });
      const three = await a(p(''), { body: { summary: 'three', ...timed('2026-06-03T09:00:00Z', '2026-06-03T10:00:00Z') } });
      await t.restart();
      const changes = await a(p(`?syncToken=${enc(token)}&maxResults=2`));
      assert.deepEqual(changes.body.items.map((i: any) => [i.summary, i.status]), [['one!', 'confirmed'], ['two', 'cancelled']]);
      assert.equal(changes.body.nextSyncToken, undefined);
      const rest = await a(p(`?syncToken=${enc(token)}&maxResults=2&pageToken=${enc(changes.body.nextPageToken)}`));
      assert.deepEqual(rest.body.items.map((i: any) => i.id), [three.body.id]);
      const next = rest.body.nextSyncToken;
      assert.deepEqual((await a(p(`?syncToken=${enc(next)}`))).body.items, []);
      for (const extra of ['q=x', 'timeMin=2026-01-01T00:00:00Z', 'timeMax=2026-01-01T00:00:00Z', 'orderBy=updated', 'iCalUID=x', 'updatedMin=2026-01-01T00:00:00Z', 'privateExtendedProperty=a%3Db', 'sharedExtendedProperty=a%3Db']) {
        expectError(await a(p(`?syncToken=${enc(next)}&${extra}`)), 400);
      }
      // Deletions always come with a sync token: showDeleted=false cannot be asked for beside it.
      const hidden = await a(p(`?syncToken=${enc(next)}&showDeleted=false`));
      expectError(hidden, 400, 'invalid');
      assert.deepEqual(hidden.body.error.errors[0], {
        domain: 'global', reason: 'invalid', message: 'The showDeleted parameter cannot be false together with syncToken.', location: 'showDeleted', locationType: 'parameter',
      });
      assert.equal((await a(p(`?syncToken=${enc(next)}&showDeleted=true`))).status, 200);
      const gone = await a(p('?syncToken=CPnotatoken'));
      expectError(gone, 410, 'fullSyncRequired');
      assert.equal(gone.body.error.errors[0].domain, 'calendar');
      expectError(await a(`/calendars/primary/events?syncToken=${enc(next)}`), 410, 'fullSyncRequired');
      expectError(await a(p(`?syncToken=${enc(next)}&singleEvents=true`)), 410, 'fullSyncRequired');
      // Clearing a primary calendar invalidates its older tokens.
      await a('/calendars/primary/events', { body: { summary: 'p', ...timed('2026-06-01T09:00:00Z', '2026-06-01T10:00:00Z') } });
      const primaryToken = (await a('/calendars/primary/events')).body.nextSyncToken;
      assert.equal((await a('/calendars/primary/clear', { method: 'POST' })).status, 204);
      expectError(await a(`/calendars/primary/events?syncToken=${enc(primaryToken)}`), 410, 'fullSyncRequired');
      assert.deepEqual((await a('/calendars/primary/events')).body.items, []);
    });
  });
}
