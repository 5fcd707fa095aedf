// Admin routes of the knowledge graph: load documents, list, delete, restore the built-in seed.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import type { ServiceContext } from '../../core/service.ts';
import { parseEntityId } from './domain/entity.ts';
import { loadEntities, parseEntityText, readSeed } from './loading.ts';
import type { EntityStore } from './store.ts';

export function entityAdminRoutes(app: FastifyInstance, ctx: ServiceContext, store: EntityStore): void {
  app.addContentTypeParser('application/x-ndjson', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseEntityText(body as string));
    } catch (err) {
      done(err as Error);
    }
  });

  app.post('/entities', { bodyLimit: 64 * 1024 * 1024 }, async (req) => {
    const body = req.body;
    const docs = Array.isArray(body) ? body : body && typeof body === 'object' ? [body] : undefined;
    if (!docs) throw new ApiError(400, 'send an entity, a JSON array of entities, or NDJSON');
    return { loaded: await loadEntities(store, docs, ctx.clock.now()), total: await store.count() };
  });

  app.get('/entities', async (req) => {
    const q = req.query as { limit?: string; after?: string };
    const limit = Math.min(Math.max(Number(q.limit ?? 100) || 100, 1), 1000);
    const entities = await store.list(limit, q.after);
    return { entities, total: await store.count(), next: entities.length === limit ? entities[entities.length - 1].id : null };
  });

  app.delete('/entities/*', async (req, reply) => {
    const raw = (req.params as { '*': string })['*'];
    const id = parseEntityId(raw.startsWith('/') || raw.startsWith('kg:') ? raw : `/${raw}`);
    if (!id || !(await store.delete(id))) throw new ApiError(404, `no entity ${raw}`);
    reply.code(204);
  });

  app.post('/seed', async () => ({ loaded: await loadEntities(store, readSeed(), ctx.clock.now()), total: await store.count() }));
}
