const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+-]\d{2}:\d{2})?)?$/;

/**
 * Reads an RFC 3339 date-time as Drive's `q` accepts it: the zone defaults to UTC, seconds and the time may be
 * left out, fractions beyond milliseconds are truncated. Returns null for anything else (including 2026-02-30).
 */
export function parseQueryDate(text: string): number | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.slice(4, 6));
    if (zh > 23 || zm > 59) return null;
    offsetMinutes = sign * (zh * 60 + zm);
  }
  // setUTCFullYear, unlike Date.UTC, keeps years 0-99 as written.
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  instant.setUTCHours(hour, minute, second, millis);
  return instant.getTime() - offsetMinutes * 60_000;
}

/** The canonical form printed back into a query: UTC with milliseconds. */
export function formatQueryDate(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
