// Writes to one event or one calendar that arrive together. On SQLite units of work run one after another; on
// PostgreSQL they run at once, so each must read what the one before it wrote: a second delete of an event is
// 410 as it is when sent later, patches of different fields all land, and users inviting each other at the same
// moment (each write reaching the other's calendar) are all served.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DATABASES } from '../helpers/runtime.ts';
import { ALICE, BOB, calendarSuite, timed } from './helpers.ts';

const T = timed('2026-03-12T15:00:00Z', '2026-03-12T16:00:00Z');

for (const database of DATABASES) {
  describe(`calendar writes that arrive together (${database})`, () => {
    const { alice, bob } = calendarSuite(database);

    it('deletes of one event: one 204, the others 410', async () => {
      const ev = (await alice('/calendars/primary/events', { body: { ...T, summary: 'once' } })).body;
      const answers = await Promise.all(Array.from({ length: 8 }, () => alice(`/calendars/primary/events/${ev.id}`, { method: 'DELETE' })));
      assert.deepEqual(answers.map((a) => a.status).sort(), [204, 410, 410, 410, 410, 410, 410, 410]);
      assert.equal((await alice(`/calendars/primary/events/${ev.id}`)).body.status, 'cancelled');
    });

    it('patches of different fields of one event all land', async () => {
      const ev = (await alice('/calendars/primary/events', { body: { ...T, summary: 'base' } })).body;
      const patches = [{ summary: 'renamed' }, { location: 'Room 4' }, { description: 'agenda' }, { colorId: '5' }, { transparency: 'transparent' }, { visibility: 'private' }];
      const answers = await Promise.all(patches.map((body) => alice(`/calendars/primary/events/${ev.id}`, { method: 'PATCH', body })));
      assert.deepEqual(answers.map((a) => a.status), patches.map(() => 200));
      const after = (await alice(`/calendars/primary/events/${ev.id}`)).body;
      assert.deepEqual(
        { summary: after.summary, location: after.location, description: after.description, colorId: after.colorId, transparency: after.transparency, visibility: after.visibility },
        Object.assign({}, ...patches),
      );
    });

    it('users inviting each other at the same moment are all served, and each copy arrives', async () => {
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) => [
          alice('/calendars/primary/events', { body: { ...T, summary: `from alice ${i}`, attendees: [{ email: BOB }] } }),
          bob('/calendars/primary/events', { body: { ...T, summary: `from bob ${i}`, attendees: [{ email: ALICE }] } }),
        ]).flat(),
      );
      assert.deepEqual(answers.map((a) => a.status), answers.map(() => 200), JSON.stringify(answers.find((a) => a.status !== 200)?.body));
      const titles = async (as: typeof alice) => ((await as('/calendars/primary/events?q=from&maxResults=100')).body.items as Array<{ summary: string }>).map((e) => e.summary).sort();
      const all = Array.from({ length: 6 }, (_, i) => [`from alice ${i}`, `from bob ${i}`]).flat().sort();
      assert.deepEqual(await titles(alice), all);
      assert.deepEqual(await titles(bob), all);
    });
  });
}
