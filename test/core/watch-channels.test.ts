import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { ManualClock } from '../../src/core/clock.ts';
import type { Database } from '../../src/core/db/index.ts';
import { GoogleError } from '../../src/core/google/errors.ts';
import { WatchChannels, watchChannelMigrations } from '../../src/core/google/watch-channels.ts';
import { Outbox } from '../../src/core/outbox.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';

const T0 = Date.parse('2026-05-01T08:00:00Z');
const HOUR = 3_600_000;

for (const kind of DATABASES) {
  describe(`watch channels (${kind})`, () => {
    let tdb: TestDatabase;
    let db: Database;
    let clock: ManualClock;
    let outbox: Outbox;
    let channels: WatchChannels;

    before(async () => {
      tdb = testDatabase(kind);
      db = await tdb.open();
      await db.migrate('core_watch', watchChannelMigrations);
      clock = new ManualClock(T0);
      outbox = new Outbox(db.kysely, clock, pino({ level: 'silent' }), () => 0);
      channels = new WatchChannels(outbox, clock);
    });
    after(async () => {
      await db.close();
      await tdb.dispose();
    });

    const open = (id: string, extra: Record<string, unknown> = {}) =>
      db.write((tx) =>
        channels.open(tx, {
          service: 'files',
          ownerId: 'u1',
          topic: 'files:f1',
          resourceUri: 'http://127.0.0.1/drive/v2/files/f1',
          request: { id, type: 'web_hook', address: 'http://127.0.0.1:9/hook', ...extra },
          maxTtlMs: 24 * HOUR,
        }),
      );
    const sent = async (id: string) => (await outbox.list({ correlation: `channel:${id}` })).map((m) => m.headers);

    it('opens a channel and queues its sync message with the X-Goog headers', async () => {
      const ch = await open('chan-1', { token: 'tok' });
      assert.equal(ch.kind, 'api#channel');
      assert.equal(ch.id, 'chan-1');
      assert.equal(ch.token, 'tok');
      assert.equal(ch.expiration, String(T0 + 24 * HOUR), 'no expiration asked: the default is capped by the maximum');
      const [sync] = await sent('chan-1');
      assert.equal(sync['X-Goog-Resource-State'], 'sync');
      assert.equal(sync['X-Goog-Message-Number'], '1');
      assert.equal(sync['X-Goog-Channel-Token'], 'tok');
      assert.equal(sync['X-Goog-Resource-ID'], ch.resourceId);
    });

    it('numbers notifications per channel and stops at expiry', async () => {
      const queued = await db.write((tx) => channels.notify(tx, { service: 'files', topic: 'files:f1', state: 'update', changed: ['content'] }));
      assert.equal(queued, 1);
      const [, update] = await sent('chan-1');
      assert.equal(update['X-Goog-Resource-State'], 'update');
      assert.equal(update['X-Goog-Message-Number'], '2');
      assert.equal(update['X-Goog-Changed'], 'content');
      clock.advance(25 * HOUR);
      assert.equal(await db.write((tx) => channels.notify(tx, { service: 'files', topic: 'files:f1', state: 'update' })), 0);
    });

    it('refuses a duplicate id, a bad address or a past expiration, and stores nothing', async () => {
      await assert.rejects(open('chan-1'), (e: GoogleError) => e.status === 400 && /not unique/.test(e.message));
      await assert.rejects(open('chan-2', { address: 'ftp://x' }), (e: GoogleError) => e.status === 400);
      await assert.rejects(open('chan-3', { expiration: String(clock.now() - 1) }), (e: GoogleError) => e.status === 400);
      await assert.rejects(open('chan 4'), (e: GoogleError) => e.status === 400);
      for (const id of ['chan-2', 'chan-3']) assert.deepEqual(await sent(id), []);
    });

    it('stops a channel only for its owner and resource id', async () => {
      const ch = await open('chan-5');
      assert.equal(await db.write((tx) => channels.stop(tx, { service: 'files', ownerId: 'u2', id: 'chan-5', resourceId: ch.resourceId })), false);
      assert.equal(await db.write((tx) => channels.stop(tx, { service: 'files', ownerId: 'u1', id: 'chan-5', resourceId: 'other' })), false);
      assert.equal(await db.write((tx) => channels.stop(tx, { service: 'files', ownerId: 'u1', id: 'chan-5', resourceId: ch.resourceId })), true);
      assert.equal(await db.write((tx) => channels.notify(tx, { service: 'files', topic: 'files:f1', state: 'update' })), 0);
    });

    // An audience: only the channels of the owners it allows are notified; the others stay open and keep their number.
    const openOnAudienceTopic = (id: string, ownerId: string) =>
      db.write((tx) => channels.open(tx, { service: 'files', ownerId, topic: 'files:audience', resourceUri: 'http://127.0.0.1/audience', request: { id, address: 'http://127.0.0.1:9/hook' } }));
    const messageNumbers = async (id: string) => (await outbox.list({ correlation: `channel:${id}` })).map((m) => m.headers['X-Goog-Message-Number']).sort();
    const notifyAudience = (allowed: string[], asked: string[][] = []) =>
      db.write((tx) =>
        channels.notify(tx, {
          service: 'files',
          topic: 'files:audience',
          state: 'update',
          audience: async (owners) => {
            asked.push([...owners].sort());
            return new Set(allowed);
          },
        }),
      );

    it('asks no audience of a topic without channels', async () => {
      const asked: string[][] = [];
      assert.equal(await notifyAudience(['u1'], asked), 0);
      assert.deepEqual(asked, []);
    });

    it('with an audience, notifies the allowed owners only, once per owner asked, and resumes without a gap', async () => {
      await openOnAudienceTopic('a', 'u1');
      await openOnAudienceTopic('b', 'u2');
      await openOnAudienceTopic('c', 'u2');
      const asked: string[][] = [];
      assert.equal(await notifyAudience(['u2'], asked), 2);
      assert.deepEqual(asked, [['u1', 'u2']]);
      assert.equal(await notifyAudience([]), 0);
      assert.deepEqual(await messageNumbers('a'), ['1']);
      assert.equal(await notifyAudience(['u1', 'u2']), 3);
      assert.deepEqual(await messageNumbers('a'), ['1', '2']);
      assert.deepEqual(await messageNumbers('b'), ['1', '2', '3']);
    });
  });
}
