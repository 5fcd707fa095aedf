// WatchChannels.notify with an audience: only the channels of the owners it allows are notified, the others stay
// open and keep their message number; the audience is asked only when the topic has live channels.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { ManualClock } from '../../src/core/clock.ts';
import type { Database } from '../../src/core/db/index.ts';
import { WatchChannels, watchChannelMigrations } from '../../src/core/google/watch-channels.ts';
import { Outbox } from '../../src/core/outbox.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';

for (const kind of DATABASES) {
  describe(`watch channel audiences (${kind})`, () => {
    let tdb: TestDatabase;
    let db: Database;
    let outbox: Outbox;
    let channels: WatchChannels;

    before(async () => {
      tdb = testDatabase(kind);
      db = await tdb.open();
      await db.migrate('core_watch', watchChannelMigrations);
      const clock = new ManualClock(Date.parse('2026-05-01T08:00:00Z'));
      outbox = new Outbox(db.kysely, clock, pino({ level: 'silent' }), () => 0);
      channels = new WatchChannels(outbox, clock);
    });
    after(async () => {
      await db.close();
      await tdb.dispose();
    });

    const open = (id: string, ownerId: string) =>
      db.write((tx) => channels.open(tx, { service: 'files', ownerId, topic: 'files:f1', resourceUri: 'http://127.0.0.1/f1', request: { id, address: 'http://127.0.0.1:9/hook' } }));
    const numbers = async (id: string) => (await outbox.list({ correlation: `channel:${id}` })).map((m) => m.headers['X-Goog-Message-Number']).sort();
    const notify = (allowed: string[], asked: string[][] = []) =>
      db.write((tx) =>
        channels.notify(tx, {
          service: 'files',
          topic: 'files:f1',
          state: 'update',
          audience: async (owners) => {
            asked.push([...owners].sort());
            return new Set(allowed);
          },
        }),
      );

    it('asks nothing of a topic without channels', async () => {
      const asked: string[][] = [];
      assert.equal(await notify(['u1'], asked), 0);
      assert.deepEqual(asked, []);
    });

    it('notifies the allowed owners only, once per owner asked, and resumes without a gap', async () => {
      await open('a', 'u1');
      await open('b', 'u2');
      await open('c', 'u2');
      const asked: string[][] = [];
      assert.equal(await notify(['u2'], asked), 2);
      assert.deepEqual(asked, [['u1', 'u2']]);
      assert.equal(await notify([]), 0);
      assert.deepEqual(await numbers('a'), ['1']);
      assert.equal(await notify(['u1', 'u2']), 3);
      assert.deepEqual(await numbers('a'), ['1', '2']);
      assert.deepEqual(await numbers('b'), ['1', '2', '3']);
    });
  });
}
