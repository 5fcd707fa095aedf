// EventDateTime (`start`, `end`, `originalStartTime`): `date` for all-day, or `dateTime` with an offset or a
// `timeZone`. Stored normalised: `{date}` or `{dateTime: <UTC RFC 3339>, timeZone?}`.
import { parseRfc3339 } from '../../../core/time.ts';
import { badRequest, calendarError, requiredField } from './errors.ts';
import { DAY_MS, dayStart, formatInZone, fromWall, knownZone } from './zone.ts';

export interface When {
  date?: string;
  dateTime?: string;
  timeZone?: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?$/;

export function validDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === text;
}

/** Validates and normalises one EventDateTime; `field` is `start`, `end` or `originalStartTime`. */
export function parseWhen(raw: unknown, field: string): When {
  const what = field === 'end' ? 'end' : 'start';
  if (raw === undefined || raw === null) throw requiredField(`Missing ${what} time.`, field);
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badRequest(`Invalid ${what} time.`, field);
  const r = raw as Record<string, unknown>;
  for (const key of Object.keys(r)) if (!['date', 'dateTime', 'timeZone'].includes(key)) throw badRequest(`Unknown field ${field}.${key}.`, `${field}.${key}`);
  const date = r.date ?? undefined;
  const dateTime = r.dateTime ?? undefined;
  const timeZone = r.timeZone ?? undefined;
  if (timeZone !== undefined && (typeof timeZone !== 'string' || !knownZone(timeZone))) {
    throw badRequest(`Invalid time zone definition for ${what} time.`, `${field}.timeZone`);
  }
  if (date !== undefined && dateTime !== undefined) throw badRequest(`Invalid ${what} time: set either date or dateTime.`, field);
  if (date !== undefined) {
    if (typeof date !== 'string' || !validDate(date)) throw badRequest(`Invalid ${what} time.`, `${field}.date`);
    return timeZone === undefined ? { date } : { date, timeZone: timeZone as string };
  }
  if (dateTime === undefined) throw requiredField(`Missing ${what} time.`, field);
  if (typeof dateTime !== 'string') throw badRequest(`Invalid ${what} time.`, `${field}.dateTime`);
  const instant = parseRfc3339(dateTime);
  let ms: number;
  if (instant) ms = instant.seconds * 1000;
  else {
    const m = LOCAL.exec(dateTime);
    if (!m || !validDate(m[1]) || Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4]) > 59) throw badRequest(`Invalid ${what} time.`, `${field}.dateTime`);
    if (timeZone === undefined) {
      throw calendarError(400, 'invalid', `Missing time zone definition for ${what} time.`, `${field}.timeZone`);
    }
    ms = fromWall(timeZone as string, Date.parse(`${dateTime.slice(0, 19)}Z`));
  }
  const out: When = { dateTime: new Date(ms).toISOString().replace('.000Z', 'Z') };
  if (timeZone !== undefined) out.timeZone = timeZone as string;
  return out;
}

export const isAllDay = (w: When): boolean => w.date !== undefined;

/** The instant an EventDateTime starts; an all-day date starts at midnight in `calendarZone`. */
export function whenMs(w: When, calendarZone: string): number {
  if (w.date !== undefined) return dayStart(w.date, w.timeZone && knownZone(w.timeZone) ? w.timeZone : calendarZone);
  return Date.parse(w.dateTime!);
}

/** Checks a start/end pair: same kind, end after start (timed events may last zero minutes). */
export function checkSpan(start: When, end: When, calendarZone: string): void {
  if (isAllDay(start) !== isAllDay(end)) throw badRequest('Start and end times must either both be date or both be dateTime.', 'end');
  const s = whenMs(start, calendarZone);
  const e = whenMs(end, calendarZone);
  if (isAllDay(start) ? Date.parse(end.date!) <= Date.parse(start.date!) : e < s) {
    throw calendarError(400, 'timeRangeEmpty', 'The specified time range is empty.', 'end');
  }
}

/**
 * The wire form: `dateTime` written with the offset of the zone the request named, else the event's own zone, else
 * the calendar's (`zone`).
 */
export function renderWhen(w: When, zone: string, requested?: string): When {
  if (w.date !== undefined) return { ...w };
  const z = requested ?? w.timeZone ?? zone;
  return w.timeZone !== undefined ? { dateTime: formatInZone(Date.parse(w.dateTime!), z), timeZone: w.timeZone } : { dateTime: formatInZone(Date.parse(w.dateTime!), z) };
}

/** Instance-id suffix of an original start: `YYYYMMDDTHHMMSSZ` (UTC) or `YYYYMMDD` for all-day series. */
export function instanceStamp(originalStart: When): string {
  if (originalStart.date !== undefined) return originalStart.date.replaceAll('-', '');
  return new Date(Date.parse(originalStart.dateTime!)).toISOString().slice(0, 19).replace(/[-:]/g, '') + 'Z';
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
