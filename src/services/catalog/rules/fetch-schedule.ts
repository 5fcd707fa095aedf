// When a datafeed's schedule fetches next: daily at hour:minuteOfHour in its time zone, or weekly on `weekday`, or
// monthly on `dayOfMonth` (a day the month lacks fetches on its last day).
import { isTimeZone, nextDailyAt, zoneOffsetMs } from '../../../core/time.ts';
import { badRequest, inRange, oneOf } from '../wire/rules.ts';

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

export interface FetchSchedule {
  fetchUrl?: string;
  hour?: number;
  minuteOfHour?: number;
  timeZone?: string;
  weekday?: string;
  dayOfMonth?: number;
  paused?: boolean;
}

/** A whole number within bounds: the fields are int32 in the API, and a day such as 1.5 would never come round. */
function wholeInRange(value: number | undefined, min: number, max: number, path: string): void {
  inRange(value, min, max, path);
  if (value !== undefined && !Number.isInteger(Number(value))) throw badRequest(`Invalid value for ${path}: ${JSON.stringify(value)}; a whole number was expected.`);
}

export function checkSchedule(s: FetchSchedule, path: string): void {
  wholeInRange(s.hour, 0, 23, `${path}.hour`);
  wholeInRange(s.minuteOfHour, 0, 59, `${path}.minuteOfHour`);
  wholeInRange(s.dayOfMonth, 1, 31, `${path}.dayOfMonth`);
  if (s.weekday !== undefined) oneOf(s.weekday, WEEKDAYS, `${path}.weekday`);
  if (s.weekday !== undefined && s.dayOfMonth !== undefined) throw badRequest(`${path}: weekday and dayOfMonth exclude each other.`);
  if (s.timeZone !== undefined && !isTimeZone(s.timeZone)) throw badRequest(`${path}.timeZone is not a known time zone: ${JSON.stringify(s.timeZone)}.`);
}

/** The zone of a schedule that names none: Content API documents UTC as the default. */
export const DEFAULT_FETCH_TIME_ZONE = 'UTC';

/** The first scheduled fetch strictly after `afterMs`. */
export function nextFetchAt(s: FetchSchedule, afterMs: number): number {
  const zone = s.timeZone ?? DEFAULT_FETCH_TIME_ZONE;
  const hhmm = `${String(s.hour ?? 0).padStart(2, '0')}:${String(s.minuteOfHour ?? 0).padStart(2, '0')}`;
  let at = nextDailyAt(afterMs, hhmm, zone);
  for (let i = 0; i < 400; i++) {
    const local = new Date(at + zoneOffsetMs(zone, at));
    const lastDay = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 0)).getUTCDate();
    const weekdayOk = s.weekday === undefined || WEEKDAYS[local.getUTCDay()] === s.weekday;
    const dayOk = s.dayOfMonth === undefined || local.getUTCDate() === Math.min(s.dayOfMonth, lastDay);
    if (weekdayOk && dayOk) return at;
    at = nextDailyAt(at, hhmm, zone);
  }
  throw new Error('no fetch slot within 400 days');
}
