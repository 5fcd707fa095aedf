// Wall-clock time in an IANA zone <-> instants, built on core's zoneOffsetMs. A "wall" value is the wall-clock reading
// encoded as if it were UTC milliseconds (what recurrence expansion works in).
import { isTimeZone, zoneOffsetMs } from '../../../core/time.ts';

const DAY_MS = 86_400_000;
// Zone transitions fall on quarter hours, so an offset is constant within a quarter-hour bucket: memoise per bucket.
const BUCKET_MS = 900_000;
const offsets = new Map<string, number>();
const zones = new Map<string, boolean>();

export function offsetAt(timeZone: string, ms: number): number {
  if (timeZone === 'UTC') return 0;
  const key = `${timeZone}|${Math.floor(ms / BUCKET_MS)}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    if (offsets.size > 200_000) offsets.clear();
    offset = zoneOffsetMs(timeZone, ms);
    offsets.set(key, offset);
  }
  return offset;
}

export function knownZone(timeZone: string): boolean {
  let known = zones.get(timeZone);
  if (known === undefined) {
    // Intl accepts some aliases that are not IANA names (e.g. lower case); demand the canonical spelling's shape.
    known = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(timeZone) && isTimeZone(timeZone);
    zones.set(timeZone, known);
  }
  return known;
}

export const toWall = (timeZone: string, ms: number): number => ms + offsetAt(timeZone, ms);

/**
 * The instant a wall-clock reading names in `timeZone` (RFC 5545 rules): an ambiguous reading (clocks going back)
 * is its first occurrence; a reading inside a gap (clocks going forward) is taken with the offset before the gap,
 * which lands after the gap.
 */
export function fromWall(timeZone: string, wall: number): number {
  const before = offsetAt(timeZone, wall - DAY_MS);
  const after = offsetAt(timeZone, wall + DAY_MS);
  // No change of offset within a day either side: the common case.
  if (before === after) return wall - before;
  const early = wall - before;
  const late = wall - after;
  const earlyValid = offsetAt(timeZone, early) === before;
  const lateValid = offsetAt(timeZone, late) === after;
  if (earlyValid && lateValid) return Math.min(early, late);
  if (earlyValid) return early;
  if (lateValid) return late;
  return early;
}

/** `YYYY-MM-DDTHH:MM:SS±hh:mm` for an instant as read in `timeZone`. */
export function formatInZone(ms: number, timeZone: string): string {
  const offset = offsetAt(timeZone, ms);
  const local = new Date(ms + offset).toISOString().slice(0, 19);
  if (offset === 0) return `${local}Z`;
  const abs = Math.abs(offset) / 60_000;
  const sign = offset < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Midnight starting `date` (YYYY-MM-DD) in `timeZone`. */
export const dayStart = (date: string, timeZone: string): number => fromWall(timeZone, Date.parse(`${date}T00:00:00Z`));

/** The date (YYYY-MM-DD) of a wall value. */
export const wallDate = (wall: number): string => new Date(wall).toISOString().slice(0, 10);

export { DAY_MS };
