// C3 book library: a catalog searched in the database (volumes.list, volumes.get) and every user's bookshelves
// (public shelves of any user, the caller's own library).
import { isUniqueViolation } from '../../core/db/dialect.ts';
import { installGoogleFamily } from '../../core/google/index.ts';
import type { ServiceContext, ServiceManifest } from '../../core/service.ts';
import { warmUpOf as sharedWarmUpOf } from '../../core/warm-up.ts';
import { booksAdminRoutes } from './admin.ts';
import { SHIPPED_CATALOG, parseCatalog, readCatalogFile } from './catalog-file.ts';
import { CatalogStore } from './catalog-store.ts';
import { booksCommands } from './commands.ts';
import { Library } from './library.ts';
import { storeVolumes } from './loading.ts';
import { TABLES, migrations } from './migrations.ts';
import { bookshelfRoutes } from './routes/bookshelves.ts';
import { myLibraryRoutes } from './routes/mylibrary.ts';
import { refuseNul } from './routes/params.ts';
import { volumeRoutes } from './routes/volumes.ts';
import { ShelfStore } from './shelf-store.ts';
import { onePerContext } from '../../core/per-context.ts';

/** Records of the shipped catalog that `catalog: "sample"` loads. */
export const SAMPLE_SIZE = 300;

const CATALOG_SETTINGS = ['shipped', 'sample', 'none'] as const;
type CatalogSetting = (typeof CATALOG_SETTINGS)[number];

const libraryOf = onePerContext((ctx) => new Library(ctx, new CatalogStore(ctx.db), new ShelfStore(ctx.db)));

// Loading the shipped catalog into an empty database takes seconds: it runs once the listener is open, and requests
// (and the admin routes and data commands) wait for it.
const warmUpOf = (ctx: ServiceContext) => sharedWarmUpOf(ctx, 'the book catalog');

/** An empty catalog gets the shipped one (or its first records), unless settings say to start empty. */
async function loadShippedCatalog(ctx: ServiceContext, options: { signal: AbortSignal; resume: boolean }): Promise<void> {
  const setting = catalogSetting(ctx);
  const store = libraryOf(ctx).catalog;
  // `resume`: an earlier load was cut short by a reset; what it stored is replaced record by record.
  if (setting === 'none' || (!options.resume && (await store.count()) > 0)) return;
  const { volumes } = await parseCatalog(readCatalogFile(SHIPPED_CATALOG), setting === 'sample' ? SAMPLE_SIZE : undefined);
  try {
    await storeVolumes(store, volumes, ctx.clock.now(), { signal: options.signal });
  } catch (err) {
    // Another instance on the same PostgreSQL loaded the same volumes at the same time: theirs stand.
    if (!isUniqueViolation(err) || (await store.count()) === 0) throw err;
  }
}

function catalogSetting(ctx: ServiceContext): CatalogSetting {
  const value = ctx.settings.catalog ?? 'shipped';
  if (!CATALOG_SETTINGS.includes(value as CatalogSetting)) throw new Error(`services.books.catalog must be one of ${CATALOG_SETTINGS.join(', ')}, not ${JSON.stringify(value)}`);
  return value as CatalogSetting;
}

export const manifest: ServiceManifest = {
  id: 'books',
  title: 'book library (Books API v1)',
  migrations,
  tables: TABLES,
  async register(app, ctx) {
    installGoogleFamily(app);
    warmUpOf(ctx).gate(app);
    app.addHook('preHandler', async (req) => refuseNul(req.params, req.query));
    const library = libraryOf(ctx);
    volumeRoutes(app, ctx, library);
    bookshelfRoutes(app, ctx, library);
    myLibraryRoutes(app, ctx, library);
  },
  async start(ctx) {
    catalogSetting(ctx); // a bad setting stops the start itself
    const warmUp = warmUpOf(ctx);
    const resume = warmUp.state === 'warming';
    warmUp.begin((signal) => loadShippedCatalog(ctx, { signal, resume }));
  },
  async stop(ctx) {
    // Let a load under way finish (a second or two): a catalog cut short would not be completed at the next start.
    await warmUpOf(ctx).ready().catch(() => undefined);
  },
  async credentials(ctx) {
    return [
      { label: 'API key (?key=), volumes and public shelves', value: ctx.dev.apiKey },
      { label: 'Bearer token (books scope), mylibrary', value: ctx.dev.token },
    ];
  },
  async health(ctx) {
    const warmUp = warmUpOf(ctx);
    if (warmUp.state === 'failed') await warmUp.ready(); // throws why
    return { volumes: await libraryOf(ctx).catalog.count(), catalog: warmUp.state };
  },
  async admin(app, ctx) {
    warmUpOf(ctx).gate(app);
    booksAdminRoutes(app, ctx, libraryOf(ctx));
  },
  commands: (group, open) =>
    booksCommands(group, async () => {
      const opened = await open();
      await warmUpOf(opened.ctx).ready();
      return opened;
    }),
};
