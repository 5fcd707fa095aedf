// Admin routes of the knowledge graph: load documents, list, read one, delete, restore the samples, rebuild the
// default graph, and the state of the graph and its index.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { parseEntityId } from './domain/entity.ts';
import type { EntityGraph } from './graph.ts';
import { parseEntityText, readSeed, validateEntities } from './loading.ts';
import { readSettings } from './settings.ts';
import { listEntities } from './store.ts';
import { buildWorld } from './world-build.ts';
import type { ServiceContext } from '../../core/service.ts';

export function entityAdminRoutes(app: FastifyInstance, ctx: ServiceContext, graph: EntityGraph): void {
  app.addContentTypeParser('application/x-ndjson', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseEntityText(body as string));
    } catch (err) {
      done(err as Error);
    }
  });

  const idOf = (raw: string) => {
    const id = parseEntityId(raw.startsWith('/') || raw.startsWith('kg:') ? raw : `/${raw}`);
    if (!id) throw new ApiError(404, `no entity ${raw}`);
    return id;
  };

  app.post('/entities', { bodyLimit: 64 * 1024 * 1024 }, async (req) => {
    const body = req.body;
    const docs = Array.isArray(body) ? body : body && typeof body === 'object' ? [body] : undefined;
    if (!docs) throw new ApiError(400, 'send an entity, a JSON array of entities, or NDJSON');
    const entities = validateEntities(docs);
    await graph.put(entities);
    return { loaded: entities.length, total: await graph.count() };
  });

  app.get('/entities', async (req) => {
    const q = req.query as { limit?: string; after?: string };
    const limit = Math.min(Math.max(Number(q.limit ?? 100) || 100, 1), 1000);
    const entities = await listEntities(ctx.kysely, limit, q.after);
    return { entities, total: await graph.count(), next: entities.length === limit ? entities[entities.length - 1].id : null };
  });

  app.get('/entities/*', async (req) => {
    const raw = (req.params as { '*': string })['*'];
    const [entity] = await graph.documents([idOf(raw)]);
    if (!entity) throw new ApiError(404, `no entity ${raw}`);
    return entity;
  });

  app.delete('/entities/*', async (req, reply) => {
    const raw = (req.params as { '*': string })['*'];
    if (!(await graph.remove(idOf(raw)))) throw new ApiError(404, `no entity ${raw}`);
    reply.code(204);
  });

  app.post('/seed', async () => {
    const entities = validateEntities(readSeed());
    await graph.put(entities);
    return { loaded: entities.length, total: await graph.count() };
  });

  app.post('/build', async () => {
    const built = await buildWorld(ctx, { minPopulation: readSettings(ctx.settings).minPopulation, progress: false });
    await graph.rebuildIndex();
    return { built, total: await graph.count() };
  });

  app.get('/graph', async () => ({
    default: (await graph.defaultRecord()) ?? null,
    stored: await graph.count(),
    indexed: graph.indexed,
  }));
}
