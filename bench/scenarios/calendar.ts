// Calendar: event get, event insert, and a month of singleEvents=true (ordered by start) from a calendar holding
// 50,000 events of which 2,500 are recurring series (as the conditions below fall, every series is daily and
// open-ended: some 75,000 instances in the month).
import { newEventId } from '../../src/services/calendar/domain/ids.ts';
import type { EventDoc } from '../../src/services/calendar/domain/event.ts';
import { serviceOf } from '../../src/services/calendar/wiring.ts';
import type { BenchEnv, BenchScenario, RequestFactory } from '../scenario.ts';

const TOKEN = 'bench-dev-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };
const TOTAL = 50_000;
const RECURRING = 2_500;
const FROM = Date.parse('2026-01-01T00:00:00Z');
const SPAN_DAYS = 730;
const HOUR = 3_600_000;

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

async function newCalendar(env: BenchEnv, summary: string): Promise<string> {
  const res = await fetch(`${env.url('calendar')}/calendar/v3/calendars`, { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ summary, timeZone: 'Europe/Berlin' }) });
  if (!res.ok) throw new Error(`calendar bench: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** Writes the events straight through the service's write path, 500 per unit of work (HTTP would take minutes). */
async function seed(env: BenchEnv, calendarId: string): Promise<void> {
  const ctx = env.rt.services.get('calendar')!.ctx;
  const s = serviceOf(ctx);
  const calendar = (await s.store.calendar(ctx.kysely, calendarId))!;
  const person = { email: calendarId, displayName: 'Bench' };
  const now = new Date().toISOString();
  for (let start = 0; start < TOTAL; start += 500) {
    await ctx.db.write(async (tx) => {
      for (let n = start; n < Math.min(TOTAL, start + 500); n++) {
        const day = n % SPAN_DAYS;
        const startMs = FROM + day * 24 * HOUR + (8 + (n % 10)) * HOUR;
        const doc: EventDoc = {
          id: newEventId(),
          status: 'confirmed',
          created: now,
          updated: now,
          creator: person,
          organizer: person,
          start: { dateTime: iso(startMs) },
          end: { dateTime: iso(startMs + HOUR) },
          iCalUID: `bench-${n}@twinstack.local`,
          sequence: 0,
          reminders: { useDefault: true },
          eventType: 'default',
          summary: `Event ${n}`,
        };
        if (n % (TOTAL / RECURRING) === 0) {
          doc.start.timeZone = 'Europe/Berlin';
          doc.end.timeZone = 'Europe/Berlin';
          const daily = n % 10 === 0;
          doc.recurrence = [`RRULE:FREQ=${daily ? 'DAILY' : 'WEEKLY'}${n % 4 === 0 ? '' : `;COUNT=${daily ? 30 : 52}`}`];
        }
        await s.events.save(tx, calendar, doc);
      }
    });
  }
}

/** Each insert a new one-hour event, spread over 10,000 hours (runs in the load generator). */
export const inserts: RequestFactory = () => {
  let n = 0;
  return (req) => {
    const start = FROM + (n++ % 10_000) * HOUR;
    return { ...req, body: JSON.stringify({ summary: `Insert ${n}`, start: { dateTime: iso(start) }, end: { dateTime: iso(start + HOUR) } }) };
  };
};

export const scenarios: BenchScenario[] = [
  {
    name: 'calendar.event.get',
    service: 'calendar',
    async setup(env) {
      const cal = await newCalendar(env, 'bench-get');
      const res = await fetch(`${env.url('calendar')}/calendar/v3/calendars/${encodeURIComponent(cal)}/events`, {
        method: 'POST',
        headers: JSON_AUTH,
        body: JSON.stringify({ summary: 'Read me', start: { dateTime: '2026-06-01T09:00:00Z' }, end: { dateTime: '2026-06-01T10:00:00Z' }, attendees: [{ email: 'a@example.test' }] }),
      });
      const id = ((await res.json()) as { id: string }).id;
      return { requests: [{ path: `/calendar/v3/calendars/${encodeURIComponent(cal)}/events/${id}` }], headers: AUTH };
    },
  },
  {
    name: 'calendar.event.insert',
    service: 'calendar',
    async setup(env) {
      const cal = await newCalendar(env, 'bench-insert');
      return { requests: [{ method: 'POST', path: `/calendar/v3/calendars/${encodeURIComponent(cal)}/events`, headers: JSON_AUTH, computedBy: { module: import.meta.url, factory: 'inserts' } }] };
    },
  },
  {
    name: 'calendar.month.singleEvents (50k events)',
    service: 'calendar',
    async setup(env) {
      const cal = await newCalendar(env, 'bench-month');
      await seed(env, cal);
      const q = new URLSearchParams({ singleEvents: 'true', orderBy: 'startTime', timeMin: '2026-06-01T00:00:00+02:00', timeMax: '2026-07-01T00:00:00+02:00', maxResults: '250' });
      return { requests: [{ path: `/calendar/v3/calendars/${encodeURIComponent(cal)}/events?${q}` }], headers: AUTH };
    },
  },
];
