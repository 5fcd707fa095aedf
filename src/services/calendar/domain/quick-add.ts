// quickAdd: free text parsed by a natural-language date parser, read in the calendar's time zone. The date phrase is
// taken out of the text and the rest becomes the summary.
import * as chrono from 'chrono-node';
import { badRequest } from './errors.ts';
import { addDays } from './times.ts';
import { fromWall, toWall, wallDate } from './zone.ts';

export interface QuickEvent {
  summary: string;
  start: { date?: string; dateTime?: string; timeZone?: string };
  end: { date?: string; dateTime?: string; timeZone?: string };
}

const HOUR_MS = 3_600_000;

export function parseQuickAdd(text: string, nowMs: number, zone: string): QuickEvent {
  if (text.trim() === '') throw badRequest('Missing text.', 'text', 'required');
  // The parser works in UTC fields: give it "now" as the calendar's wall clock and read its fields back as wall time.
  const wallNow = toWall(zone, nowMs);
  const results = chrono.parse(text, { instant: new Date(wallNow), timezone: 0 }, { forwardDate: true });
  const found = results[0];
  if (!found) {
    const today = wallDate(wallNow);
    return { summary: text.trim(), start: { date: today }, end: { date: addDays(today, 1) } };
  }
  // The words that introduced the date phrase ("on", "at", ...) go with it.
  const before = text.slice(0, found.index).replace(/\s+(?:on|at|from|in|by)\s*$/i, ' ');
  const summary = (before + text.slice(found.index + found.text.length)).replace(/\s+/g, ' ').trim() || text.trim();
  const wallOf = (c: chrono.ParsedComponents) =>
    Date.UTC(c.get('year')!, c.get('month')! - 1, c.get('day')!, c.get('hour') ?? 0, c.get('minute') ?? 0, c.get('second') ?? 0);
  const timed = found.start.isCertain('hour');
  if (!timed) {
    const startDate = wallDate(wallOf(found.start));
    const endDate = found.end ? addDays(wallDate(wallOf(found.end)), 1) : addDays(startDate, 1);
    return { summary, start: { date: startDate }, end: { date: endDate > startDate ? endDate : addDays(startDate, 1) } };
  }
  const startMs = fromWall(zone, wallOf(found.start));
  let endMs = found.end ? fromWall(zone, wallOf(found.end)) : startMs + HOUR_MS;
  if (endMs <= startMs) endMs = startMs + HOUR_MS;
  const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
  return { summary, start: { dateTime: iso(startMs), timeZone: zone }, end: { dateTime: iso(endMs), timeZone: zone } };
}
