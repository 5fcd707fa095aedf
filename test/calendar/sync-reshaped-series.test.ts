// An incremental sync with singleEvents=true after a series changes shape (fewer occurrences, another time of day, its
// recurrence removed or added): the instances the client holds that no longer exist come back as cancelled, so a client
// that applies the sync holds what a full list holds. Through the googleapis client, and across a restart.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { calendarSuite, client } from './helpers.ts';

type Calendar = ReturnType<typeof client>;

/** What a singleEvents sync client keeps: the events it was given that are not cancelled, by id. */
class Mirror {
  readonly events = new Map<string, string>();
  token = '';

  async fullSync(cal: Calendar): Promise<void> {
    this.events.clear();
    await this.#pages(cal, {});
  }

  /** Applies an incremental sync; answers the items it carried as `id:status`. */
  async incremental(cal: Calendar): Promise<string[]> {
    return this.#pages(cal, { syncToken: this.token });
  }

  async #pages(cal: Calendar, params: { syncToken?: string }): Promise<string[]> {
    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const res = await cal.events.list({ calendarId: 'primary', singleEvents: true, maxResults: 3, pageToken, ...params });
      for (const e of res.data.items ?? []) {
        seen.push(`${e.id}:${e.status}`);
        if (e.status === 'cancelled') this.events.delete(e.id!);
        else this.events.set(e.id!, e.start?.dateTime ?? e.start?.date ?? '');
      }
      pageToken = res.data.nextPageToken ?? undefined;
      if (res.data.nextSyncToken) this.token = res.data.nextSyncToken;
    } while (pageToken);
    return seen;
  }

  ids(): string[] {
    return [...this.events.keys()].sort();
  }
}

/** The ids a fresh full singleEvents list gives now. */
async function listed(cal: Calendar): Promise<string[]> {
  const fresh = new Mirror();
  await fresh.fullSync(cal);
  return fresh.ids();
}

const daily = (count: number, hour = '09') => ({
  summary: 'Stand-up',
  start: { dateTime: `2026-03-10T${hour}:00:00`, timeZone: 'Europe/London' },
  end: { dateTime: `2026-03-10T${hour}:15:00`, timeZone: 'Europe/London' },
  recurrence: [`RRULE:FREQ=DAILY;COUNT=${count}`],
});

for (const database of DATABASES) {
  describe(`calendar singleEvents sync of reshaped series (${database})`, () => {
    const suite = calendarSuite(database);
    let cal: Calendar;
    before(() => {
      cal = client(suite.t);
    });

    it('fewer occurrences: the dropped instances come back cancelled; an exception stays', async () => {
      const series = (await cal.events.insert({ calendarId: 'primary', requestBody: daily(5) })).data;
      const id = series.id!;
      // The fourth instance is moved: an exception, kept as a single event after the series shrinks.
      await cal.events.patch({ calendarId: 'primary', eventId: `${id}_20260313T090000Z`, requestBody: { summary: 'Moved' } });
      const mirror = new Mirror();
      await mirror.fullSync(cal);
      assert.equal(mirror.ids().filter((e) => e.startsWith(id)).length, 5);

      await cal.events.patch({ calendarId: 'primary', eventId: id, requestBody: { recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] } });
      const items = await mirror.incremental(cal);
      assert.deepEqual(items.filter((i) => i.endsWith(':cancelled')).sort(), [`${id}_20260312T090000Z:cancelled`, `${id}_20260314T090000Z:cancelled`]);
      assert.deepEqual(mirror.ids(), await listed(cal));
      assert.ok(mirror.ids().includes(`${id}_20260313T090000Z`), 'the moved instance stays');
      // Nothing changed since: the next sync is empty.
      assert.deepEqual(await mirror.incremental(cal), []);
    });

    it('another time of day: every old instance id is cancelled, the new ones arrive', async () => {
      const id = (await cal.events.insert({ calendarId: 'primary', requestBody: daily(3) })).data.id!;
      const mirror = new Mirror();
      await mirror.fullSync(cal);
      await cal.events.update({ calendarId: 'primary', eventId: id, requestBody: daily(3, '10') });
      const items = await mirror.incremental(cal);
      assert.deepEqual(items.filter((i) => i.startsWith(id)).sort(), [
        `${id}_20260310T090000Z:cancelled`,
        `${id}_20260310T100000Z:confirmed`,
        `${id}_20260311T090000Z:cancelled`,
        `${id}_20260311T100000Z:confirmed`,
        `${id}_20260312T090000Z:cancelled`,
        `${id}_20260312T100000Z:confirmed`,
      ]);
      assert.deepEqual(mirror.ids(), await listed(cal));
    });

    it('a series that becomes a single event, and a single event that becomes a series', async () => {
      const series = (await cal.events.insert({ calendarId: 'primary', requestBody: daily(3) })).data.id!;
      const { recurrence: _r, ...once } = daily(1);
      const single = (await cal.events.insert({ calendarId: 'primary', requestBody: once })).data.id!;
      const mirror = new Mirror();
      await mirror.fullSync(cal);
      await cal.events.update({ calendarId: 'primary', eventId: series, requestBody: once });
      await cal.events.update({ calendarId: 'primary', eventId: single, requestBody: daily(2) });
      const items = await mirror.incremental(cal);
      const expected = [`${series}_20260311T090000Z:cancelled`, `${series}:confirmed`, `${single}:cancelled`, `${single}_20260311T090000Z:confirmed`];
      assert.deepEqual(expected.filter((item) => !items.includes(item)), []);
      assert.deepEqual(mirror.ids(), await listed(cal));
    });

    it('the earlier shape is durable: a token taken before the change still syncs after a restart', async () => {
      const id = (await cal.events.insert({ calendarId: 'primary', requestBody: daily(4) })).data.id!;
      const mirror = new Mirror();
      await mirror.fullSync(cal);
      await cal.events.patch({ calendarId: 'primary', eventId: id, requestBody: { recurrence: ['RRULE:FREQ=DAILY;COUNT=1'] } });
      await suite.t.restart();
      cal = client(suite.t);
      const items = await mirror.incremental(cal);
      assert.deepEqual(items.filter((i) => i.endsWith(':cancelled')).sort(), [11, 12, 13].map((day) => `${id}_202603${day}T090000Z:cancelled`));
      assert.deepEqual(mirror.ids(), await listed(cal));
    });

    it('a sync without singleEvents gives the reshaped series itself, once', async () => {
      const id = (await cal.events.insert({ calendarId: 'primary', requestBody: daily(3) })).data.id!;
      const full = await cal.events.list({ calendarId: 'primary', maxResults: 2500 });
      await cal.events.patch({ calendarId: 'primary', eventId: id, requestBody: { recurrence: ['RRULE:FREQ=DAILY;COUNT=2'] } });
      const inc = await cal.events.list({ calendarId: 'primary', syncToken: full.data.nextSyncToken! });
      assert.deepEqual(inc.data.items?.map((e) => [e.id, e.status, e.recurrence]), [[id, 'confirmed', ['RRULE:FREQ=DAILY;COUNT=2']]]);
    });
  });
}
