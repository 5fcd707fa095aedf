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

/**
 * Folds hourly counters (hour start -> counters) over `range` into rows. Without granularity there is one row and no
 * rowDimensions; with one, each interval is clipped to the range and rows come in time order.
 */
export function buildRows(hours: Map<number, Counters>, range: Interval, granularity: Granularity | undefined, zone: string): BidMetricsRow[] {
  const buckets = new Map<number, { interval: Interval; counters: Counters }>();
  const add = (key: number, interval: Interval, counters: Counters) => {
    let b = buckets.get(key);
    if (!b) {
      b = { interval, counters: METRICS.map(() => 0) };
      buckets.set(key, b);
    }
    counters.forEach((n, i) => (b.counters[i] += n));
  };
  // Time-zone lookups are slow: consecutive hours mostly fall in the day found last.
  let day: Interval | undefined;
  for (const [hour, counters] of hours) {
    if (hour < range.start || hour >= range.end) continue;
    if (granularity === undefined) add(0, range, counters);
    else if (granularity === 'HOURLY') add(hour, { start: hour, end: hour + HOUR_MS }, counters);
    else {
      if (!day || hour < day.start || hour >= day.end) day = dayOf(hour, zone);
      add(day.start, { start: Math.max(day.start, range.start), end: Math.min(day.end, range.end) }, counters);
    }
  }
  const rows: BidMetricsRow[] = [];
  for (const key of [...buckets.keys()].sort((a, b) => a - b)) {
    const { interval, counters } = buckets.get(key)!;
    if (counters.every((n) => n === 0)) continue;
    const row: BidMetricsRow = {};
    if (granularity !== undefined) row.rowDimensions = { timeInterval: { startTime: rfc3339(interval.start), endTime: rfc3339(interval.end) } };
    METRICS.forEach((name, i) => (row[name] = metricValue(counters[i])));
    rows.push(row);
  }
  return rows;
}
