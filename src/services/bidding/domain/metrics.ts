// Bid metrics rows from hourly sums: one row for the whole range or one per hour or day, all-zero rows left out.
import { formatInstant, instantFromMs } from '../../../core/time.ts';
import { HOUR_MS } from './rollup.ts';
import { dayOf, type Interval } from './time-range.ts';
import { METRICS, type Granularity, type MetricName } from './vocabulary.ts';

/** The six counters of one hour, in METRICS order. */
export type Counters = number[];

/** Proto3 JSON MetricValue: int64 as strings; exact counts have variance 0; a zero metric is `{}`. */
export type MetricValue = { value?: string; variance?: string };

export type BidMetricsRow = Partial<Record<MetricName, MetricValue>> & {
  rowDimensions?: { timeInterval: { startTime: string; endTime: string } };
};

export function metricValue(n: number): MetricValue {
  return n === 0 ? {} : { value: String(n), variance: '0' };
}

const rfc3339 = (ms: number) => formatInstant(instantFromMs(ms));

/** One hour's values for one breakdown key (a status id, a creative...; 0 when there is no breakdown). */
export interface HourCell<K extends string | number> {
  hour: number;
  key: K;
  values: number[];
}

/** The values of one row: its time interval (with a granularity) and breakdown key. */
export interface Bucket<K extends string | number> {
  timeInterval?: { startTime: string; endTime: string };
  key: K;
  values: number[];
}

const compareKeys = (a: string | number, b: string | number) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

/**
 * Folds hourly cells over `range` into buckets: without granularity one per key for the whole range (no interval);
 * with one, per interval (clipped to the range) and key. Buckets come in time order, then key order; buckets whose
 * values are all zero are left out.
 */
export function foldByTime<K extends string | number>(cells: Iterable<HourCell<K>>, width: number, range: Interval, granularity: Granularity | undefined, zone: string): Bucket<K>[] {
  const buckets = new Map<string, { interval: Interval; key: K; values: number[] }>();
  // Time-zone lookups are slow: consecutive hours mostly fall in the day found last.
  let day: Interval | undefined;
  for (const { hour, key, values } of cells) {
    if (hour < range.start || hour >= range.end) continue;
    let interval = range;
    if (granularity === 'HOURLY') interval = { start: hour, end: hour + HOUR_MS };
    else if (granularity === 'DAILY') {
      if (!day || hour < day.start || hour >= day.end) day = dayOf(hour, zone);
      interval = { start: Math.max(day.start, range.start), end: Math.min(day.end, range.end) };
    }
    const id = `${interval.start}\u0000${key}`;
    let b = buckets.get(id);
    if (!b) buckets.set(id, (b = { interval, key, values: new Array<number>(width).fill(0) }));
    values.forEach((n, i) => (b.values[i] += n));
  }
  return [...buckets.values()]
    .filter((b) => b.values.some((n) => n !== 0))
    .sort((a, b) => a.interval.start - b.interval.start || compareKeys(a.key, b.key))
    .map((b) => ({ key: b.key, values: b.values, ...(granularity === undefined ? {} : { timeInterval: { startTime: rfc3339(b.interval.start), endTime: rfc3339(b.interval.end) } }) }));
}

/** rowDimensions of a bucket: present when the filter set has a time-series granularity. */
export const rowDimensionsOf = (b: Bucket<string | number>) => (b.timeInterval ? { rowDimensions: { timeInterval: b.timeInterval } } : {});

/**
 * Folds hourly counters (hour start -> counters) over `range` into bid metrics rows. Without granularity there is one
 * row and no rowDimensions; with one, each interval is clipped to the range and rows come in time order.
 */
export function buildRows(hours: Map<number, Counters>, range: Interval, granularity: Granularity | undefined, zone: string): BidMetricsRow[] {
  const cells = [...hours].map(([hour, values]) => ({ hour, key: 0, values }));
  return foldByTime(cells, METRICS.length, range, granularity, zone).map((b) => {
    const row: BidMetricsRow = rowDimensionsOf(b);
    METRICS.forEach((name, i) => (row[name] = metricValue(b.values[i])));
    return row;
  });
}
