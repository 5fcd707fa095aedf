// events.*: the event resource's operations on a calendar.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { documented } from '../../../core/http/documented.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { authenticate } from '../access.ts';
import { badRequest, notFound, requiredField } from '../domain/errors.ts';
import { boolParam, readListQuery, readWriteQuery, strParam, zoneParam, type Query } from '../domain/params.ts';
import { parseQuickAdd } from '../domain/quick-add.ts';
import { renderEvent } from '../domain/render.ts';
import type { Saved, WriteParams } from '../events.ts';
import type { CalendarService } from '../wiring.ts';
import { CalendarIdParams, EventIdParams } from './schemas/common.ts';
import { Event } from './schemas/event.ts';
import { EventGetQuery, EventListQuery, EventWriteQuery, InstancesQuery, MoveQuery, QuickAddQuery } from './schemas/event-query.ts';
import { WatchChannelBody } from '../../../core/google/watch-channel-schema.ts';
import { eventsTopic } from '../watches.ts';

type P = { calendarId: string; eventId: string };
const p = (req: FastifyRequest) => req.params as P;
const q = (req: FastifyRequest) => req.query as Query;
const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
const BASE = '/calendar/v3/calendars/:calendarId/events';

export function eventRoutes(app: FastifyInstance, ctx: ServiceContext, s: CalendarService): void {
  const params = (req: FastifyRequest): WriteParams & { maxAttendees?: number } => ({ ...readWriteQuery(q(req)), ifMatch: header(req, 'if-match') });
  const answer = (saved: Saved, maxAttendees?: number) => renderEvent(saved.doc, saved.etag, s.reader.view(saved.calendar, undefined, maxAttendees));

  app.get(BASE, documented({ params: CalendarIdParams, querystring: EventListQuery }), async (req) => {
    const caller = await authenticate(req, ctx, 'read');
    const lq = readListQuery(q(req));
    const { calendar, role } = await s.calendars.resolve(caller, p(req).calendarId);
    const page = await s.reader.list(calendar, lq, q(req));
    const defaultReminders = await s.calendarList.defaultReminders(caller, calendar.id);
    return {
      kind: 'calendar#events',
      etag: page.etag,
      summary: calendar.doc.summary,
      ...(calendar.doc.description !== undefined ? { description: calendar.doc.description } : {}),
      updated: page.updated,
      timeZone: lq.timeZone ?? calendar.doc.timeZone,
      accessRole: role,
      defaultReminders,
      ...(page.nextPageToken !== undefined ? { nextPageToken: page.nextPageToken } : {}),
      ...(page.nextSyncToken !== undefined ? { nextSyncToken: page.nextSyncToken } : {}),
      items: page.items,
    };
  });

  app.post(BASE, documented({ params: CalendarIdParams, querystring: EventWriteQuery, body: Event }), async (req) => {
    const caller = await authenticate(req, ctx, 'write');
    const prm = params(req);
    return answer(await s.events.insert(caller, p(req).calendarId, req.body, prm), prm.maxAttendees);
  });

  app.post(`${BASE}/import`, documented({ params: CalendarIdParams, querystring: EventWriteQuery, body: Event }), async (req) => {
    const caller = await authenticate(req, ctx, 'write');
    const prm = { ...params(req), sendUpdates: 'none' as const };
    return answer(await s.events.insert(caller, p(req).calendarId, req.body, prm, 'import'));
  });

  app.post(`${BASE}/quickAdd`, documented({ params: CalendarIdParams, querystring: QuickAddQuery }), async (req) => {
    const caller = await authenticate(req, ctx, 'write');
    const prm = params(req);
    const text = strParam(q(req), 'text', 1024);
    if (text === undefined || text.trim() === '') throw requiredField('Missing text.', 'text');
    const { calendar } = await s.calendars.resolve(caller, p(req).calendarId, 'writer');
    const parsed = parseQuickAdd(text, ctx.clock.now(), calendar.doc.timeZone);
    return answer(await s.events.insert(caller, calendar.id, parsed, { ...prm, conferenceDataVersion: 0 }));
  });

  app.post(`${BASE}/watch`, documented({ params: CalendarIdParams, querystring: EventListQuery, body: WatchChannelBody }), async (req) => {
    const caller = await authenticate(req, ctx, 'read');
    readListQuery(q(req));
    return ctx.db.write(async (tx) => {
      const { calendar } = await s.calendars.resolve(caller, p(req).calendarId, 'reader', tx);
      return s.watches.open(tx, caller, eventsTopic(calendar.id), `/calendars/${encodeURIComponent(calendar.id)}/events`, req.body);
    });
  });

  app.get(`${BASE}/:eventId`, documented({ params: EventIdParams, querystring: EventGetQuery }), async (req, reply: FastifyReply) => {
    const caller = await authenticate(req, ctx, 'read');
    const zone = zoneParam(q(req));
    const maxAttendees = readWriteQuery(q(req)).maxAttendees;
    const { calendar } = await s.calendars.resolve(caller, p(req).calendarId);
    const loaded = await s.events.load(ctx.kysely, calendar, p(req).eventId);
    if (!loaded) throw notFound();
    if (header(req, 'if-none-match') === loaded.etag) return reply.code(304).send();
    return renderEvent(loaded.doc, loaded.etag, s.reader.view(calendar, zone, maxAttendees));
  });

  for (const [method, patch] of [['put', false], ['patch', true]] as const) {
    app[method](`${BASE}/:eventId`, documented({ params: EventIdParams, querystring: EventWriteQuery, body: Event }), async (req) => {
      const caller = await authenticate(req, ctx, 'write');
      const prm = params(req);
      return answer(await s.events.update(caller, p(req).calendarId, p(req).eventId, req.body, prm, patch), prm.maxAttendees);
    });
  }

  app.delete(`${BASE}/:eventId`, documented({ params: EventIdParams, querystring: EventWriteQuery }), async (req, reply) => {
    const caller = await authenticate(req, ctx, 'write');
    await s.events.delete(caller, p(req).calendarId, p(req).eventId, params(req));
    reply.code(204).send();
  });

  app.post(`${BASE}/:eventId/move`, documented({ params: EventIdParams, querystring: MoveQuery }), async (req) => {
    const caller = await authenticate(req, ctx, 'write');
    const destination = strParam(q(req), 'destination', 1024);
    if (destination === undefined || destination === '') throw requiredField('Missing destination.', 'destination');
    return answer(await s.events.move(caller, p(req).calendarId, p(req).eventId, destination, params(req)));
  });

  app.get(`${BASE}/:eventId/instances`, documented({ params: EventIdParams, querystring: InstancesQuery }), async (req) => {
    const caller = await authenticate(req, ctx, 'read');
    boolParam(q(req), 'alwaysIncludeEmail');
    const { calendar, role } = await s.calendars.resolve(caller, p(req).calendarId);
    const master = await s.store.event(ctx.kysely, calendar.id, p(req).eventId);
    if (!master) throw notFound();
    if (master.doc.recurringEventId) throw badRequest('The event is an instance, not a recurring event.', 'eventId');
    const page = await s.reader.instances(calendar, master, q(req));
    const defaultReminders = await s.calendarList.defaultReminders(caller, calendar.id);
    return {
      kind: 'calendar#events',
      etag: page.etag,
      summary: calendar.doc.summary,
      updated: page.updated,
      timeZone: zoneParam(q(req)) ?? calendar.doc.timeZone,
      accessRole: role,
      defaultReminders,
      ...(page.nextPageToken !== undefined ? { nextPageToken: page.nextPageToken } : {}),
      items: page.items,
    };
  });
}
