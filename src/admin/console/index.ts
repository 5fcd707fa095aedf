// The web console on the admin listener: the page at `/`, its static modules, and the read-only data routes its
// views need beyond the admin API (which it calls for everything it changes).
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../core/runtime.ts';
import { assetRoutes } from './assets.ts';
import { biddingRoutes } from './bidding.ts';
import { booksRoutes } from './books.ts';
import { calendarRoutes } from './calendar.ts';
import { catalogRoutes } from './catalog.ts';
import { entityRoutes } from './entities.ts';
import { errorReportingRoutes } from './errorreporting.ts';
import { filesRoutes } from './files.ts';
import { overviewRoutes } from './overview.ts';
import { sendConsolePage } from './page.ts';
import { paymentsRoutes } from './payments.ts';
import { requestRoutes } from './requests.ts';
import { secretsRoutes } from './secrets.ts';

export function consoleRoutes(app: FastifyInstance, rt: Runtime): void {
  app.get('/', async (_req, reply) => sendConsolePage(reply));
  assetRoutes(app);
  overviewRoutes(app, rt);
  requestRoutes(app, rt);
  secretsRoutes(app, rt);
  paymentsRoutes(app, rt);
  errorReportingRoutes(app, rt);
  biddingRoutes(app, rt);
  entityRoutes(app, rt);
  filesRoutes(app, rt);
  calendarRoutes(app, rt);
  catalogRoutes(app, rt);
  booksRoutes(app, rt);
}
