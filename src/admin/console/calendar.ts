// The calendar week view's data: every calendar and the events that fall in one week (UTC, Monday first), with
// recurring series expanded into their instances and modified or cancelled instances applied.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Runtime } from '../../core/runtime.ts';
import { Series } from '../../services/calendar/domain/recurrence.ts';
import { adminError } from '../errors.ts';

const DAY_MS = 86_400_000;
const Week = Type.Object({ start: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })) }, { additionalProperties: false });

interface Placed {
  calendarId: string;
  eventId: string;
  summary: string;
  start: string;
  end: string;
  allDay: boolean;
  recurring: boolean;
}

const parse = (doc: unknown) => (typeof doc === 'string' ? JSON.parse(doc) : doc) as Record<string, any>;

/** Monday 00:00 UTC of the week holding `ms`. */
export function weekStart(ms: number): number {
  const day = Math.floor(ms / DAY_MS);
  // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
  return (day - ((day + 3) % 7)) * DAY_MS;
}

export function calendarRoutes(app: FastifyInstance, rt: Runtime): void {
  app.get('/console/api/calendar/week', { schema: { querystring: Week } }, async (req) => {
    if (!rt.services.has('calendar')) throw adminError(404, 'service calendar is not running');
    const db = rt.db.kysely;
    const { start } = req.query as Static<typeof Week>;
    const from = weekStart(start ? Date.parse(`${start}T00:00:00Z`) : rt.clock.now());
    const to = from + 7 * DAY_MS;
    const calendars = (await db.selectFrom('calendar_calendars').select(['id', 'owner_id', 'doc']).orderBy('owner_id').orderBy('id').execute()).map((c) => {
      const doc = parse(c.doc);
      return { id: c.id as string, owner: c.owner_id as string, summary: (doc.summary as string) ?? c.id, timeZone: (doc.timeZone as string) ?? 'UTC' };
    });
    const zoneOf = new Map(calendars.map((c) => [c.id, c.timeZone]));
    const rows = await db
      .selectFrom('calendar_events')
      .select(['calendar_id', 'event_id', 'status', 'recurring', 'recurring_event_id', 'original_start_ms', 'start_ms', 'end_ms', 'doc'])
      .where('start_ms', '<', to)
      .where('end_ms', '>', from)
      .execute();
    // Exceptions of series are looked up whatever their own time: a moved instance may have left the week.
    const exceptions = await db.selectFrom('calendar_events').select(['calendar_id', 'recurring_event_id', 'original_start_ms']).where('recurring_event_id', 'is not', null).execute();
    const replaced = new Set(exceptions.map((e) => `${e.calendar_id}/${e.recurring_event_id}/${Number(e.original_start_ms)}`));
    const events: Placed[] = [];
    for (const r of rows) {
      if (r.status === 'cancelled') continue;
      const doc = parse(r.doc);
      const base = { calendarId: r.calendar_id, eventId: r.event_id, summary: doc.summary ?? '(no title)', allDay: !!doc.start?.date };
      if (!Number(r.recurring)) {
        events.push({ ...base, start: new Date(Number(r.start_ms)).toISOString(), end: new Date(Number(r.end_ms)).toISOString(), recurring: r.recurring_event_id != null });
        continue;
      }
      const zone = zoneOf.get(r.calendar_id) ?? 'UTC';
      for (const o of new Series(doc.recurrence ?? [], doc.start, doc.end, zone).between(from, to, zone, false)) {
        if (replaced.has(`${r.calendar_id}/${r.event_id}/${o.startMs}`)) continue;
        events.push({ ...base, start: new Date(o.startMs).toISOString(), end: new Date(o.endMs).toISOString(), recurring: true });
      }
    }
    events.sort((a, b) => a.start.localeCompare(b.start));
    return { weekStart: new Date(from).toISOString().slice(0, 10), calendars, events };
  });
}
