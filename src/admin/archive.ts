// GET /archive streams an export of the running state; POST /archive imports one (the request body is the archive).
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { exportArchive, importArchive, selectManifests } from '../core/archive/index.ts';
import type { Runtime } from '../core/runtime.ts';
import type { ServiceId } from '../core/service.ts';
import { adminError } from './errors.ts';

const Query = Type.Object({ only: Type.Optional(Type.String({ pattern: '^[a-z]+(,[a-z]+)*$' })) }, { additionalProperties: false });
const ARCHIVE_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'];

const servicesOf = (query: unknown): ServiceId[] | undefined => (query as { only?: string }).only?.split(',') as ServiceId[] | undefined;

export function archiveRoutes(app: FastifyInstance, rt: Runtime): void {
  let importing = false;
  void app.register(async (scope) => {
    // The archive is read as it arrives, never held whole in memory.
    scope.addContentTypeParser(ARCHIVE_TYPES, (_req, payload, done) => done(null, payload));

    scope.get('/archive', { schema: { querystring: Query } }, async (req, reply) => {
      const services = servicesOf(req.query);
      selectManifests(rt, services); // refuses an unknown service before any byte is sent
      const body = new PassThrough();
      exportArchive(rt, body, { services }).catch((err) => {
        req.log.error({ err }, 'export failed');
        body.destroy(err as Error);
      });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      return reply
        .header('content-type', 'application/gzip')
        .header('content-disposition', `attachment; filename="twinstack-${stamp}.jsonl.gz"`)
        .header('cache-control', 'no-store')
        .send(body);
    });

    scope.post('/archive', { schema: { querystring: Query } }, async (req) => {
      if (!req.body) throw adminError(415, `send the archive as the request body (${ARCHIVE_TYPES[0]})`);
      if (importing) throw adminError(409, 'an import is already running');
      importing = true;
      const body = req.body as Readable;
      const input = new PassThrough();
      body.pipe(input);
      try {
        return { imported: await importArchive(rt, input, { services: servicesOf(req.query) }) };
      } finally {
        importing = false;
        // A refused archive is still read to its end, so the client gets the answer instead of a reset connection.
        if (!body.readableEnded) {
          body.unpipe(input);
          body.resume();
          await once(body, 'end');
        }
      }
    });
  });
}
