import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { ManualClock } from '../../src/core/clock.ts';
import type { Database } from '../../src/core/db/index.ts';
import { Jobs, type Job } from '../../src/core/jobs.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';

const log = pino({ level: 'silent' });
const T0 = Date.parse('2026-03-01T12:00:00Z');

for (const kind of DATABASES) {
  describe(`durable jobs (${kind})`, () => {
    let tdb: TestDatabase;
    let db: Database;
    let clock: ManualClock;
    const wall = 1_000_000;
    const jobsOn = (database: Database) => new Jobs(database.kysely, clock, log, () => wall);

    before(async () => {
      tdb = testDatabase(kind);
      db = await tdb.open();
      clock = new ManualClock(T0);
    });
    after(async () => {
      await db.close();
      await tdb.dispose();
    });

    it('runs a job when it is due and not before', async () => {
      const jobs = jobsOn(db);
      const ran: Job[] = [];
      jobs.register('svc', 'expire', async (job) => void ran.push(job), null);
      await jobs.schedule({ service: 'svc', kind: 'expire', runAt: T0 + 60_000, payload: { id: 'a' } });
      assert.equal(await jobs.runDue(), 0);
      clock.advance(60_000);
      assert.equal(await jobs.runDue(), 1);
      assert.deepEqual(ran.map((j) => j.payload), [{ id: 'a' }]);
      assert.equal(await jobs.runDue(), 0, 'a finished one-off job is gone');
    });

    it('retries a failing job later with backoff and keeps the error', async () => {
      const jobs = jobsOn(db);
      let calls = 0;
      jobs.register('svc', 'flaky', async () => {
        calls++;
        if (calls === 1) throw new Error('downstream unavailable');
      }, null);
      await jobs.schedule({ service: 'svc', kind: 'flaky', runAt: clock.now(), key: 'flaky-1' });
      assert.equal(await jobs.runDue(), 1);
      const [pending] = (await jobs.list('svc')).filter((j) => j.kind === 'flaky');
      assert.equal(pending.attempts, 1);
      assert.equal(pending.lastError, 'downstream unavailable');
      assert.equal(await jobs.runDue(), 0, 'not before the backoff');
      clock.advance(2_000);
      assert.equal(await jobs.runDue(), 1);
      assert.equal(calls, 2);
      assert.equal((await jobs.list('svc')).filter((j) => j.kind === 'flaky').length, 0);
    });

    it('survives a restart: a job scheduled before runs after reopening', async () => {
      const first = jobsOn(db);
      await first.schedule({ service: 'svc', kind: 'later', runAt: clock.now() + 10_000, payload: 42 });
      await db.close();
      db = await tdb.open();
      const second = jobsOn(db);
      const seen: unknown[] = [];
      second.register('svc', 'later', async (job) => void seen.push(job.payload), null);
      clock.advance(10_000);
      assert.equal(await second.runDue(), 1);
      assert.deepEqual(seen, [42]);
    });

    it('runs each job once when two workers race for it', async () => {
      const other = await tdb.open();
      try {
        const a = jobsOn(db);
        const b = jobsOn(other);
        const runs = new Map<string, number>();
        const handler = async (job: Job) => {
          runs.set(job.payload, (runs.get(job.payload) ?? 0) + 1);
          await new Promise((r) => setImmediate(r));
        };
        a.register('svc', 'race', handler, null);
        b.register('svc', 'race', handler, null);
        for (let i = 0; i < 30; i++) await a.schedule({ service: 'svc', kind: 'race', runAt: clock.now(), payload: `job-${i}` });
        const [ranA, ranB] = await Promise.all([a.runDue(), b.runDue()]);
        assert.equal(ranA + ranB, 30);
        assert.equal(runs.size, 30);
        assert.ok([...runs.values()].every((n) => n === 1), 'no job ran twice');
      } finally {
        await other.close();
      }
    });

    it('scheduling again under the same key replaces the pending job', async () => {
      const jobs = jobsOn(db);
      const seen: unknown[] = [];
      jobs.register('svc', 'keyed', async (job) => void seen.push(job.payload), null);
      await jobs.schedule({ service: 'svc', kind: 'keyed', runAt: clock.now() + 5_000, payload: 'first', key: 'k1' });
      await jobs.schedule({ service: 'svc', kind: 'keyed', runAt: clock.now() + 9_000, payload: 'second', key: 'k1' });
      clock.advance(5_000);
      assert.equal(await jobs.runDue(), 0);
      clock.advance(4_000);
      assert.equal(await jobs.runDue(), 1);
      assert.deepEqual(seen, ['second']);
    });

    it('runs a daily job at midnight in its time zone, once per day', async () => {
      const jobs = jobsOn(db);
      const at: string[] = [];
      jobs.register('svc', 'nightly', async () => void at.push(new Date(clock.now()).toISOString()), null);
      clock.set(Date.parse('2026-03-10T10:00:00Z'));
      await jobs.daily({ service: 'svc', kind: 'nightly', key: 'nightly:ny', at: '00:00', timeZone: 'America/New_York' });
      await jobs.daily({ service: 'svc', kind: 'nightly', key: 'nightly:ny', at: '00:00', timeZone: 'America/New_York' });
      clock.set(Date.parse('2026-03-11T03:59:00Z'));
      assert.equal(await jobs.runDue(), 0);
      clock.set(Date.parse('2026-03-11T04:00:00Z')); // midnight EDT
      assert.equal(await jobs.runDue(), 1);
      assert.equal(await jobs.runDue(), 0);
      clock.set(Date.parse('2026-03-12T04:00:00Z'));
      assert.equal(await jobs.runDue(), 1);
      assert.equal(at.length, 2);
      const [row] = (await jobs.list('svc')).filter((j) => j.kind === 'nightly');
      assert.equal(new Date(row.runAt).toISOString(), '2026-03-13T04:00:00.000Z');
      await jobs.cancel('nightly:ny');
    });
  });
}
