// GET /console/api/overview: every running service with its URL, health, the credentials a caller needs, how many
// rows each of its tables holds and links to its descriptions; GET /console/api/services: the ids and titles only
// (the navigation).
import type { FastifyInstance } from 'fastify';
import type { Runtime, RunningService } from '../../core/runtime.ts';

export function overviewRoutes(app: FastifyInstance, rt: Runtime): void {
  app.get('/console/api/services', async () => ({
    services: [...rt.services.values()].map((s) => ({ id: s.manifest.id, title: s.manifest.title, url: s.url })),
  }));

  app.get('/console/api/overview', async () => {
    const services = await Promise.all([...rt.services.values()].map((s) => describe(rt, s)));
    return {
      admin: rt.admin?.url ?? null,
      clock: { mode: rt.clock.mode, now: new Date(rt.clock.now()).toISOString() },
      database: { dialect: rt.db.dialect },
      developer: { apiKey: rt.options.devApiKey, bearerToken: rt.options.devToken },
      services,
    };
  });
}

async function describe(rt: Runtime, s: RunningService) {
  const id = s.manifest.id;
  const [health, credentials, counts] = await Promise.all([
    settle(async () => ({ ok: true, ...((await s.manifest.health?.(s.ctx)) ?? {}) })),
    settle(async () => (await s.manifest.credentials?.(s.ctx)) ?? []),
    settle(() => countRows(rt, s.manifest.tables, id)),
  ]);
  return {
    id,
    title: s.manifest.title,
    url: s.url,
    health: health.ok ? health.value : { ok: false, error: health.error },
    credentials: credentials.ok ? credentials.value : [],
    counts: counts.ok ? counts.value : {},
    requests: rt.inspector.usage()[id]?.recorded ?? 0,
    descriptions: descriptions(s),
  };
}

/** The service's machine-readable descriptions, where its listener serves them. */
function descriptions(s: RunningService): Array<{ label: string; url: string }> {
  const served = [
    { label: 'OpenAPI', path: '/openapi.json' },
    { label: 'Discovery', path: '/$discovery/rest' },
  ].filter((d) => s.app.hasRoute({ method: 'GET', url: d.path }));
  return served.map((d) => ({ label: d.label, url: `${s.url}${d.path}` }));
}

/** Rows per table, named without the service prefix ("payments_transactions" shows as "transactions"). */
async function countRows(rt: Runtime, tables: string[], id: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of [...tables].sort()) {
    const row = await rt.db.kysely.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
    out[table.startsWith(`${id}_`) ? table.slice(id.length + 1) : table] = Number(row?.n ?? 0);
  }
  return out;
}

async function settle<T>(fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
