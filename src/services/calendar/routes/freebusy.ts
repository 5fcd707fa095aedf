// freebusy.query.
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../../core/service.ts';
import { authenticate } from '../access.ts';
import type { CalendarService } from '../wiring.ts';

export function freeBusyRoutes(app: FastifyInstance, ctx: ServiceContext, s: CalendarService): void {
  app.post('/calendar/v3/freeBusy', async (req) => s.freeBusy.query(await authenticate(req, ctx, 'read'), req.body));
}
