// A4 error reporting: events:report with the log bucket rule, and the read side (groupStats, events, groups).
import { installGoogleFamily } from '../../core/google/index.ts';
import type { ServiceManifest } from '../../core/service.ts';
import { TABLES, migrations } from './migrations.ts';
import { adminRoutes } from './routes/admin.ts';
import { groupRoutes } from './routes/groups.ts';
import { readRoutes } from './routes/read.ts';
import { reportRoutes } from './routes/report.ts';
import { errorStoreOf } from './store.ts';

/** Request bodies above 1 MiB are refused with 413 (a reported event is one message and its context). */
export const BODY_LIMIT = 1024 * 1024;

export const manifest: ServiceManifest = {
  id: 'errorreporting',
  title: 'error reporting (Cloud Error Reporting v1beta1)',
  migrations,
  tables: TABLES,
  listener: { bodyLimit: BODY_LIMIT },
  async register(app, ctx) {
    installGoogleFamily(app);
    const store = errorStoreOf(ctx);
    reportRoutes(app, ctx, store);
    readRoutes(app, ctx, store);
    groupRoutes(app, ctx, store);
  },
  // After migrations and after every reset or import: what the store cached may no longer be in the tables.
  async start(ctx) {
    errorStoreOf(ctx).forgetCache();
  },
  async credentials(ctx) {
    return [
      { label: 'API key (?key=), reports', value: ctx.dev.apiKey },
      { label: 'Bearer token (cloud-platform), reports and reads', value: ctx.dev.token },
    ];
  },
  async admin(app, ctx) {
    adminRoutes(app, ctx, errorStoreOf(ctx));
  },
};
