// Instances of a series: the generated event of one occurrence, and a cache of parsed series so repeated reads of the
// same version do not parse its rules again.
import { boundedCache, type CacheBudget } from '../../../core/cache.ts';
import { deepFreeze } from '../../../core/deep-freeze.ts';
import type { EventDoc } from './event.ts';
import { Series, type Occurrence } from './recurrence.ts';
import { instanceStamp, whenMs } from './times.ts';

/** The id of a series' instance: the series id and the instance's original start. */
export const instanceIdOf = (seriesId: string, originalStart: Occurrence['start']): string => `${seriesId}_${instanceStamp(originalStart)}`;

export function instanceDoc(master: EventDoc, occ: Occurrence): EventDoc {
  const { recurrence: _r, ...rest } = master;
  return {
    ...rest,
    id: instanceIdOf(master.id, occ.start),
    recurringEventId: master.id,
    originalStartTime: occ.start,
    start: occ.start,
    end: occ.end,
  };
}

/** The default budget of parsed series kept (`services.calendar.seriesCacheBudget`). */
export const DEFAULT_SERIES_CACHE_BUDGET: CacheBudget = { entries: 20_000, bytes: 64 * 1024 * 1024 };

// Each entry is a fresh wrapper when re-weighed, so the cache measures the series again.
interface Kept {
  series: Series;
}
let cache = makeCache(DEFAULT_SERIES_CACHE_BUDGET);

function makeCache(budget: CacheBudget) {
  return boundedCache<string, Kept>(budget, (kept) => kept.series.approximateBytes());
}

/**
 * Parsed documents of series masters, keyed by their stored JSON: every list of a window parses the same hundreds of
 * masters (a tenth of a month list's time, and much of its garbage). Keyed by content, a changed master is parsed
 * afresh and a reset database can never meet a stale one; frozen, because every request shares them.
 */
let masterDocs = makeMasterDocCache(DEFAULT_SERIES_CACHE_BUDGET);

function makeMasterDocCache(budget: CacheBudget) {
  // A parsed document takes about twice its JSON text (which the key already counts).
  return boundedCache<string, EventDoc>(budget, (_doc, json) => json.length * 4);
}

/** Sets the budget of the series cache and of the masters' documents (emptying both); the service calls it at start. */
export function configureSeriesCache(budget: CacheBudget): void {
  cache = makeCache(budget);
  masterDocs = makeMasterDocCache(budget);
}

/** The master stored as `json`, parsed once and shared (frozen: copy what you change). */
export function masterDocOf(json: string): EventDoc {
  let doc = masterDocs.get(json);
  if (!doc) masterDocs.set(json, (doc = deepFreeze(JSON.parse(json) as EventDoc)));
  return doc;
}

/**
 * The parsed series of a stored master, keyed by what expansion depends on (rules, start, end, zone), so an edit
 * parses afresh and a reset database reusing an id can never meet a stale series.
 */
export function seriesOf(calendarId: string, master: EventDoc, calendarZone: string): Series {
  const key = `${calendarId}\u0000${master.id}\u0000${JSON.stringify([master.recurrence, master.start, master.end])}\u0000${calendarZone}`;
  const kept = cache.get(key);
  if (kept) return kept.series;
  const series = new Series(master.recurrence ?? [], master.start, master.end, calendarZone);
  const owner = cache;
  // A series grows as it remembers windows: weigh it again, unless it was evicted (or the cache replaced) meanwhile.
  series.onResize = () => {
    if (owner === cache && cache.peek(key)?.series === series) cache.set(key, { series });
  };
  cache.set(key, { series });
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
