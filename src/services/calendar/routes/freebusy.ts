// freebusy.query.
import type { FastifyInstance } from 'fastify';
import { documented } from '../../../core/http/documented.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { authenticate } from '../access.ts';
import type { CalendarService } from '../wiring.ts';
import { SystemQuery } from './schemas/common.ts';
import { FreeBusyRequest } from './schemas/freebusy.ts';

export function freeBusyRoutes(app: FastifyInstance, ctx: ServiceContext, s: CalendarService): void {
  app.post('/calendar/v3/freeBusy', documented({ querystring: SystemQuery, body: FreeBusyRequest }), async (req) => s.freeBusy.query(await authenticate(req, ctx, 'read'), req.body));
}
