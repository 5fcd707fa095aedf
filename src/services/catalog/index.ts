// C1 merchant catalog, following Content API for Shopping v2.1: accounts and access, products with derived statuses,
// every custombatch, settings resources, datafeeds fetched over HTTP, reports over simulated performance, quotas and
// notifications. Operations are declared once (see layer/) and served as routes and batch entries alike.
import { installGoogleFamily } from '../../core/google/index.ts';
import type { ServiceManifest } from '../../core/service.ts';
import { catalogAdmin } from './admin.ts';
import { catalogOf } from './catalog.ts';
import { catalogCommands } from './commands.ts';
import { registerOperations } from './layer/operation.ts';
import { TABLES, migrations } from './migrations.ts';
import { allOperations } from './operations.ts';
import { FETCH_JOB, runDatafeedFetch } from './datafeed-fetch.ts';
import { EXPIRY_JOB, expireConversionSource } from './resources/conversion-sources.ts';
import { REVIEW_JOB, decideReview } from './resources/programs.ts';
import { seedAccounts } from './seed.ts';

/** A 1,000-entry products custombatch is a few megabytes; feeds come over HTTP, not in request bodies. */
export const BODY_LIMIT = 32 * 1024 * 1024;

export const manifest: ServiceManifest = {
  id: 'catalog',
  title: 'merchant catalog (Content API for Shopping v2.1)',
  migrations,
  tables: TABLES,
  listener: { bodyLimit: BODY_LIMIT },
  jobs: {
    [EXPIRY_JOB]: expireConversionSource,
    [REVIEW_JOB]: decideReview,
    [FETCH_JOB]: runDatafeedFetch,
  },
  async register(app, ctx) {
    installGoogleFamily(app);
    registerOperations(app, catalogOf(ctx), allOperations());
  },
  async start(ctx) {
    await seedAccounts(catalogOf(ctx));
  },
  async stop(ctx) {
    await catalogOf(ctx).quota.flush();
  },
  admin: catalogAdmin,
  commands: catalogCommands,
  async credentials(ctx) {
    const cat = catalogOf(ctx);
    return [
      { label: 'Bearer token (content scope)', value: ctx.dev.token },
      { label: 'Merchant accounts (MCA, sub-account)', value: `${cat.settings.seed.mcaId}, ${cat.settings.seed.subAccountId}` },
    ];
  },
};
