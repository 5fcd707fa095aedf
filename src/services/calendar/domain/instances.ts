// Instances of a series: the generated event of one occurrence, and a cache of parsed series so repeated reads of the
// same version do not parse its rules again.
import type { EventDoc } from './event.ts';
import { Series, type Occurrence } from './recurrence.ts';
import { instanceStamp, whenMs } from './times.ts';

export function instanceDoc(master: EventDoc, occ: Occurrence): EventDoc {
  const { recurrence: _r, ...rest } = master;
  return {
    ...rest,
    id: `${master.id}_${instanceStamp(occ.start)}`,
    recurringEventId: master.id,
    originalStartTime: occ.start,
    start: occ.start,
    end: occ.end,
  };
}

const CACHE_MAX = 20_000;
const cache = new Map<string, Series>();

/**
 * The parsed series of a stored master, keyed by what expansion depends on (rules, start, end, zone), so an edit
 * parses afresh and a reset database reusing an id can never meet a stale series.
 */
export function seriesOf(calendarId: string, master: EventDoc, calendarZone: string): Series {
  const key = `${calendarId}\u0000${master.id}\u0000${JSON.stringify([master.recurrence, master.start, master.end])}\u0000${calendarZone}`;
  let series = cache.get(key);
  if (!series) {
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    series = new Series(master.recurrence ?? [], master.start, master.end, calendarZone);
    cache.set(key, series);
  }
  return series;
}

/** Span columns of a stored event: its own times, or first start and last end of a series. */
export function spanOf(doc: EventDoc, calendarZone: string, series?: Series): { startMs: number; endMs: number; recurring: boolean } {
  const startMs = whenMs(doc.start, calendarZone);
  if (doc.recurrence && doc.recurrence.length > 0) {
    const s = series ?? new Series(doc.recurrence, doc.start, doc.end, calendarZone);
    return { startMs, endMs: s.lastEnd(calendarZone), recurring: true };
  }
  return { startMs, endMs: whenMs(doc.end, calendarZone), recurring: false };
}

/** Key of an original start as stored in `original_start_ms` (all-day: the date at UTC midnight). */
export const originalKey = (w: EventDoc['start']): number => (w.date !== undefined ? Date.parse(`${w.date}T00:00:00Z`) : Date.parse(w.dateTime!));

/** The occurrence an instance id names, if the series has it. */
export function findOccurrence(series: Series, ref: { originalStartMs?: number; originalDate?: string }, calendarZone: string, dayStart: (d: string, z: string) => number): Occurrence | undefined {
  const ms = ref.originalStartMs ?? dayStart(ref.originalDate!, calendarZone);
  return series.between(ms - 1, ms + 1, calendarZone, false).find((o) => o.startMs === ms && (ref.originalDate === undefined || o.start.date === ref.originalDate));
}
