// C4 calendar events (Calendar API v3 under /calendar/v3): calendars and their ACL, the event resource with
// recurrence, typed events, conference data, sync tokens, invitations and watch channels.
import { installGoogleFamily } from '../../core/google/index.ts';
import { cacheBudgetOf } from '../../core/cache.ts';
import type { ServiceManifest } from '../../core/service.ts';
import { configureSeriesCache, DEFAULT_SERIES_CACHE_BUDGET } from './domain/instances.ts';
import { TABLES, migrations } from './migrations.ts';
import { calendarRoutes } from './routes/calendars.ts';
import { eventRoutes } from './routes/events.ts';
import { freeBusyRoutes } from './routes/freebusy.ts';
import { settingsRoutes } from './routes/settings.ts';
import { serviceOf } from './wiring.ts';

/** Request bodies above 1 MiB are refused with 413 (an event with 1,000 attendees fits easily). */
export const BODY_LIMIT = 1024 * 1024;

export const manifest: ServiceManifest = {
  id: 'calendar',
  title: 'calendar events (Calendar API v3)',
  migrations,
  tables: TABLES,
  listener: { bodyLimit: BODY_LIMIT },
  jobs: {
    async conference(job, ctx) {
      await serviceOf(ctx).events.completeConference(job.payload);
    },
  },
  async register(app, ctx) {
    configureSeriesCache(cacheBudgetOf(ctx.settings.seriesCacheBudget, DEFAULT_SERIES_CACHE_BUDGET, 'services.calendar.seriesCacheBudget'));
    installGoogleFamily(app, { domain: 'global' });
    const s = serviceOf(ctx);
    calendarRoutes(app, ctx, s);
    eventRoutes(app, ctx, s);
    freeBusyRoutes(app, ctx, s);
    settingsRoutes(app, ctx, s);
    // Any other path falls to the family's 404 handler, as in Calendar.
  },
  async credentials(ctx) {
    return [{ label: 'Bearer token (calendar scope); primary calendar developer@twinstack.local', value: ctx.dev.token }];
  },
};
