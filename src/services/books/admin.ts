// Admin routes of the book library: import a catalog (Project Gutenberg CSV or Open Library dump lines, plain or
// gzip), count the catalog, and set the visibility of a user's shelf.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service.ts';
import { CatalogFileError, catalogBytes, parseCatalog } from './catalog-file.ts';
import { shelfNamed } from './domain/shelves.ts';
import type { Library } from './library.ts';
import { storeVolumes } from './loading.ts';

const CATALOG_TYPES = ['text/csv', 'application/x-ndjson', 'application/jsonl', 'text/plain', 'application/gzip', 'application/octet-stream'];

const ShelfAccessBody = Type.Object({ access: Type.Union([Type.Literal('PUBLIC'), Type.Literal('PRIVATE')]) }, { additionalProperties: false });

export function booksAdminRoutes(app: FastifyInstance, ctx: ServiceContext, library: Library): void {
  app.addContentTypeParser(CATALOG_TYPES, { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.post('/volumes', { bodyLimit: 256 * 1024 * 1024 }, async (req) => {
    if (!Buffer.isBuffer(req.body)) throw new ApiError(400, `send the catalog as one of ${CATALOG_TYPES.join(', ')}`);
    let parsed;
    try {
      parsed = await parseCatalog(catalogBytes(req.body));
    } catch (err) {
      if (err instanceof CatalogFileError) throw new ApiError(400, `${err.message}; nothing was loaded`);
      throw err;
    }
    const loaded = await storeVolumes(library.catalog, parsed.volumes, ctx.clock.now(), { progress: !ctx.devMode, label: 'importing books' });
    return { loaded, skipped: parsed.skipped, total: await library.catalog.count() };
  });

  app.get('/volumes', async () => ({ total: await library.catalog.count() }));

  app.put('/users/:userId/bookshelves/:shelf', { schema: { body: ShelfAccessBody } }, async (req) => {
    const { userId, shelf } = req.params as { userId: string; shelf: string };
    const kind = shelfNamed(shelf);
    if (!kind) throw new ApiError(404, `no bookshelf ${shelf}`);
    if (!(await ctx.identity.getPrincipal(userId))) throw new ApiError(404, `no principal ${userId}`);
    await library.shelves.setAccess(userId, kind.id, (req.body as Static<typeof ShelfAccessBody>).access, ctx.clock.now());
    return { userId, shelf: kind.id, access: (req.body as Static<typeof ShelfAccessBody>).access };
  });
}
