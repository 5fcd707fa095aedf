import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readGroupStatsQuery } from '../../src/services/errorreporting/domain/query.ts';
import { listGroupStats } from '../../src/services/errorreporting/read-model.ts';
import type { ErrorStore, GroupSlice } from '../../src/services/errorreporting/store.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('errorreporting read model', () => {
  it('answers groupStats for a group with more timed-count buckets than a call can take arguments', async () => {
    // One group with an event in each of 200,000 one-second buckets of the default 30 days: one slice per bucket.
    const buckets = 200_000;
    const slices: GroupSlice[] = [];
    for (let k = 0; k < buckets; k++) slices.push({ groupId: 'g1', service: 'web', version: `v${k % 3}`, index: k, count: 1, latestId: k === 1234 ? buckets + 1 : k + 1 });
    const asked: number[][] = [];
    const store = {
      aggregates: async () => [{ groupId: 'g1', count: buckets, affectedUsers: 1, firstSeen: NOW - buckets * 1000, lastSeen: NOW - 1000 }],
      groups: async () => [{ projectId: 'p', groupId: 'g1', service: 'web', exceptionType: 'TypeError', resolutionStatus: 'OPEN', trackingIssues: [], createdAt: 0 }],
      seenBounds: async () => [{ groupId: 'g1', firstSeen: NOW - buckets * 1000, lastSeen: NOW - 1000 }],
      groupSlices: async () => slices,
      eventsById: async (ids: number[]) => {
        asked.push(ids);
        return ids.map((id) => ({ id, groupId: 'g1', eventTimeMs: NOW - 1000, eventTime: '2026-03-01T11:59:59Z', service: 'web', version: 'v1', message: 'TypeError: x' }));
      },
    } as unknown as ErrorStore;

    const out = (await listGroupStats(store, { projectId: 'p' }, readGroupStatsQuery({ timedCountDuration: '1s' }, NOW))) as { errorGroupStats: any[] };
    const [stats] = out.errorGroupStats;
    assert.equal(stats.timedCounts.length, buckets);
    assert.deepEqual(stats.affectedServices, [0, 1, 2].map((v) => ({ service: 'web', version: `v${v}` })));
    // The representative is the group's most recently received event: the slice with the highest id, wherever it is.
    assert.deepEqual(asked, [[buckets + 1]]);
    assert.equal(stats.representative.serviceContext.service, 'web');
  });
});
