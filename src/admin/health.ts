// GET /health: the database and every service, 200 when all answer, 503 otherwise.
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../core/runtime.ts';

export function healthRoutes(app: FastifyInstance, rt: Runtime): void {
  app.get('/health', async (_req, reply) => {
    let database: Record<string, unknown>;
    try {
      await rt.db.ping();
      database = { ok: true, dialect: rt.db.dialect, location: rt.db.describe };
    } catch (err) {
      database = { ok: false, dialect: rt.db.dialect, error: (err as Error).message };
    }
    const services: Record<string, unknown> = {};
    for (const [id, s] of rt.services) {
      let detail: Record<string, unknown> = {};
      let ok = true;
      try {
        detail = (await s.manifest.health?.(s.ctx)) ?? {};
      } catch (err) {
        ok = false;
        detail = { error: (err as Error).message };
      }
      services[id] = { ok, url: s.url, title: s.manifest.title, ...detail };
    }
    const healthy = database.ok === true && Object.values(services).every((s) => (s as { ok: boolean }).ok);
    reply.code(healthy ? 200 : 503);
    return { status: healthy ? 'ok' : 'degraded', database, clock: { mode: rt.clock.mode, now: new Date(rt.clock.now()).toISOString() }, services };
  });
}
