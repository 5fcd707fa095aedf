// A4 error reporting: events:report with the log bucket rule, and the read side (groupStats, events, groups).
import { installGoogleFamily, unimplemented } from '../../core/google/index.ts';
import type { ServiceManifest } from '../../core/service.ts';
import { TABLES, migrations } from './migrations.ts';
import { adminRoutes } from './routes/admin.ts';
import { groupRoutes } from './routes/groups.ts';
import { readRoutes } from './routes/read.ts';
import { reportRoutes } from './routes/report.ts';
import { ErrorStore } from './store.ts';

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
    const store = new ErrorStore(ctx.kysely);
    reportRoutes(app, ctx, store);
    readRoutes(app, ctx, store);
    groupRoutes(app, ctx, store);
    app.all('/v1beta1/projects/:projectId/locations/*', unimplemented('Location-scoped Error Reporting methods'));
  },
  async credentials() {
    return [
      { label: 'report', value: 'POST /v1beta1/projects/<project>/events:report?key=<dev API key>' },
      { label: 'read', value: 'Authorization: Bearer <dev token> (scope cloud-platform)' },
    ];
  },
  async admin(app, ctx) {
    adminRoutes(app, ctx, new ErrorStore(ctx.kysely));
  },
};
