// The payment gateway (spec B): the v6 processing API, card-holder accounts, batches and the sandbox acquirer and ACS,
// with direct post and Paylink plugged in as front ends through contract.ts.
import type { ServiceContext, ServiceManifest } from '../../core/service.ts';
import { adminRoutes } from './admin.ts';
import { BATCH_JOB } from './batches.ts';
import { paymentsCommands } from './commands.ts';
import type { PaymentsModule } from './contract.ts';
import * as direct from './direct/index.ts';
import { gatewayOf } from './gateway.ts';
import { installPaymentsFamily } from './http.ts';
import { CORE_TABLES, coreMigrations } from './migrations.ts';
import * as paylink from './paylink/index.ts';
import { accountRoutes } from './routes/accounts.ts';
import { acsRoutes } from './routes/acs.ts';
import { authenticateRoutes } from './routes/authenticate.ts';
import { batchRoutes } from './routes/batches.ts';
import { miscRoutes } from './routes/misc.ts';
import { processingRoutes } from './routes/processing.ts';
import { seed } from './seed.ts';
import { DEV_CLIENT_ID, DEV_MERCHANT_ID } from './settings.ts';

const FRONT_ENDS: PaymentsModule[] = [direct, paylink];

export const manifest: ServiceManifest = {
  id: 'payments',
  title: 'payment gateway',
  migrations: Object.assign({}, coreMigrations, ...FRONT_ENDS.map((m) => m.migrations)),
  tables: [...FRONT_ENDS.flatMap((m) => m.tables), ...CORE_TABLES],
  jobs: Object.assign(
    {
      [BATCH_JOB]: async (job: { payload: { merchantid: number }; runAt: number }, ctx: ServiceContext) => {
        await gatewayOf(ctx).batches.close(job.payload.merchantid, job.runAt);
      },
    },
    ...FRONT_ENDS.map((m) => m.jobs ?? {}),
  ),

  async register(app, ctx) {
    const g = gatewayOf(ctx);
    installPaymentsFamily(app, () => ctx.clock.now());
    authenticateRoutes(app, g);
    processingRoutes(app, g);
    accountRoutes(app, g);
    batchRoutes(app, g);
    miscRoutes(app, g);
    acsRoutes(app, g);
    for (const m of FRONT_ENDS) await m.register(app, g.deps());
  },

  // After migrations and after every reset or import: what the stores cached may no longer be in the tables.
  async start(ctx) {
    const g = gatewayOf(ctx);
    g.merchants.forgetCache();
    await seed(g);
    for (const m of FRONT_ENDS) await m.start?.(g.deps());
  },

  async credentials(ctx) {
    const g = gatewayOf(ctx);
    if (g.settings.dev_client === false) return [];
    const licenceKey = await g.clients.licenceKeyOf(DEV_CLIENT_ID);
    return [
      { label: 'client id', value: DEV_CLIENT_ID },
      { label: 'licence key', value: licenceKey ?? '(none)' },
      { label: 'merchant id', value: String(DEV_MERCHANT_ID) },
      { label: 'API key (pay-api-key, one per request)', value: 'twinstack payments api-key, or POST /v6/authenticate' },
    ];
  },

  async health(ctx) {
    const g = gatewayOf(ctx);
    return { merchants: (await g.merchants.list()).length };
  },

  async admin(app, ctx) {
    adminRoutes(app, gatewayOf(ctx));
  },

  commands: paymentsCommands,
};
