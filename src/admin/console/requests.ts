// The request inspector over HTTP: GET /console/api/requests lists what is kept (filterable), and
// GET /console/api/requests/stream follows new requests as server-sent events (resuming after Last-Event-ID).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { matchesFilter, type InspectedRequest, type InspectorFilter } from '../../core/http/inspector.ts';
import type { Runtime } from '../../core/runtime.ts';

const Filter = Type.Object(
  {
    service: Type.Optional(Type.String()),
    method: Type.Optional(Type.String()),
    path: Type.Optional(Type.String()),
    status: Type.Optional(Type.String({ pattern: '^([1-5]xx|[1-5][0-9][0-9])?$' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
  },
  { additionalProperties: false },
);

/** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

export function requestRoutes(app: FastifyInstance, rt: Runtime): void {
  const streams = new Set<() => void>();
  // Open streams never go idle, so they are ended before the listener waits for its connections to close.
  app.addHook('preClose', async () => {
    for (const end of streams) end();
  });

  app.get('/console/api/requests', { schema: { querystring: Filter } }, async (req) => {
    const filter = req.query as Static<typeof Filter>;
    return { requests: rt.inspector.list({ ...filter, limit: filter.limit ?? 200 }), usage: rt.inspector.usage() };
  });

  app.get('/console/api/requests/stream', { schema: { querystring: Filter } }, (req, reply) => {
    const filter: InspectorFilter = { ...(req.query as Static<typeof Filter>) };
    const lastId = Number(req.headers['last-event-id']);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    const send = (e: InspectedRequest) => res.write(`id: ${e.seq}\nevent: request\ndata: ${JSON.stringify(e)}\n\n`);
    res.write('retry: 2000\n\n');
    if (Number.isInteger(lastId) && lastId > 0) for (const e of rt.inspector.list({ ...filter, afterSeq: lastId })) send(e);
    const unsubscribe = rt.inspector.subscribe((e) => {
      if (matchesFilter(e, filter)) send(e);
    });
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    const end = () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(end);
      res.end();
    };
    streams.add(end);
    req.raw.on('close', end);
  });
}
