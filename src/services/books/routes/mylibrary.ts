// mylibrary.bookshelves.*: the caller's own shelves. Changes answer 204 with no body, as Books' empty responses.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../../core/service.ts';
import { parseVolumeQuery } from '../domain/query.ts';
import { renderShelf } from '../domain/render.ts';
import { shelfOf, type Library } from '../library.ts';
import { libraryCaller } from './auth.ts';
import { booleanParam, enumParam, integerParam, pageOf, param, projectionOf, requiredParam, type Query } from './params.ts';
import { ADD_REASONS, MY_LIBRARY_SCHEMAS, REMOVE_REASONS } from './schemas/bookshelves.ts';
import { shelfVolumes, volumesAnswer } from './shelf-volumes.ts';

const BASE = '/books/v1/mylibrary/bookshelves';

export function myLibraryRoutes(app: FastifyInstance, ctx: ServiceContext, library: Library): void {
  const me = async (req: FastifyRequest) => (await libraryCaller(req, ctx)).principal.id;
  const shelfParam = (req: FastifyRequest) => (req.params as { shelf: string }).shelf;
  const done = (reply: FastifyReply) => reply.code(204).send();

  app.get(BASE, MY_LIBRARY_SCHEMAS.list, async (req) => {
    const userId = await me(req);
    const views = await library.views(userId);
    return { kind: 'books#bookshelves', items: views.map((v) => renderShelf(v, library.selfLink(userId, v.shelf.id))) };
  });

  app.get(`${BASE}/:shelf`, MY_LIBRARY_SCHEMAS.get, async (req) => {
    const userId = await me(req);
    const view = await library.view(userId, shelfParam(req), false);
    return renderShelf(view, library.selfLink(userId, view.shelf.id));
  });

  app.get(`${BASE}/:shelf/volumes`, MY_LIBRARY_SCHEMAS.listVolumes, async (req) => {
    const userId = await me(req);
    const query = req.query as Query;
    const page = pageOf(query);
    const projection = projectionOf(query);
    booleanParam(query, 'showPreorders');
    const shelf = shelfOf(shelfParam(req));
    const q = param(query, 'q');
    if (q === undefined || q.trim() === '') return shelfVolumes(library, userId, shelf.id, page, projection, userId);
    // A search within the shelf: ranked as volumes.list ranks.
    const found = await library.catalog.search({ query: parseVolumeQuery(q), ...page, orderBy: 'relevance', printType: 'all', libraryOf: { userId, shelfId: shelf.id } });
    return volumesAnswer(found.totalItems, await library.render(found.items, projection, userId));
  });

  // addVolume and removeVolume take the same parameters; each has its own reasons.
  const changes = [
    { method: 'addVolume', change: library.addVolume, reasons: ADD_REASONS },
    { method: 'removeVolume', change: library.removeVolume, reasons: REMOVE_REASONS },
  ] as const;
  for (const { method, change, reasons } of changes) {
    app.post(`${BASE}/:shelf/${method}`, MY_LIBRARY_SCHEMAS[method], async (req, reply) => {
      const userId = await me(req);
      const query = req.query as Query;
      enumParam(query, 'reason', reasons);
      await change.call(library, userId, shelfParam(req), requiredParam(query, 'volumeId'));
      return done(reply);
    });
  }

  app.post(`${BASE}/:shelf/clearVolumes`, MY_LIBRARY_SCHEMAS.clearVolumes, async (req, reply) => {
    await library.clearVolumes(await me(req), shelfParam(req));
    return done(reply);
  });

  app.post(`${BASE}/:shelf/moveVolume`, MY_LIBRARY_SCHEMAS.moveVolume, async (req, reply) => {
    const userId = await me(req);
    const query = req.query as Query;
    const volumeId = requiredParam(query, 'volumeId');
    requiredParam(query, 'volumePosition');
    const position = integerParam(query, 'volumePosition', 0, 2_147_483_647, 0);
    await library.moveVolume(userId, shelfParam(req), volumeId, position);
    return done(reply);
  });
}
