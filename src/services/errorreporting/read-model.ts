// The read side as the real API shapes it: groupStats.list, events.list and ErrorGroup resources.
import { decodePageToken, encodePageToken } from '../../core/google/index.ts';
import { formatInstant, instantFromMs } from '../../core/time.ts';
import { Turns } from '../../core/turns.ts';
import { groupName, holdsEvents, type Scope } from './domain/project.ts';
import { bucketPlan, bucketsOf, type EventsQuery, type GroupStatsQuery } from './domain/query.ts';
import type { ErrorStore, GroupAggregate, GroupRow, GroupSlice, StoredEvent } from './store.ts';

const wireTime = (ms: number) => formatInstant(instantFromMs(ms));

export function errorGroupJson(g: GroupRow, scope: Scope) {
  const out: Record<string, unknown> = { name: groupName(scope, g.groupId), groupId: g.groupId, resolutionStatus: g.resolutionStatus };
  if (g.trackingIssues.length) out.trackingIssues = g.trackingIssues;
  return out;
}

export function errorEventJson(e: StoredEvent) {
  const serviceContext: Record<string, string> = { service: e.service };
  if (e.version) serviceContext.version = e.version;
  const out: Record<string, unknown> = { eventTime: e.eventTime, serviceContext, message: e.message };
  if (e.context) out.context = e.context;
  return out;
}

type Sorter = (a: GroupAggregate, b: GroupAggregate, groups: Map<string, GroupRow>) => number;

const SORTERS: Record<GroupStatsQuery['order'], Sorter> = {
  COUNT_DESC: (a, b) => b.count - a.count || b.lastSeen - a.lastSeen,
  LAST_SEEN_DESC: (a, b) => b.lastSeen - a.lastSeen,
  CREATED_DESC: (a, b, groups) => groups.get(b.groupId)!.createdAt - groups.get(a.groupId)!.createdAt,
  AFFECTED_USERS_DESC: (a, b) => b.affectedUsers - a.affectedUsers || b.count - a.count,
};

export async function listGroupStats(store: ErrorStore, scope: Scope, q: GroupStatsQuery) {
  const { pageToken, pageSize, ...shape } = q;
  const queryKey = JSON.stringify({ ...scope, ...shape, timeRange: shape.timeRange.period });
  const offset = pageToken ? decodePageToken<number>(pageToken, queryKey) : 0;
  if (!holdsEvents(scope)) return { timeRangeBegin: wireTime(q.timeRange.beginMs) };
  const { projectId } = scope;

  const aggregates = await store.aggregates(projectId, q.serviceFilter, q.timeRange, q.groupIds);
  // Without ids, all the project's groups (fewer than its events, and no parameter list that grows with them).
  const groups = new Map((await store.groups(projectId, q.groupIds.length ? q.groupIds : undefined)).map((g) => [g.groupId, g]));
  // Groups named by id are listed even without events in the range (the real API's rule), with zero counts.
  const counted = new Set(aggregates.map((a) => a.groupId));
  for (const id of q.groupIds) {
    if (groups.has(id) && !counted.has(id)) aggregates.push({ groupId: id, count: 0, affectedUsers: 0, firstSeen: 0, lastSeen: 0 });
    counted.add(id);
  }
  // Muted groups are left out unless the caller asked for them by id.
  const visible = aggregates.filter((a) => groups.has(a.groupId) && (groups.get(a.groupId)!.resolutionStatus !== 'MUTED' || q.groupIds.includes(a.groupId)));
  const sorter = SORTERS[q.order];
  visible.sort((a, b) => sorter(a, b, groups) || (a.groupId < b.groupId ? -1 : a.groupId > b.groupId ? 1 : 0));

  const page = visible.slice(offset, offset + pageSize);
  const ids = page.map((a) => a.groupId);
  const plan = q.timedCountDurationMs ? bucketPlan(q.timeRange, q.timedCountDurationMs, q.alignment, q.alignmentTimeMs) : undefined;
  // First and last seen ignore the time range, as the real API's do.
  const [bounds, slices] = await Promise.all([
    store.seenBounds(projectId, q.serviceFilter, ids),
    store.groupSlices(projectId, q.serviceFilter, q.timeRange, ids, plan),
  ]);
  const boundsOf = new Map(bounds.map((b) => [b.groupId, b]));
  const slicesOf = new Map<string, GroupSlice[]>();
  for (const sl of slices) {
    const list = slicesOf.get(sl.groupId);
    if (list) list.push(sl);
    else slicesOf.set(sl.groupId, [sl]);
  }
  // The representative is the most recently received event of the group in the range.
  // A loop, not Math.max(...list): spreading a group's slices (one per bucket with events) as arguments overflows the
  // stack past about 120,000 of them.
  const latestIds = [...slicesOf.values()].map((list) => list.reduce((max, sl) => (sl.latestId > max ? sl.latestId : max), 0));
  const representativeOf = new Map((await store.eventsById(latestIds)).map((e) => [e.groupId, e]));

  // Bucket bounds repeat from group to group: each is formatted once.
  const formatted = new Map<number, string>();
  const time = (ms: number) => {
    let text = formatted.get(ms);
    if (text === undefined) formatted.set(ms, (text = wireTime(ms)));
    return text;
  };
  // Many buckets make this loop long (a day of one-second buckets is 86,400 a group): it runs in turns with the
  // other requests of the process.
  const turns = new Turns();
  const errorGroupStats: Array<Record<string, unknown>> = [];
  for (const a of page) {
    if (turns.due) await turns.take();
    const mine = slicesOf.get(a.groupId) ?? [];
    const affected = uniqueServices(mine);
    // Zero counts are left out, as proto3 JSON leaves out every scalar at its default (a group named by id without
    // events in the range has neither count).
    const stats: Record<string, unknown> = { group: errorGroupJson(groups.get(a.groupId)!, scope) };
    if (a.count > 0) stats.count = String(a.count);
    if (a.affectedUsers > 0) stats.affectedUsersCount = String(a.affectedUsers);
    if (plan) {
      const timedCounts: Array<Record<string, string>> = [];
      for (const b of bucketsOf(plan, q.timeRange, sumByIndex(mine))) {
        if (turns.due) await turns.take();
        timedCounts.push({ count: String(b.count), startTime: time(b.startMs), endTime: time(b.endMs) });
      }
      // A group named by id without events in the range has none: an empty list is left out, as proto3 JSON does.
      if (timedCounts.length) stats.timedCounts = timedCounts;
    }
    const bound = boundsOf.get(a.groupId);
    if (bound) {
      stats.firstSeenTime = wireTime(bound.firstSeen);
      stats.lastSeenTime = wireTime(bound.lastSeen);
    }
    if (affected.length) {
      stats.affectedServices = affected;
      stats.numAffectedServices = affected.length;
    }
    const representative = representativeOf.get(a.groupId);
    if (representative) stats.representative = errorEventJson(representative);
    errorGroupStats.push(stats);
  }

  // Empty repeated fields are omitted on the wire, as proto3 JSON does.
  const out: Record<string, unknown> = errorGroupStats.length ? { errorGroupStats } : {};
  out.timeRangeBegin = wireTime(q.timeRange.beginMs);
  if (offset + pageSize < visible.length) out.nextPageToken = encodePageToken(offset + pageSize, queryKey);
  return out;
}

/** Distinct service contexts of a group's slices, sorted. */
function uniqueServices(slices: GroupSlice[]) {
  const seen = new Map<string, { service: string; version?: string }>();
  for (const sl of slices) seen.set(`${sl.service}\u0000${sl.version}`, sl.version ? { service: sl.service, version: sl.version } : { service: sl.service });
  return [...seen].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

function sumByIndex(slices: GroupSlice[]) {
  const counts = new Map<number, number>();
  for (const sl of slices) counts.set(sl.index, (counts.get(sl.index) ?? 0) + sl.count);
  return [...counts].map(([index, count]) => ({ index, count }));
}

export async function listEvents(store: ErrorStore, scope: Scope, q: EventsQuery) {
  const { pageToken, pageSize, ...shape } = q;
  const queryKey = JSON.stringify({ ...scope, ...shape, timeRange: shape.timeRange.period });
  const offset = pageToken ? decodePageToken<number>(pageToken, queryKey) : 0;
  if (!holdsEvents(scope)) return { timeRangeBegin: wireTime(q.timeRange.beginMs) };
  const { projectId } = scope;
  // One extra row tells whether another page follows.
  const rows = await store.listEvents(projectId, q.groupId, q.serviceFilter, q.timeRange, offset, pageSize + 1);
  const out: Record<string, unknown> = rows.length ? { errorEvents: rows.slice(0, pageSize).map(errorEventJson) } : {};
  out.timeRangeBegin = wireTime(q.timeRange.beginMs);
  if (rows.length > pageSize) out.nextPageToken = encodePageToken(offset + pageSize, queryKey);
  return out;
}
