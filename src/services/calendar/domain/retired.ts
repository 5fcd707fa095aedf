// What a singleEvents sync must report when an event's shape (recurrence, start, end) changes: the instances a client
// read under the earlier shape that the current one no longer has (other instance ids, fewer occurrences, a series
// that became a single event or the reverse) are gone, so they are answered as cancelled.
import { stableJson, type EventDoc } from './event.ts';
import { instanceDoc, instanceIdOf, seriesOf } from './instances.ts';
import { whenMs, type When } from './times.ts';

/** What the instance ids of an event depend on. */
export interface EventShape {
  recurrence?: string[];
  start: When;
  end: When;
}

export const shapeOf = (doc: EventDoc): EventShape => (doc.recurrence ? { recurrence: doc.recurrence, start: doc.start, end: doc.end } : { start: doc.start, end: doc.end });

/** A change a singleEvents reader must be told about beyond the new instances: a series before or after it, reshaped. */
export function reshapesInstances(previous: EventDoc, next: EventDoc): boolean {
  if (!previous.recurrence && !next.recurrence) return false;
  return stableJson(shapeOf(previous)) !== stableJson(shapeOf(next));
}

/**
 * The events of `earlier` (its instances up to `toMs`, or the single event) whose ids are not in `kept` (the ids the
 * current form gives, and the series' exceptions), as cancelled documents in start order.
 */
export function retiredInstances(current: EventDoc, earlier: EventShape, calendarId: string, calendarZone: string, toMs: number, kept: Set<string>): Array<{ doc: EventDoc; startMs: number }> {
  const { recurrence: _r, ...single } = current;
  const former: EventDoc = { ...single, ...earlier };
  if (!earlier.recurrence) {
    if (kept.has(current.id)) return [];
    return [{ doc: { ...former, status: 'cancelled' }, startMs: whenMs(earlier.start, calendarZone) }];
  }
  const series = seriesOf(calendarId, former, calendarZone);
  const fromMs = whenMs(earlier.start, calendarZone) - 1;
  return series
    .between(fromMs, Math.max(fromMs + 1, toMs), calendarZone, false)
    .filter((occ) => !kept.has(instanceIdOf(current.id, occ.start)))
    .map((occ) => ({ doc: { ...instanceDoc(former, occ), status: 'cancelled' as const }, startMs: occ.startMs }));
}
