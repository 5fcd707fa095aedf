// Recurring series: RRULE / EXRULE / RDATE / EXDATE lines (RFC 5545, no DTSTART) expanded with the `rrule` library in
// the event's wall-clock time (its start.timeZone), each occurrence then converted to an instant with the zone rules,
// so instances keep their local time across DST changes. Open-ended rules are only ever expanded inside a window.
import rrule from 'rrule';
import { badRequest } from './errors.ts';
import { addDays, type When } from './times.ts';
import { DAY_MS, fromWall, knownZone, toWall, wallDate } from './zone.ts';

const { RRule, RRuleSet } = rrule;
type RRuleOptions = NonNullable<ConstructorParameters<typeof RRule>[0]>;

/** Stored as the end of an open-ended series. */
export const OPEN_END = 8_640_000_000_000_000;
/** Occurrences counted before a bounded series is treated as open-ended (its end is not worth computing). */
const FINITE_SCAN = 20_000;
/** Windows whose expansion a series keeps (a calendar view reads the same month again and again). */
const WINDOWS_KEPT = 4;
/** Estimates for a series' memory: the parsed rule set, and one occurrence (two When objects and four numbers). */
const SERIES_BASE_BYTES = 2_048;
const OCCURRENCE_BYTES = 320;

const RULE_KEYS = new Set(['FREQ', 'UNTIL', 'COUNT', 'INTERVAL', 'BYSECOND', 'BYMINUTE', 'BYHOUR', 'BYDAY', 'BYMONTHDAY', 'BYYEARDAY', 'BYWEEKNO', 'BYMONTH', 'BYSETPOS', 'WKST']);
/**
 * Calendar repeats an event by the day at the finest (it does not run HOURLY, MINUTELY or SECONDLY rules). Within a
 * day, BYHOUR × BYMINUTE × BYSECOND may place at most MAX_PER_DAY occurrences: without a bound, a rule of a few
 * hundred characters made 86,400 a day, and expanding one request's window held every service for minutes.
 */
const FREQS = new Set(['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY']);
export const MAX_PER_DAY = 24;
const WITHIN_DAY = ['BYHOUR', 'BYMINUTE', 'BYSECOND'];
const DAY = '(?:MO|TU|WE|TH|FR|SA|SU)';
const INT_LIST = /^[+-]?\d{1,3}(?:,[+-]?\d{1,3})*$/;
const RULE_VALUES: Record<string, RegExp> = {
  UNTIL: /^\d{8}(?:T\d{6}Z?)?$/,
  COUNT: /^\d{1,6}$/,
  INTERVAL: /^\d{1,4}$/,
  BYDAY: new RegExp(`^[+-]?\\d{0,2}${DAY}(?:,[+-]?\\d{0,2}${DAY})*$`),
  WKST: new RegExp(`^${DAY}$`),
};
export const MAX_LINES = 100;
export const MAX_LINE = 2048;

const invalidRule = (line: string) => badRequest(`Invalid recurrence rule: ${line.slice(0, 200)}`, 'recurrence');

/** Validates the recurrence lines of an event (shape only; expansion needs the start). */
export function checkRecurrence(raw: unknown): string[] {
  if (!Array.isArray(raw)) throw badRequest('Invalid value for recurrence: an array of strings is required.', 'recurrence');
  if (raw.length > MAX_LINES) throw badRequest(`At most ${MAX_LINES} recurrence lines are allowed.`, 'recurrence');
  const lines: string[] = [];
  for (const line of raw) {
    if (typeof line !== 'string' || line.length > MAX_LINE) throw badRequest('Invalid value for recurrence: an array of strings is required.', 'recurrence');
    const m = /^(RRULE|EXRULE|RDATE|EXDATE)([;:])(.*)$/s.exec(line.trim());
    if (!m) throw invalidRule(line);
    if (m[1] === 'RRULE' || m[1] === 'EXRULE') {
      if (m[2] !== ':') throw invalidRule(line);
      checkRuleText(m[3], line);
    } else parseDateLine(line.trim(), line);
    lines.push(line.trim());
  }
  if (lines.length > 0 && !lines.some((l) => l.startsWith('RRULE') || l.startsWith('RDATE'))) throw invalidRule(lines[0]);
  return lines;
}

function checkRuleText(text: string, line: string): void {
  const values = new Map<string, string>();
  for (const part of text.split(';')) {
    const [key, value, ...rest] = part.split('=');
    if (rest.length > 0 || !value || !RULE_KEYS.has(key) || values.has(key)) throw invalidRule(line);
    values.set(key, value);
    const pattern = RULE_VALUES[key];
    if (key === 'FREQ' ? !FREQS.has(value) : pattern ? !pattern.test(value) : !INT_LIST.test(value)) throw invalidRule(line);
  }
  if (!values.has('FREQ') || (values.has('COUNT') && values.has('UNTIL'))) throw invalidRule(line);
  const perDay = WITHIN_DAY.reduce((n, key) => n * new Set(values.get(key)?.split(',') ?? ['']).size, 1);
  if (perDay > MAX_PER_DAY) throw invalidRule(line);
  try {
    RRule.parseString(text);
  } catch {
    throw invalidRule(line);
  }
}

interface DateValue {
  wall: number;
  /** How to read it: UTC, a named zone, floating (the event's zone) or a bare date. */
  form: 'utc' | 'zone' | 'floating' | 'date';
  zone?: string;
}

function parseDateLine(text: string, line: string): { kind: 'RDATE' | 'EXDATE'; values: DateValue[] } {
  const colon = text.indexOf(':');
  if (colon < 0) throw invalidRule(line);
  const [kind, ...params] = text.slice(0, colon).split(';');
  let zone: string | undefined;
  let dateOnly = false;
  for (const p of params) {
    const [k, v] = p.split('=');
    if (k === 'TZID' && v) zone = v;
    else if (k === 'VALUE' && (v === 'DATE' || v === 'DATE-TIME')) dateOnly = v === 'DATE';
    else throw invalidRule(line);
  }
  if (zone !== undefined && !isZone(zone)) throw invalidRule(line);
  const values = text
    .slice(colon + 1)
    .split(',')
    .map((v): DateValue => {
      const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(v);
      if (!m || (dateOnly && m[4] !== undefined) || (zone !== undefined && m[4] === undefined)) throw invalidRule(line);
      const date = `${m[1]}-${m[2]}-${m[3]}`;
      const wall = Date.parse(`${date}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}Z`);
      if (Number.isNaN(wall) || wallDate(wall) !== date) throw invalidRule(line);
      if (m[4] === undefined) return { wall, form: 'date' };
      if (m[7]) return { wall, form: 'utc' };
      return zone ? { wall, form: 'zone', zone } : { wall, form: 'floating' };
    });
  return { kind: kind as 'RDATE' | 'EXDATE', values };
}

const isZone = knownZone;

/** A remembered window, expanded from its start as far as it has been read. */
interface Expansion {
  /** Every occurrence of the window that starts before `doneTo`, in start order. */
  occurrences: Occurrence[];
  doneTo: number;
  /** The rule set this window expands with (shifted towards the window when it lies far from the series' start). */
  set: InstanceType<typeof RRuleSet>;
  /** How far the next piece reaches past `doneTo` (doubles at each piece). */
  step: number;
}

/** The first piece of a window expanded lazily; each further piece is twice as long. */
const FIRST_STEP_MS = 2 * DAY_MS;
/**
 * Occurrences one expansion returns at most. New rules make at most MAX_PER_DAY a day; a denser series stored before
 * that rule existed still costs a request no more than this.
 */
export const MAX_EXPANDED = 100_000;

const FIXED_PERIODS = new Map<number, number>([
  [RRule.WEEKLY, 7 * DAY_MS],
  [RRule.DAILY, DAY_MS],
  [RRule.HOURLY, 3_600_000],
  [RRule.MINUTELY, 60_000],
  [RRule.SECONDLY, 1_000],
]);

/** The fixed period of a rule (interval included), or 0 for the calendar-based frequencies (monthly, yearly). */
function periodOf(o: Partial<RRuleOptions>): number {
  const unit = FIXED_PERIODS.get(o.freq!) ?? 0;
  return unit * (o.interval ?? 1);
}

/** Stops an rrule expansion after MAX_EXPANDED occurrences. */
const capped = (_: Date, i: number) => i < MAX_EXPANDED;

export interface Occurrence {
  /** The instance's original start (also its start unless an exception moved it). */
  start: When;
  end: When;
  startMs: number;
  endMs: number;
}

/** One series, parsed once: expands occurrences inside a window, or the first ones after a point. */
export class Series {
  readonly #set: InstanceType<typeof RRuleSet>;
  readonly #rules: Array<Partial<RRuleOptions>> = [];
  readonly #exrules: Array<Partial<RRuleOptions>> = [];
  readonly #rdates: number[] = [];
  /** A series is immutable (a new version is a new Series): its expansions of recent windows can be reused. */
  readonly #windows = new Map<string, Expansion>();
  /** Told when a remembered window changes what this series holds in memory (its cache re-weighs it). */
  onResize?: () => void;
  readonly #exdates: number[] = [];
  readonly #allDay: boolean;
  readonly #zone: string;
  readonly #durationMs: number;
  readonly #durationDays: number;
  readonly #endZone?: string;
  readonly #openEnded: boolean;
  readonly #startWall: number;

  /**
   * `start`/`end` are the first instance; `zone` is start.timeZone for timed series and the calendar's zone for all-day
   * ones (used only to place all-day dates on the time line).
   */
  constructor(lines: string[], start: When, end: When, zone: string) {
    this.#allDay = start.date !== undefined;
    this.#zone = start.timeZone ?? zone;
    this.#endZone = end.timeZone;
    const startWall = this.#allDay ? Date.parse(`${start.date}T00:00:00Z`) : toWall(this.#zone, Date.parse(start.dateTime!));
    this.#durationDays = this.#allDay ? Math.round((Date.parse(`${end.date}T00:00:00Z`) - startWall) / DAY_MS) : 0;
    this.#durationMs = this.#allDay ? 0 : Date.parse(end.dateTime!) - Date.parse(start.dateTime!);
    let open = false;
    for (const line of lines) {
      if (line.startsWith('RRULE:') || line.startsWith('EXRULE:')) {
        const text = line.slice(line.indexOf(':') + 1);
        const options: Partial<RRuleOptions> = RRule.parseString(text);
        const untilRaw = /UNTIL=([0-9TZ]+)/.exec(text)?.[1];
        if (options.until && untilRaw?.endsWith('Z') && !this.#allDay) options.until = new Date(toWall(this.#zone, options.until.getTime()));
        if (options.until && untilRaw && !untilRaw.includes('T') && !this.#allDay) {
          // A date UNTIL on a timed series includes that whole day.
          options.until = new Date(options.until.getTime() + DAY_MS - 1);
        }
        const rule = { ...options, dtstart: new Date(startWall), tzid: null };
        if (line.startsWith('RRULE:')) {
          this.#rules.push(rule);
          if (options.count === undefined && options.until === undefined) open = true;
        } else this.#exrules.push(rule);
      } else {
        const parsed = parseDateLine(line, line);
        for (const v of parsed.values) (parsed.kind === 'RDATE' ? this.#rdates : this.#exdates).push(this.#valueWall(v, startWall));
      }
    }
    // The first instance is always the event's own start (RFC 5545: DTSTART is an occurrence) unless excluded.
    this.#rdates.push(startWall);
    this.#set = this.#build();
    this.#openEnded = open;
    this.#startWall = startWall;
  }

  /**
   * The rule set; with `fromWall`, rules whose occurrences repeat with a fixed period (WEEKLY down to SECONDLY, without
   * COUNT or BYSETPOS) start from a whole number of periods before it, so expansion skips the history before a window.
   */
  #build(fromWall?: number): InstanceType<typeof RRuleSet> {
    const set = new RRuleSet();
    const shifted = (o: Partial<RRuleOptions>) => {
      const step = periodOf(o);
      if (fromWall === undefined || !step || o.count != null || o.bysetpos != null) return new RRule(o);
      const skip = Math.floor((fromWall - o.dtstart!.getTime()) / step) - 1;
      return new RRule(skip > 0 ? { ...o, dtstart: new Date(o.dtstart!.getTime() + skip * step) } : o);
    };
    for (const o of this.#rules) set.rrule(shifted(o));
    for (const o of this.#exrules) set.exrule(shifted(o));
    for (const d of this.#rdates) set.rdate(new Date(d));
    for (const d of this.#exdates) set.exdate(new Date(d));
    return set;
  }

  #valueWall(v: DateValue, startWall: number): number {
    if (this.#allDay) return Date.parse(`${wallDate(v.wall)}T00:00:00Z`);
    switch (v.form) {
      case 'utc':
        return toWall(this.#zone, v.wall);
      case 'zone':
        return toWall(this.#zone, fromWall(v.zone!, v.wall));
      case 'floating':
        return v.wall;
      case 'date':
        return v.wall + (((startWall % DAY_MS) + DAY_MS) % DAY_MS);
    }
  }

  #occurrence(wall: Date, calendarZone: string): Occurrence {
    const w = wall.getTime();
    if (this.#allDay) {
      const date = wallDate(w);
      const endDate = addDays(date, this.#durationDays);
      return {
        start: { date },
        end: { date: endDate },
        startMs: fromWall(calendarZone, w),
        endMs: fromWall(calendarZone, Date.parse(`${endDate}T00:00:00Z`)),
      };
    }
    const startMs = fromWall(this.#zone, w);
    const endMs = startMs + this.#durationMs;
    const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
    return {
      start: { dateTime: iso(startMs), timeZone: this.#zone },
      end: { dateTime: iso(endMs), timeZone: this.#endZone ?? this.#zone },
      startMs,
      endMs,
    };
  }

  /** Roughly what this series holds in memory: its rules and the occurrences of the windows it remembers. */
  approximateBytes(): number {
    let occurrences = 0;
    for (const w of this.#windows.values()) occurrences += w.occurrences.length;
    return SERIES_BASE_BYTES + (this.#rules.length + this.#exrules.length) * 512 + (this.#rdates.length + this.#exdates.length) * 16 + occurrences * OCCURRENCE_BYTES;
  }

  /** Occurrences with start < toMs and end > fromMs, in start order (the last few windows are remembered). */
  between(fromMs: number, toMs: number, calendarZone: string, remember = true): Occurrence[] {
    if (!remember) return this.#expand(this.#setFor(fromMs), fromMs, toMs, calendarZone, -Infinity);
    const w = this.#window(fromMs, toMs, calendarZone);
    if (w.doneTo < toMs) this.#extend(w, fromMs, toMs, calendarZone, toMs);
    return w.occurrences;
  }

  /**
   * The occurrences of the same window one at a time, in start order: the window is expanded piece by piece only as
   * far as it is read (a page that needs a series' first instances does not expand its whole month), and what was
   * expanded is remembered with the window.
   */
  cursor(fromMs: number, toMs: number, calendarZone: string): () => Occurrence | undefined {
    const w = this.#window(fromMs, toMs, calendarZone);
    let next = 0;
    return () => {
      while (next >= w.occurrences.length && w.doneTo < toMs) {
        const base = w.doneTo === -Infinity ? Math.max(fromMs, this.#startWall - 2 * DAY_MS) : w.doneTo;
        this.#extend(w, fromMs, toMs, calendarZone, Math.min(toMs, base + w.step));
        w.step *= 2;
      }
      return w.occurrences[next++];
    };
  }

  #window(fromMs: number, toMs: number, calendarZone: string): Expansion {
    const key = `${fromMs}|${toMs}|${calendarZone}`;
    let w = this.#windows.get(key);
    if (!w) {
      w = { occurrences: [], doneTo: -Infinity, set: this.#setFor(fromMs), step: FIRST_STEP_MS };
      if (this.#windows.size >= WINDOWS_KEPT) this.#windows.delete(this.#windows.keys().next().value!);
      this.#windows.set(key, w);
    }
    return w;
  }

  /** Adds the window's occurrences that start in [doneTo, untilMs). */
  #extend(w: Expansion, fromMs: number, toMs: number, calendarZone: string, untilMs: number): void {
    const found = this.#expand(w.set, fromMs, untilMs, calendarZone, w.doneTo);
    for (const o of found) w.occurrences.push(o);
    w.doneTo = untilMs;
    if (found.length > 0) this.onResize?.();
  }

  /** The rule set for a window: one far from the start skips the periods before it. */
  #setFor(fromMs: number): InstanceType<typeof RRuleSet> {
    const lo = Math.max(this.#startWall - 2 * DAY_MS, fromMs - this.#slack());
    return lo - this.#startWall > 60 * DAY_MS ? this.#build(lo) : this.#set;
  }

  /** How far wall times and instants of an occurrence may stand from a window's bounds (zone offsets, duration). */
  #slack(): number {
    return 2 * DAY_MS + this.#durationMs + this.#durationDays * DAY_MS;
  }

  /** Occurrences with startMin <= start < toMs and end > fromMs, in start order. */
  #expand(set: InstanceType<typeof RRuleSet>, fromMs: number, toMs: number, calendarZone: string, startMin: number): Occurrence[] {
    // Search a slightly wider wall window (zone offsets, duration), then filter on real instants.
    const lo = new Date(Math.max(this.#startWall - 2 * DAY_MS, fromMs - this.#slack(), startMin - 2 * DAY_MS));
    const hi = new Date(Math.min(8.64e15, toMs + 2 * DAY_MS));
    if (hi.getTime() < lo.getTime()) return [];
    return set
      .between(lo, hi, true, capped)
      .map((d) => this.#occurrence(d, calendarZone))
      .filter((o) => o.startMs < toMs && o.endMs > fromMs && o.startMs >= startMin);
  }

  /** The first `limit` occurrences whose start is after `afterMs` (exclusive), in start order. */
  after(afterMs: number, limit: number, calendarZone: string): Occurrence[] {
    const out: Occurrence[] = [];
    let cursor = new Date(Math.max(this.#startWall - 2 * DAY_MS, afterMs - 2 * DAY_MS));
    // Searched from a rule set moved next to the cursor: the periods before it are not walked through again.
    const span = 400 * DAY_MS;
    const set = cursor.getTime() - this.#startWall > 60 * DAY_MS ? this.#build(cursor.getTime()) : this.#set;
    while (out.length < limit) {
      const batch = set.between(cursor, new Date(cursor.getTime() + span), true, capped);
      if (batch.length === 0) {
        const next = set.after(new Date(cursor.getTime() + span), true);
        if (!next) break;
        cursor = new Date(next.getTime() - 1);
        continue;
      }
      for (const d of batch) {
        const o = this.#occurrence(d, calendarZone);
        if (o.startMs > afterMs && out.length < limit && !out.some((x) => x.startMs === o.startMs)) out.push(o);
      }
      cursor = new Date(batch[batch.length - 1].getTime() + 1);
    }
    return out;
  }

  /** The end of the last occurrence, or OPEN_END for a series without an end. */
  lastEnd(calendarZone: string): number {
    if (this.#openEnded) return OPEN_END;
    const all = this.#set.all((_, i) => i < FINITE_SCAN);
    if (all.length >= FINITE_SCAN) return OPEN_END;
    if (all.length === 0) return this.#occurrence(new Date(0), calendarZone).endMs;
    return Math.max(...all.slice(-50).map((d) => this.#occurrence(d, calendarZone).endMs));
  }

  /** Whether `originalStart` is one of the occurrences (an instance id names a real instance). */
  has(originalStartMs: number, calendarZone: string): boolean {
    return this.between(originalStartMs - 1, originalStartMs + 1, calendarZone, false).some((o) => o.startMs === originalStartMs);
  }
}
