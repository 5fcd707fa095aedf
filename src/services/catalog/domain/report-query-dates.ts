// Calendar dates as day numbers (days since 1970-01-01, UTC) and the relative date ranges of the query language.
import { ReportQueryError } from './report-query-lexer.ts';

const DAY_MS = 24 * 3600_000;

/** Inclusive range of calendar dates, as YYYY-MM-DD. */
export interface DateWindow {
  start: string;
  end: string;
}

/** The day number of a strict YYYY-MM-DD date, or undefined for anything else (including 2026-02-30). */
export function dayNumber(date: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const day = ms / DAY_MS;
  return dayString(day) === date ? day : undefined;
}

export const dayString = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** 0 = Monday ... 6 = Sunday. */
const weekdayFromMonday = (day: number): number => (new Date(day * DAY_MS).getUTCDay() + 6) % 7;

/** The Monday on or before `day`. */
export const mondayOf = (day: number): number => day - weekdayFromMonday(day);

function monthBounds(day: number, monthsBack: number): [number, number] {
  const d = new Date(day * DAY_MS);
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsBack, 1) / DAY_MS;
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - monthsBack + 1, 1) / DAY_MS;
  return [first, next - 1];
}

/** The relative ranges `DURING` accepts; the LAST_N_DAYS ranges end yesterday. */
const FUNCTIONS: Record<string, (today: number) => [number, number]> = {
  TODAY: (t) => [t, t],
  YESTERDAY: (t) => [t - 1, t - 1],
  LAST_7_DAYS: (t) => [t - 7, t - 1],
  LAST_14_DAYS: (t) => [t - 14, t - 1],
  LAST_30_DAYS: (t) => [t - 30, t - 1],
  THIS_MONTH: (t) => monthBounds(t, 0),
  LAST_MONTH: (t) => monthBounds(t, 1),
  THIS_WEEK_MON_TODAY: (t) => [mondayOf(t), t],
  THIS_WEEK_SUN_TODAY: (t) => [mondayOf(t + 1) - 1, t],
  LAST_WEEK_MON_SUN: (t) => [mondayOf(t) - 7, mondayOf(t) - 1],
  LAST_WEEK_SUN_SAT: (t) => [mondayOf(t + 1) - 8, mondayOf(t + 1) - 2],
  LAST_BUSINESS_WEEK: (t) => [mondayOf(t) - 7, mondayOf(t) - 3],
};

export const DATE_FUNCTIONS: readonly string[] = Object.keys(FUNCTIONS);

export function resolveDateFunction(name: string, today: number, position: number): [number, number] {
  const fn = FUNCTIONS[name.toUpperCase()];
  if (!fn) throw new ReportQueryError(`Unknown date range '${name}' (expected one of ${DATE_FUNCTIONS.join(', ')})`, position);
  return fn(today);
}
