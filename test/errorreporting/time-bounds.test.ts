// The bounds of time ranges and of timed counts: a period runs from `now - period` to now, both included, and a
// TimedCount holds the events of [startTime, endTime), as the API documents for its fields; an event at now itself
// (a report read at the same instant of a stopped clock) counts in the last bucket.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DATABASES, DEV_API_KEY, DEV_TOKEN, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const AUTH = { authorization: `Bearer ${DEV_TOKEN}` };
const P = 'bounds-project';
const TRACE = 'TypeError: failed\n    at render (/app/render.js:10:5)\n    at main (/app/main.js:3:1)';

for (const database of DATABASES) {
  describe(`errorreporting time bounds (${database})`, () => {
    let t: TestRuntime;
    let base: string;
    before(async () => {
      t = await startTestRuntime({ services: ['errorreporting'], database, clock: 'manual', clockStart: NOW });
      base = t.url('errorreporting');
      // The start of the day's range, one millisecond before a bucket boundary, two boundaries, and now (no eventTime).
      for (const eventTime of ['2026-02-28T12:00:00Z', '2026-03-01T10:59:59.999Z', '2026-03-01T11:00:00Z', '2026-03-01T11:30:00Z', undefined]) {
        const res = await call(`${base}/v1beta1/projects/${P}/events:report?key=${DEV_API_KEY}`, { body: { serviceContext: { service: 'web' }, message: TRACE, eventTime } });
        assert.equal(res.status, 200, res.text);
      }
    });
    after(async () => t.close());

    const get = async (path: string) => {
      const res = await call(`${base}/v1beta1/projects/${P}/${path}`, { headers: AUTH });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const onlyStats = async (query: string) => {
      const body = await get(`groupStats?timeRange.period=PERIOD_1_DAY&${query}`);
      assert.equal(body.errorGroupStats.length, 1);
      return body.errorGroupStats[0];
    };

    it('counts an event at a bucket end in the next bucket (ALIGNMENT_EQUAL_AT_END)', async () => {
      const stats = await onlyStats('timedCountDuration=3600s');
      assert.equal(stats.count, '5');
      assert.deepEqual(stats.timedCounts, [
        { count: '1', startTime: '2026-02-28T12:00:00Z', endTime: '2026-02-28T13:00:00Z' },
        { count: '1', startTime: '2026-03-01T10:00:00Z', endTime: '2026-03-01T11:00:00Z' },
        { count: '3', startTime: '2026-03-01T11:00:00Z', endTime: '2026-03-01T12:00:00Z' },
      ]);
    });

    it('counts an event at a bucket end in the next bucket (ALIGNMENT_EQUAL_ROUNDED)', async () => {
      const stats = await onlyStats('timedCountDuration=3600s&alignment=ALIGNMENT_EQUAL_ROUNDED&alignmentTime=2026-03-01T00:30:00Z');
      assert.equal(stats.count, '5');
      assert.deepEqual(stats.timedCounts, [
        { count: '1', startTime: '2026-02-28T12:00:00Z', endTime: '2026-02-28T12:30:00Z' },
        { count: '2', startTime: '2026-03-01T10:30:00Z', endTime: '2026-03-01T11:30:00Z' },
        { count: '2', startTime: '2026-03-01T11:30:00Z', endTime: '2026-03-01T12:00:00Z' },
      ]);
    });

    it('counts an event at now in the last bucket when now is itself a boundary (ALIGNMENT_EQUAL_ROUNDED)', async () => {
      const stats = await onlyStats('timedCountDuration=3600s&alignment=ALIGNMENT_EQUAL_ROUNDED&alignmentTime=2026-03-01T00:00:00Z');
      assert.equal(stats.count, '5');
      assert.deepEqual(stats.timedCounts, [
        { count: '1', startTime: '2026-02-28T12:00:00Z', endTime: '2026-02-28T13:00:00Z' },
        { count: '1', startTime: '2026-03-01T10:00:00Z', endTime: '2026-03-01T11:00:00Z' },
        { count: '3', startTime: '2026-03-01T11:00:00Z', endTime: '2026-03-01T12:00:00Z' },
      ]);
    });

    it('takes an event at the end of the range (now) into groupStats and events.list', async () => {
      const stats = await onlyStats('');
      assert.equal(stats.count, '5');
      assert.equal(stats.representative.eventTime, '2026-03-01T12:00:00Z');
      const events = await get(`events?groupId=${stats.group.groupId}&timeRange.period=PERIOD_1_DAY`);
      assert.deepEqual(
        events.errorEvents.map((e: any) => e.eventTime),
        ['2026-03-01T12:00:00Z', '2026-03-01T11:30:00Z', '2026-03-01T11:00:00Z', '2026-03-01T10:59:59.999Z', '2026-02-28T12:00:00Z'],
      );
    });

    // Last: it moves the clock.
    it('moves both ends of the range with the clock', async () => {
      const res = await call(`${t.adminUrl}/clock`, { body: { advance: '1s' } });
      assert.equal(res.status, 200, res.text);
      const stats = await onlyStats('timedCountDuration=86400s');
      assert.equal(stats.count, '4');
      assert.deepEqual(stats.timedCounts, [{ count: '4', startTime: '2026-02-28T12:00:01Z', endTime: '2026-03-01T12:00:01Z' }]);
      assert.equal(stats.representative.eventTime, '2026-03-01T12:00:00Z');
    });
  });
}
