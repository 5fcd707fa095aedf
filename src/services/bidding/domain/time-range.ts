// Turns a filter set's time range into an interval of whole hours, and hours into the rows of a time series.
// Dates are calendar days in the reporting time zone (Pacific time, as the real API, unless configured otherwise).
import { zoneOffsetMs } from '../../../core/time.ts';
import type { CalendarDate, TimeRange } from './filter-set.ts';
import { HOUR_MS, hourOf } from './rollup.ts';

/** [start, end) in epoch milliseconds, both on hour boundaries. */
export interface Interval {
  start: number;
  end: number;
}

/** The instant a calendar day starts in `zone` (day may overflow: Date.UTC normalises it). */
export function dayStart(date: CalendarDate, zone: string): number {
  const wall = Date.UTC(date.year, date.month - 1, date.day);
  // Resolve wall-clock midnight to an instant; re-check the offset at the guess for days that change DST.
  let guess = wall - zoneOffsetMs(zone, wall);
  guess = wall - zoneOffsetMs(zone, guess);
  return guess;
}

/** The calendar date in `zone` at instant `ms`. */
export function localDate(ms: number, zone: string): CalendarDate {
  const d = new Date(ms + zoneOffsetMs(zone, ms));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

const addDays = (d: CalendarDate, n: number): CalendarDate => ({ ...d, day: d.day + n });

/**
 * The hours a time range covers at `now`. Date ranges cover whole days; a realtime range starts at the beginning of
 * the hour holding its start timestamp (aggregates are hourly) and runs to the end of the current hour.
 */
export function resolveRange(range: TimeRange, now: number, zone: string): Interval {
  if (range.kind === 'realtime') return { start: hourOf(range.startMs), end: Math.max(hourOf(range.startMs), hourOf(now) + HOUR_MS) };
  if (range.kind === 'absolute') return { start: dayStart(range.start, zone), end: dayStart(addDays(range.end, 1), zone) };
  const today = localDate(now, zone);
  const last = addDays(today, -range.offsetDays);
  return { start: dayStart(addDays(last, 1 - range.durationDays), zone), end: dayStart(addDays(last, 1), zone) };
}

/** The local day holding instant `ms`, as an interval. */
export function dayOf(ms: number, zone: string): Interval {
  const date = localDate(ms, zone);
  return { start: dayStart(date, zone), end: dayStart(addDays(date, 1), zone) };
}

/**
 * The real API serves the 30 days up to today. A new filter set's range must lie in them: a relative range by
 * offsetDays + durationDays <= 30, an absolute one from 30 days before today to today; a realtime range may not start
 * in the future. Answers what is wrong, or undefined. A stored filter set stays readable whatever its range.
 */
export const WINDOW_DAYS = 30;

const dateKey = (d: CalendarDate) => d.year * 10_000 + d.month * 100 + d.day;
const normalised = (d: CalendarDate): CalendarDate => {
  const at = new Date(Date.UTC(d.year, d.month - 1, d.day));
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() };
};
const show = (d: CalendarDate) => `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

export function creationWindowProblem(range: TimeRange, now: number, zone: string): string | undefined {
  if (range.kind === 'relative') {
    if (range.durationDays + range.offsetDays <= WINDOW_DAYS) return undefined;
    return `relativeDateRange must lie within the last ${WINDOW_DAYS} days: offsetDays + durationDays must be at most ${WINDOW_DAYS}.`;
  }
  if (range.kind === 'realtime') {
    return range.startMs > now ? 'realtimeTimeRange.startTimestamp must not be in the future.' : undefined;
  }
  const today = localDate(now, zone);
  const earliest = normalised(addDays(today, -WINDOW_DAYS));
  if (dateKey(range.start) < dateKey(earliest) || dateKey(range.end) > dateKey(today)) {
    return `absoluteDateRange must lie within the ${WINDOW_DAYS} days up to today: from ${show(earliest)} to ${show(today)}.`;
  }
  return undefined;
}

/** An absolute range fails once today is more than 30 days after its start date, as the real API documents. */
export function absoluteRangeTooOld(range: TimeRange, now: number, zone: string): boolean {
  if (range.kind !== 'absolute') return false;
  return dateKey(normalised(addDays(range.start, WINDOW_DAYS))) < dateKey(localDate(now, zone));
}
