// The bidding troubleshooting service (Ad Exchange Buyer II v2beta1 style): filter sets at bidder and account level,
// and bid metrics computed from stored bid events through hourly aggregates.
import { installGoogleFamily } from '../../core/google/index.ts';
import type { ServiceContext, ServiceManifest } from '../../core/service.ts';
import { describeAccount } from './accounts.ts';
import { adminRoutes } from './admin.ts';
import { biddingOf } from './bidding.ts';
import { biddingCommands } from './commands.ts';
import { migrations, TABLES } from './migrations.ts';
import { apiRoutes } from './routes/api.ts';
import { EXPIRE_JOB } from './routes/filter-sets.ts';

/** The demo accounts seeded at start (unless `services.bidding.demo` is false), with fixed development tokens. */
export const DEMO_ACCOUNTS = [
  { accountId: '1000', name: 'Demo bidder', token: 'bidding-demo-bidder-token' },
  { accountId: '1001', name: 'Demo child account', parentBidderId: '1000', token: 'bidding-demo-child-token' },
  { accountId: '2001', name: 'Demo account delegating to 1000', delegatesTo: '1000', token: 'bidding-demo-delegate-token' },
];

async function seedAccounts(ctx: ServiceContext): Promise<void> {
  const b = biddingOf(ctx);
  const seeds = [...(b.settings.demo === false ? [] : DEMO_ACCOUNTS), ...(b.settings.accounts ?? [])];
  // Bidders first: children and delegating accounts name an existing bidder.
  const ordered = [...seeds.filter((a) => !a.parentBidderId && !a.delegatesTo), ...seeds.filter((a) => a.parentBidderId || a.delegatesTo)];
  for (const a of ordered) await b.accounts.save(a, { upsert: true });
}

export const manifest: ServiceManifest = {
  id: 'bidding',
  title: 'Bidding troubleshooting (Ad Exchange Buyer II v2beta1)',
  migrations,
  tables: TABLES,
  jobs: {
    // Removes a transient filter set an hour after its creation.
    [EXPIRE_JOB]: async (job, ctx: ServiceContext) => {
      await biddingOf(ctx).store.deleteExpired(job.payload.name, ctx.clock.now());
    },
  },
  async register(app, ctx) {
    installGoogleFamily(app);
    apiRoutes(app, biddingOf(ctx));
  },
  // After migrations and after every reset or import: what the store cached may no longer be in the tables.
  async start(ctx) {
    biddingOf(ctx).store.forgetCache();
    await seedAccounts(ctx);
  },
  async credentials(ctx) {
    const b = biddingOf(ctx);
    const hints = [{ label: 'API', value: `${ctx.baseUrl}/v2beta1/bidders/{bidderId}/filterSets` }];
    const seeds = [...(b.settings.demo === false ? [] : DEMO_ACCOUNTS), ...(b.settings.accounts ?? [])];
    for (const a of seeds) {
      if (!a.token) continue;
      const account = await b.accounts.get(a.accountId);
      if (account) hints.push({ label: `${describeAccount(account).role} ${a.accountId} bearer`, value: a.token });
    }
    return hints;
  },
  async health(ctx) {
    return biddingOf(ctx).store.counts();
  },
  admin: adminRoutes,
  commands: biddingCommands,
};
