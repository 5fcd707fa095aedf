// Time formats: RFC 3339 parsing with any offset and nanosecond precision, and calendar arithmetic in a time zone.

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** An instant with nanosecond precision: whole seconds since the epoch and nanoseconds within the second. */
export interface Instant {
  seconds: number;
  nanos: number;
}

/** Parses an RFC 3339 timestamp; undefined when it is not one (including impossible dates such as Feb 30). */
export function parseRfc3339(text: string): Instant | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, z, sign, oh, om] = m;
  const year = Number(y), month = Number(mo), day = Number(d);
  const hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offsetMinutes = 0;
  if (!z) {
    const ohn = Number(oh), omn = Number(om);
    if (ohn > 23 || omn > 59) return undefined;
    offsetMinutes = (sign === '-' ? -1 : 1) * (ohn * 60 + omn);
  }
  const ms = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59));
  const nanos = frac ? Number(frac.padEnd(9, '0')) : 0;
  return { seconds: Math.floor(ms / 1000) - offsetMinutes * 60 + (second === 60 ? 1 : 0), nanos };
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Formats an instant as RFC 3339 in UTC with 0, 3, 6 or 9 fractional digits (the fewest that keep every digit). */
export function formatInstant(instant: Instant): string {
  const base = new Date(instant.seconds * 1000).toISOString().slice(0, 19);
  if (instant.nanos === 0) return `${base}Z`;
  const nanos = String(instant.nanos).padStart(9, '0');
  const digits = nanos.endsWith('000000') ? 3 : nanos.endsWith('000') ? 6 : 9;
  return `${base}.${nanos.slice(0, digits)}Z`;
}

export const instantFromMs = (ms: number): Instant => ({
  seconds: Math.floor(ms / 1000),
  nanos: (((ms % 1000) + 1000) % 1000) * 1_000_000,
});

export const instantToMs = (i: Instant): number => i.seconds * 1000 + Math.floor(i.nanos / 1_000_000);

/** ISO 8601 with milliseconds in UTC, the usual wire form of a stored millisecond time. */
export const isoMs = (ms: number): string => new Date(ms).toISOString();

/** Offset of `timeZone` from UTC at instant `ms`, in milliseconds (positive east of Greenwich). */
// Building an Intl.DateTimeFormat costs far more than formatting with one: keep one per zone.
const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    // Zone names are matched case-insensitively, so callers could name one zone many ways: bound the cache.
    if (zoneFormats.size >= 1000) zoneFormats.clear();
    zoneFormats.set(timeZone, format);
  }
  return format;
}

export function zoneOffsetMs(timeZone: string, ms: number): number {
  const parts = zoneFormat(timeZone).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** True when `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The next instant strictly after `afterMs` at which the wall clock in `timeZone` reads hh:mm. */
export function nextDailyAt(afterMs: number, hhmm: string, timeZone = 'UTC'): number {
  const [hh, mm] = hhmm.split(':').map(Number);
  const local = new Date(afterMs + zoneOffsetMs(timeZone, afterMs));
  for (let dayShift = 0; dayShift <= 2; dayShift++) {
    const wall = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + dayShift, hh, mm);
    // Resolve the wall time to an instant; re-check the offset at the guess to handle DST changes.
    let guess = wall - zoneOffsetMs(timeZone, wall);
    guess = wall - zoneOffsetMs(timeZone, guess);
    if (guess > afterMs) return guess;
  }
  throw new Error('unreachable: no daily slot within two days');
}

/** Parses a duration like "3600s" or "1.5s" (google-duration) to milliseconds; undefined when malformed. */
export function parseGoogleDuration(text: string): number | undefined {
  const m = /^(\d+)(?:\.(\d{1,9}))?s$/.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * 1000 + (m[2] ? Math.round(Number(`0.${m[2]}`) * 1000) : 0);
}
