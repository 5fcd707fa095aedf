// The books browser's data: a search over the shipped library (the service's own volumes.list, in-process with the
// development API key) and every user's bookshelves with their volumes.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Runtime } from '../../core/runtime.ts';
import { adminError } from '../errors.ts';
import { callService, expectOk } from './service-call.ts';

const Search = Type.Object({ q: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });

export function booksRoutes(app: FastifyInstance, rt: Runtime): void {
  app.get('/console/api/books/search', { schema: { querystring: Search } }, async (req) => {
    const { q } = req.query as Static<typeof Search>;
    const params = new URLSearchParams({ q, maxResults: '20', key: rt.options.devApiKey });
    const answer = await expectOk(callService(rt, 'books', { url: `/books/v1/volumes?${params}` }), 'book search');
    return {
      totalItems: answer.totalItems ?? 0,
      volumes: ((answer.items ?? []) as Array<{ id: string; volumeInfo: Record<string, any> }>).map((v) => ({
        id: v.id,
        title: v.volumeInfo.title,
        authors: v.volumeInfo.authors ?? [],
        published: v.volumeInfo.publishedDate ?? null,
        language: v.volumeInfo.language ?? null,
      })),
    };
  });

  app.get('/console/api/books/shelves', async () => {
    if (!rt.services.has('books')) throw adminError(404, 'service books is not running');
    const db = rt.db.kysely;
    const [shelves, volumes] = await Promise.all([
      db.selectFrom('books_shelves').select(['user_id', 'shelf_id', 'access', 'updated_at']).orderBy('user_id').orderBy('shelf_id').execute(),
      db.selectFrom('books_shelf_volumes').select(['user_id', 'shelf_id', 'volume_id', 'position']).orderBy('user_id').orderBy('shelf_id').orderBy('position').limit(5000).execute(),
    ]);
    const key = (u: unknown, s: unknown) => `${u}/${s}`;
    const held = new Map<string, string[]>();
    for (const v of volumes) {
      const k = key(v.user_id, v.shelf_id);
      if (!held.has(k)) held.set(k, []);
      held.get(k)!.push(v.volume_id);
    }
    // Shelves with volumes but no settings row still show.
    const all = new Map(shelves.map((s) => [key(s.user_id, s.shelf_id), { user: s.user_id, shelf: Number(s.shelf_id), access: s.access ?? 'PRIVATE' }]));
    for (const v of volumes) if (!all.has(key(v.user_id, v.shelf_id))) all.set(key(v.user_id, v.shelf_id), { user: v.user_id, shelf: Number(v.shelf_id), access: 'PRIVATE' });
    return { shelves: [...all.entries()].map(([k, s]) => ({ ...s, volumes: held.get(k) ?? [] })) };
  });
}
