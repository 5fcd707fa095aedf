// The control plane on its own port: health, reset, clock, outbox and jobs, principals, and each service's admin routes.
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { createListener } from '../core/http/listener.ts';
import type { Runtime } from '../core/runtime.ts';
import type { ServiceId } from '../core/service.ts';
import { archiveRoutes } from './archive.ts';
import { clockRoutes } from './clock.ts';
import { consoleRoutes } from './console/index.ts';
import { adminError, installAdminErrors } from './errors.ts';
import { healthRoutes } from './health.ts';
import { outboxRoutes } from './outbox.ts';
import { principalRoutes } from './principals.ts';

export async function buildAdmin(rt: Runtime): Promise<FastifyInstance> {
  const app = createListener({ name: 'admin', log: rt.log, limits: rt.options.listenerLimits });
  installAdminErrors(app);
  healthRoutes(app, rt);
  clockRoutes(app, rt);
  outboxRoutes(app, rt);
  principalRoutes(app, rt);
  archiveRoutes(app, rt);
  consoleRoutes(app, rt);
  app.post(
    '/reset',
    { schema: { body: Type.Optional(Type.Object({ service: Type.Optional(Type.String()) }, { additionalProperties: false })) } },
    async (req) => {
      const service = (req.body as { service?: string } | undefined)?.service;
      if (service !== undefined && !rt.services.has(service as ServiceId)) throw adminError(404, `service ${service} is not running`);
      return { reset: await rt.reset(service as ServiceId | undefined) };
    },
  );
  for (const [id, s] of rt.services) {
    if (s.manifest.admin) await app.register(async (scope) => s.manifest.admin!(scope, s.ctx), { prefix: `/services/${id}` });
  }
  return app;
}
