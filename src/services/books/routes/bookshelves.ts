// A user's public bookshelves and their volumes: readable by any caller with an API key.
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../../core/service.ts';
import { renderShelf } from '../domain/render.ts';
import type { Library } from '../library.ts';
import { publicCaller, readerOf } from './auth.ts';
import { booleanParam, pageOf, type Query } from './params.ts';
import { BOOKSHELF_SCHEMAS } from './schemas/bookshelves.ts';
import { shelfVolumes } from './shelf-volumes.ts';

type P = { userId: string; shelf: string };

export function bookshelfRoutes(app: FastifyInstance, ctx: ServiceContext, library: Library): void {
  app.get('/books/v1/users/:userId/bookshelves', BOOKSHELF_SCHEMAS.list, async (req) => {
    await publicCaller(req, ctx);
    const { userId } = req.params as P;
    const views = (await library.views(userId)).filter((v) => v.access === 'PUBLIC');
    return { kind: 'books#bookshelves', items: views.map((v) => renderShelf(v, library.selfLink(userId, v.shelf.id))) };
  });

  app.get('/books/v1/users/:userId/bookshelves/:shelf', BOOKSHELF_SCHEMAS.get, async (req) => {
    await publicCaller(req, ctx);
    const { userId, shelf } = req.params as P;
    const view = await library.view(userId, shelf, true);
    return renderShelf(view, library.selfLink(userId, view.shelf.id));
  });

  app.get('/books/v1/users/:userId/bookshelves/:shelf/volumes', BOOKSHELF_SCHEMAS.listVolumes, async (req) => {
    const caller = await publicCaller(req, ctx);
    const { userId, shelf } = req.params as P;
    const query = req.query as Query;
    const page = pageOf(query);
    booleanParam(query, 'showPreorders');
    const view = await library.view(userId, shelf, true);
    return shelfVolumes(library, userId, view.shelf.id, page, 'full', readerOf(caller));
  });
}
