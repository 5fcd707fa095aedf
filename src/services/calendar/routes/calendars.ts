// calendars.*, calendarList.*, acl.* and channels.stop.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { documented } from '../../../core/http/documented.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { authenticate } from '../access.ts';
import { renderCalendar } from '../calendars.ts';
import { colorsResource } from '../domain/colors.ts';
import { notFound } from '../domain/errors.ts';
import { boolParam, type Query } from '../domain/params.ts';
import { aclTopic, calendarListTopic } from '../watches.ts';
import type { CalendarService } from '../wiring.ts';
import { AclListQuery, AclRule, Calendar, CalendarListEntry, CalendarListQuery, CalendarListWriteQuery } from './schemas/calendar.ts';
import { StopChannelBody, WatchChannelBody } from '../../../core/google/watch-channel-schema.ts';
import { AclRuleParams, CalendarIdParams, SystemQuery } from './schemas/common.ts';

type P = { calendarId: string; ruleId: string };
const p = (req: FastifyRequest) => req.params as P;
const V3 = '/calendar/v3';

const ofCalendar = documented({ params: CalendarIdParams, querystring: SystemQuery });
const ofRule = documented({ params: AclRuleParams, querystring: SystemQuery });
const listEntryWrite = (withId: boolean) => documented({ ...(withId ? { params: CalendarIdParams } : {}), querystring: CalendarListWriteQuery, body: CalendarListEntry });

export function calendarRoutes(app: FastifyInstance, ctx: ServiceContext, s: CalendarService): void {
  app.post(`${V3}/calendars`, documented({ querystring: SystemQuery, body: Calendar }), async (req) => renderCalendar(await s.admin.insert(await authenticate(req, ctx, 'manage'), req.body)));
  app.get(`${V3}/calendars/:calendarId`, ofCalendar, async (req) => {
    const caller = await authenticate(req, ctx, 'read');
    return renderCalendar((await s.calendars.resolve(caller, p(req).calendarId)).calendar);
  });
  for (const [method, partial] of [['put', false], ['patch', true]] as const) {
    app[method](`${V3}/calendars/:calendarId`, documented({ params: CalendarIdParams, querystring: SystemQuery, body: Calendar }), async (req) => renderCalendar(await s.admin.update(await authenticate(req, ctx, 'manage'), p(req).calendarId, req.body, partial)));
  }
  app.delete(`${V3}/calendars/:calendarId`, ofCalendar, async (req, reply) => {
    await s.admin.delete(await authenticate(req, ctx, 'manage'), p(req).calendarId);
    reply.code(204).send();
  });
  app.post(`${V3}/calendars/:calendarId/clear`, ofCalendar, async (req, reply) => {
    await s.admin.clear(await authenticate(req, ctx, 'manage'), p(req).calendarId);
    reply.code(204).send();
  });

  app.get(`${V3}/users/me/calendarList`, documented({ querystring: CalendarListQuery }), async (req) => s.calendarList.list(await authenticate(req, ctx, 'read'), req.query as Query));
  app.get(`${V3}/users/me/calendarList/:calendarId`, ofCalendar, async (req) => s.calendarList.get(await authenticate(req, ctx, 'read'), p(req).calendarId));
  const rgbFormat = (req: FastifyRequest) => boolParam(req.query as Query, 'colorRgbFormat');
  app.post(`${V3}/users/me/calendarList`, listEntryWrite(false), async (req) => s.calendarList.insert(await authenticate(req, ctx, 'manage'), req.body, rgbFormat(req)));
  app.post(`${V3}/users/me/calendarList/watch`, documented({ querystring: SystemQuery, body: WatchChannelBody }), async (req) => {
    const caller = await authenticate(req, ctx, 'read');
    return ctx.db.write((tx) => s.watches.open(tx, caller, calendarListTopic(caller.email), '/users/me/calendarList', req.body));
  });
  for (const [method, partial] of [['put', false], ['patch', true]] as const) {
    app[method](`${V3}/users/me/calendarList/:calendarId`, listEntryWrite(true), async (req) => s.calendarList.update(await authenticate(req, ctx, 'manage'), p(req).calendarId, req.body, partial, rgbFormat(req)));
  }
  app.delete(`${V3}/users/me/calendarList/:calendarId`, ofCalendar, async (req, reply) => {
    await s.calendarList.delete(await authenticate(req, ctx, 'manage'), p(req).calendarId);
    reply.code(204).send();
  });

  app.get(`${V3}/calendars/:calendarId/acl`, documented({ params: CalendarIdParams, querystring: AclListQuery }), async (req) => s.admin.aclList(await authenticate(req, ctx, 'read'), p(req).calendarId, req.query as Query));
  app.post(`${V3}/calendars/:calendarId/acl`, documented({ params: CalendarIdParams, querystring: SystemQuery, body: AclRule }), async (req) => s.admin.aclPut(await authenticate(req, ctx, 'manage'), p(req).calendarId, undefined, req.body, false));
  app.post(`${V3}/calendars/:calendarId/acl/watch`, documented({ params: CalendarIdParams, querystring: SystemQuery, body: WatchChannelBody }), async (req) => {
    const caller = await authenticate(req, ctx, 'read');
    return ctx.db.write(async (tx) => {
      const { calendar } = await s.calendars.resolve(caller, p(req).calendarId, 'writer', tx);
      return s.watches.open(tx, caller, aclTopic(calendar.id), `/calendars/${encodeURIComponent(calendar.id)}/acl`, req.body);
    });
  });
  app.get(`${V3}/calendars/:calendarId/acl/:ruleId`, ofRule, async (req) => s.admin.aclGet(await authenticate(req, ctx, 'read'), p(req).calendarId, p(req).ruleId));
  for (const [method, partial] of [['put', false], ['patch', true]] as const) {
    app[method](`${V3}/calendars/:calendarId/acl/:ruleId`, documented({ params: AclRuleParams, querystring: SystemQuery, body: AclRule }), async (req) => s.admin.aclPut(await authenticate(req, ctx, 'manage'), p(req).calendarId, p(req).ruleId, req.body, partial));
  }
  app.delete(`${V3}/calendars/:calendarId/acl/:ruleId`, ofRule, async (req, reply) => {
    await s.admin.aclDelete(await authenticate(req, ctx, 'manage'), p(req).calendarId, p(req).ruleId);
    reply.code(204).send();
  });

  app.get(`${V3}/colors`, documented({ querystring: SystemQuery }), async (req) => {
    await authenticate(req, ctx, 'read');
    return colorsResource('2012-02-14T00:00:00.000Z');
  });

  app.post(`${V3}/channels/stop`, documented({ querystring: SystemQuery, body: StopChannelBody }), async (req, reply) => {
    const caller = await authenticate(req, ctx, 'read');
    const body = (req.body ?? {}) as { id?: unknown; resourceId?: unknown };
    const stopped = await ctx.db.write((tx) => s.watch.stop(tx, { service: 'calendar', ownerId: caller.principalId, id: body.id, resourceId: body.resourceId }));
    if (!stopped) throw notFound();
    reply.code(204).send();
  });
}
