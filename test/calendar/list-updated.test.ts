// The `updated` of an events.list answer is the calendar's last modification time, whatever the page holds: an empty
// calendar, a filter that matches nothing and a sync with no changes all answer it, and any event write moves it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, type TestRuntime } from '../helpers/runtime.ts';
import { NOW, advance, api, client, startCalendar, timed, type Api } from './helpers.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;

for (const database of DATABASES) {
  describe(`calendar events.list updated (${database})`, () => {
    let t: TestRuntime;
    // The developer's calls, on whichever runtime the suite started.
    const a: Api = (path, init) => api(t)(path, init);
    before(async () => {
      t = await startCalendar(database);
    });
    after(async () => t.close());

    it('an empty calendar answers when it was made', async () => {
      const list = await a('/calendars/primary/events');
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.items, []);
      assert.equal(list.body.updated, iso(NOW));
    });

    it('the latest event change, also on pages that do not hold it and in an empty sync', async () => {
      await advance(t, '1h');
      const first = await a('/calendars/primary/events', { body: { summary: 'First', ...timed('2026-03-10T09:00:00Z', '2026-03-10T10:00:00Z') } });
      await advance(t, '1h');
      await a('/calendars/primary/events', { body: { summary: 'Second', ...timed('2026-03-11T09:00:00Z', '2026-03-11T10:00:00Z') } });
      const latest = iso(NOW + 2 * HOUR);
      const full = await a('/calendars/primary/events');
      assert.equal(full.body.updated, latest);
      // A page with only the older event, and a search that finds nothing, still answer the calendar's last change.
      const firstPage = await a('/calendars/primary/events?maxResults=1');
      assert.deepEqual(firstPage.body.items.map((e: any) => e.id), [first.body.id]);
      assert.equal(firstPage.body.updated, latest);
      assert.equal((await a('/calendars/primary/events?q=nothing-matches')).body.updated, latest);
      const sync = await a(`/calendars/primary/events?syncToken=${encodeURIComponent(full.body.nextSyncToken)}`);
      assert.deepEqual(sync.body.items, []);
      assert.equal(sync.body.updated, latest);
    });

    it('a deletion moves it too (googleapis client)', async () => {
      const cal = client(t);
      const listed = await cal.events.list({ calendarId: 'primary' });
      await advance(t, '1h');
      await cal.events.delete({ calendarId: 'primary', eventId: listed.data.items![0].id! });
      const after = await cal.events.list({ calendarId: 'primary' });
      assert.equal(after.data.items?.length, 1);
      assert.equal(after.data.updated, iso(NOW + 3 * HOUR));
    });
  });
}
