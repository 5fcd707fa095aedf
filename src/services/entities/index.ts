// A3 entity search: a stored knowledge graph searched by name, alias, id, type and language, answered in JSON-LD.
import { readFileSync } from 'node:fs';
import { installGoogleFamily } from '../../core/google/index.ts';
import type { ServiceContext, ServiceManifest } from '../../core/service.ts';
import { entityAdminRoutes } from './admin.ts';
import { loadEntities, parseEntityText, readSeed } from './loading.ts';
import { TABLES, migrations } from './migrations.ts';
import { searchRoute } from './routes/search.ts';
import { EntityStore } from './store.ts';

const stores = new WeakMap<ServiceContext, EntityStore>();
const storeOf = (ctx: ServiceContext) => {
  let store = stores.get(ctx);
  if (!store) stores.set(ctx, (store = new EntityStore(ctx.kysely)));
  return store;
};

export const manifest: ServiceManifest = {
  id: 'entities',
  title: 'entity search',
  migrations,
  tables: TABLES,
  async register(app, ctx) {
    installGoogleFamily(app);
    searchRoute(app, ctx, storeOf(ctx));
  },
  async start(ctx) {
    // A fresh graph gets the built-in sample entities, unless settings say to start empty.
    const store = storeOf(ctx);
    if (ctx.settings.seed !== false && (await store.count()) === 0) await loadEntities(store, readSeed(), ctx.clock.now());
  },
  async credentials(ctx) {
    return [{ label: 'API key (?key=)', value: ctx.dev.apiKey }];
  },
  async health(ctx) {
    return { entities: await storeOf(ctx).count() };
  },
  async admin(app, ctx) {
    entityAdminRoutes(app, ctx, storeOf(ctx));
  },
  commands(group, open) {
    group
      .command('load <file>')
      .description('load entities from a JSON array or NDJSON file (replacing entities with the same id)')
      .action(async (file: string) => {
        const { ctx, close } = await open();
        try {
          const loaded = await loadEntities(storeOf(ctx), parseEntityText(readFileSync(file, 'utf8')), ctx.clock.now());
          console.log(`loaded ${loaded} entities (${await storeOf(ctx).count()} in the graph)`);
        } finally {
          await close();
        }
      });
  },
};
