// The query parameters of the read methods (groupStats.list, events.list), validated into plain values, and the
// time arithmetic they need: the period a time range covers and the buckets of `timedCounts`.
import { invalidArgument, pageSize as readPageSize, refuseUnknownParameters } from '../../../core/google/index.ts';
import { parseGoogleDuration, parseRfc3339, instantToMs } from '../../../core/time.ts';
import { isGroupId } from './fingerprint.ts';

const ENUM_PREFIX = 'type.googleapis.com/google.devtools.clouderrorreporting.v1beta1.';

export const PERIODS: Record<string, number> = {
  PERIOD_1_HOUR: 3600_000,
  PERIOD_6_HOURS: 6 * 3600_000,
  PERIOD_1_DAY: 24 * 3600_000,
  PERIOD_1_WEEK: 7 * 24 * 3600_000,
  PERIOD_30_DAYS: 30 * 24 * 3600_000,
};
/** Longest accepted `timedCountDuration` (ten years): longer ones are one bucket anyway and would overflow the arithmetic. */
const MAX_TIMED_COUNT_MS = 3650 * 24 * 3600_000;
/** Without `timeRange.period` (or with PERIOD_UNSPECIFIED) the whole retention window is searched. */
export const DEFAULT_PERIOD = 'PERIOD_30_DAYS';

export const ORDERS = ['COUNT_DESC', 'LAST_SEEN_DESC', 'CREATED_DESC', 'AFFECTED_USERS_DESC'] as const;
export type GroupOrder = (typeof ORDERS)[number];
export const ALIGNMENTS = ['ALIGNMENT_EQUAL_ROUNDED', 'ALIGNMENT_EQUAL_AT_END'] as const;
export type Alignment = (typeof ALIGNMENTS)[number];

export interface ServiceFilter {
  service?: string;
  version?: string;
  resourceType?: string;
}

/**
 * The window [beginMs, endMs] of a query: from `now - period` to now, both included. Its buckets are half-open like the
 * API's TimedCount (start included, end excluded), except that an event at the very end (now, as with a report read at
 * the same instant of a stopped manual clock) counts in the last bucket rather than in none.
 */
export interface TimeRange {
  period: string;
  beginMs: number;
  endMs: number;
}

export interface GroupStatsQuery {
  groupIds: string[];
  serviceFilter: ServiceFilter;
  timeRange: TimeRange;
  timedCountDurationMs?: number;
  alignment: Alignment;
  alignmentTimeMs?: number;
  order: GroupOrder;
  pageSize: number;
  pageToken?: string;
}

export interface EventsQuery {
  groupId: string;
  serviceFilter: ServiceFilter;
  timeRange: TimeRange;
  pageSize: number;
  pageToken?: string;
}

type Raw = Record<string, unknown>;

const GROUP_STATS_PARAMS = [
  'groupId', 'serviceFilter.service', 'serviceFilter.version', 'serviceFilter.resourceType', 'timeRange.period', 'timedCountDuration',
  'alignment', 'alignmentTime', 'order', 'pageSize', 'pageToken',
];
const EVENTS_PARAMS = ['groupId', 'serviceFilter.service', 'serviceFilter.version', 'serviceFilter.resourceType', 'timeRange.period', 'pageSize', 'pageToken'];

export function readGroupStatsQuery(raw: Raw, nowMs: number): GroupStatsQuery {
  refuseUnknownParameters(raw, GROUP_STATS_PARAMS);
  const groupIds = all(raw.groupId);
  for (const id of groupIds) if (!isGroupId(id)) throw invalidArgument(`Invalid group id: "${id}".`, 'groupId');
  const duration = one(raw, 'timedCountDuration');
  let timedCountDurationMs: number | undefined;
  if (duration !== undefined) {
    timedCountDurationMs = parseGoogleDuration(duration);
    if (!timedCountDurationMs || timedCountDurationMs > MAX_TIMED_COUNT_MS) throw invalidArgument(`Invalid value at 'timed_count_duration' (type.googleapis.com/google.protobuf.Duration), "${duration}"`, 'timedCountDuration');
  }
  const alignmentTime = one(raw, 'alignmentTime');
  let alignmentTimeMs: number | undefined;
  if (alignmentTime !== undefined) {
    const instant = parseRfc3339(alignmentTime);
    if (!instant) throw invalidArgument(`Invalid value at 'alignment_time' (type.googleapis.com/google.protobuf.Timestamp), "${alignmentTime}"`, 'alignmentTime');
    alignmentTimeMs = instantToMs(instant);
  }
  return {
    groupIds,
    serviceFilter: readServiceFilter(raw),
    timeRange: readTimeRange(raw, nowMs),
    timedCountDurationMs,
    alignment: readEnum(raw, 'alignment', 'TimedCountAlignment', ALIGNMENTS, 'ALIGNMENT_EQUAL_AT_END', 'ERROR_COUNT_ALIGNMENT_UNSPECIFIED'),
    alignmentTimeMs,
    order: readEnum(raw, 'order', 'ErrorGroupOrder', ORDERS, 'COUNT_DESC', 'GROUP_ORDER_UNSPECIFIED'),
    pageSize: readPageSize(one(raw, 'pageSize'), 20, 1000),
    pageToken: one(raw, 'pageToken') || undefined,
  };
}

export function readEventsQuery(raw: Raw, nowMs: number): EventsQuery {
  refuseUnknownParameters(raw, EVENTS_PARAMS);
  const groupId = one(raw, 'groupId');
  if (!groupId) throw invalidArgument('groupId must be set.', 'groupId', 'required');
  if (!isGroupId(groupId)) throw invalidArgument(`Invalid group id: "${groupId}".`, 'groupId');
  return {
    groupId,
    serviceFilter: readServiceFilter(raw),
    timeRange: readTimeRange(raw, nowMs),
    pageSize: readPageSize(one(raw, 'pageSize'), 20, 1000),
    pageToken: one(raw, 'pageToken') || undefined,
  };
}

function readServiceFilter(raw: Raw): ServiceFilter {
  const filter: ServiceFilter = {};
  const service = one(raw, 'serviceFilter.service');
  const version = one(raw, 'serviceFilter.version');
  const resourceType = one(raw, 'serviceFilter.resourceType');
  if (service) filter.service = service;
  if (version) filter.version = version;
  if (resourceType) filter.resourceType = resourceType;
  return filter;
}

function readTimeRange(raw: Raw, nowMs: number): TimeRange {
  const period = readEnum(raw, 'timeRange.period', 'QueryTimeRange.Period', Object.keys(PERIODS), DEFAULT_PERIOD, 'PERIOD_UNSPECIFIED');
  return { period, beginMs: nowMs - PERIODS[period], endMs: nowMs };
}

function readEnum<T extends string>(raw: Raw, name: string, type: string, values: readonly T[], fallback: T, unspecified: string): T {
  const value = one(raw, name);
  if (value === undefined || value === '' || value === unspecified) return fallback;
  if (!(values as readonly string[]).includes(value)) {
    throw invalidArgument(`Invalid value at '${protoPath(name)}' (${ENUM_PREFIX}${type}), "${value}"`, name);
  }
  return value as T;
}

const protoPath = (name: string) => name.split('.').map((p) => p.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)).join('.');

/** A single-valued parameter; a repeated one is a 400. */
function one(raw: Raw, name: string): string | undefined {
  const value = raw[name];
  if (Array.isArray(value)) throw invalidArgument(`Parameter ${name} may appear only once.`, name);
  if (typeof value !== 'string') return undefined;
  if (value.includes('\u0000')) throw invalidArgument(`Invalid value for ${name}.`, name);
  return value;
}

const MAX_GROUP_IDS = 1000;

function all(value: unknown): string[] {
  const list = Array.isArray(value) ? value.map(String) : typeof value === 'string' && value !== '' ? [value] : [];
  if (list.length > MAX_GROUP_IDS) throw invalidArgument(`At most ${MAX_GROUP_IDS} groupId values may be given.`, 'groupId');
  return list;
}

export interface Bucket {
  startMs: number;
  endMs: number;
  count: number;
}

/**
 * How `timedCounts` cuts a range into consecutive buckets of `durationMs`. ALIGNMENT_EQUAL_AT_END aligns them on the
 * end of the range (the first may be shorter): bucket k holds the times t with k*D < end - t <= (k+1)*D, i.e. the
 * half-open [end - (k+1)*D, end - k*D).
 * ALIGNMENT_EQUAL_ROUNDED aligns them on `alignmentMs` (the epoch, i.e. midnight UTC, by default; the first and last
 * may be shorter); its origin is moved back to or before the range start so that every index is non-negative.
 */
export interface BucketPlan {
  originMs: number;
  durationMs: number;
  fromEnd: boolean;
}

export function bucketPlan(range: TimeRange, durationMs: number, alignment: Alignment, alignmentMs = 0): BucketPlan {
  if (alignment === 'ALIGNMENT_EQUAL_AT_END') return { originMs: range.endMs, durationMs, fromEnd: true };
  const originMs = alignmentMs - Math.ceil((alignmentMs - range.beginMs) / durationMs) * durationMs;
  return { originMs, durationMs, fromEnd: false };
}

// Times are whole milliseconds: counted back from the end, the excluded end is one millisecond past the last time a
// bucket holds. The store's SQL computes the same index.
export const bucketIndex = (plan: BucketPlan, t: number): number =>
  Math.floor((plan.fromEnd ? plan.originMs - 1 - t : t - plan.originMs) / plan.durationMs);

/** The time an event is bucketed by: its own, or for one at the range's end, the last millisecond its last bucket holds. */
export const bucketTime = (range: TimeRange, t: number): number => Math.min(t, range.endMs - 1);

/** Turns per-index counts into buckets clipped to the range, oldest first; only buckets with events appear. */
export function bucketsOf(plan: BucketPlan, range: TimeRange, counts: Array<{ index: number; count: number }>): Bucket[] {
  const D = plan.durationMs;
  return counts
    .filter((c) => c.count > 0)
    .map((c) => {
      const start = plan.fromEnd ? plan.originMs - (c.index + 1) * D : plan.originMs + c.index * D;
      return { startMs: Math.max(start, range.beginMs), endMs: Math.min(start + D, range.endMs), count: c.count };
    })
    .sort((a, b) => a.startMs - b.startMs);
}

/** Counts event times (within the range) into the buckets of a plan. */
export function timedCounts(times: number[], range: TimeRange, durationMs: number, alignment: Alignment, alignmentMs = 0): Bucket[] {
  const plan = bucketPlan(range, durationMs, alignment, alignmentMs);
  const counts = new Map<number, number>();
  for (const t of times) {
    if (t < range.beginMs || t > range.endMs) continue;
    const k = bucketIndex(plan, bucketTime(range, t));
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return bucketsOf(plan, range, [...counts].map(([index, count]) => ({ index, count })));
}
