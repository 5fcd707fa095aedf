// The error-reporting browser's data: groups of every project with their event counts and a daily count series (for
// a sparkline), and one group's latest events with their stack traces.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Runtime } from '../../core/runtime.ts';
import { adminError } from '../errors.ts';

const DAY_MS = 86_400_000;
/** Days covered by each group's sparkline, ending today (domain time). */
const SPARK_DAYS = 14;

const EventsQuery = Type.Object(
  { project: Type.String({ minLength: 1 }), group: Type.String({ minLength: 1 }), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })) },
  { additionalProperties: false },
);

export function errorReportingRoutes(app: FastifyInstance, rt: Runtime): void {
  const db = () => {
    if (!rt.services.has('errorreporting')) throw adminError(404, 'service errorreporting is not running');
    return rt.db.kysely;
  };

  app.get('/console/api/errorreporting/groups', async () => {
    const groups = await db()
      .selectFrom('errorreporting_groups')
      .select(['project_id', 'group_id', 'service', 'exception_type', 'resolution_status', 'created_at'])
      .orderBy('updated_at', 'desc')
      .limit(500)
      .execute();
    const today = Math.floor(rt.clock.now() / DAY_MS);
    const since = (today - SPARK_DAYS + 1) * DAY_MS;
    const counts = await db()
      .selectFrom('errorreporting_events')
      .select(['project_id', 'group_id', (eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.max('event_time').as('last')])
      .groupBy(['project_id', 'group_id'])
      .execute();
    const recent = await db().selectFrom('errorreporting_events').select(['project_id', 'group_id', 'event_time']).where('event_time', '>=', since).execute();
    const key = (p: unknown, g: unknown) => `${p}/${g}`;
    const countOf = new Map(counts.map((c) => [key(c.project_id, c.group_id), c]));
    const series = new Map<string, number[]>();
    for (const e of recent) {
      const k = key(e.project_id, e.group_id);
      if (!series.has(k)) series.set(k, new Array(SPARK_DAYS).fill(0));
      const day = Math.floor(Number(e.event_time) / DAY_MS) - (today - SPARK_DAYS + 1);
      if (day >= 0 && day < SPARK_DAYS) series.get(k)![day] += 1;
    }
    return {
      days: SPARK_DAYS,
      groups: groups.map((g) => {
        const k = key(g.project_id, g.group_id);
        const c = countOf.get(k);
        return {
          project: g.project_id,
          groupId: g.group_id,
          service: g.service,
          exceptionType: g.exception_type,
          resolutionStatus: g.resolution_status,
          count: Number(c?.n ?? 0),
          lastSeen: c?.last != null ? new Date(Number(c.last)).toISOString() : null,
          daily: series.get(k) ?? new Array(SPARK_DAYS).fill(0),
        };
      }),
    };
  });

  app.get('/console/api/errorreporting/events', { schema: { querystring: EventsQuery } }, async (req) => {
    const { project, group, limit = 50 } = req.query as Static<typeof EventsQuery>;
    const rows = await db()
      .selectFrom('errorreporting_events')
      .select(['event_time_text', 'service', 'version', 'user_name', 'message', 'context'])
      .where('project_id', '=', project)
      .where('group_id', '=', group)
      .orderBy('event_time', 'desc')
      .limit(limit)
      .execute();
    return {
      events: rows.map((e) => ({
        eventTime: e.event_time_text,
        service: e.service,
        version: e.version,
        user: e.user_name,
        // The message of a reported exception is its stack trace.
        message: e.message,
        context: typeof e.context === 'string' ? JSON.parse(e.context) : e.context,
      })),
    };
  });
}
