// groupStats.list, events.list and deleteEvents, each under the literal `projects/{id}` path and the form whose
// slash was percent-encoded.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../../../core/service.ts';
import { checkProjectId, projectFromName } from '../domain/project.ts';
import { readEventsQuery, readGroupStatsQuery } from '../domain/query.ts';
import { listEvents, listGroupStats } from '../read-model.ts';
import type { ErrorStore } from '../store.ts';
import { READ_RULE, authorise } from './auth.ts';

type P = { projectId?: string; projectName?: string };

export function readRoutes(app: FastifyInstance, ctx: ServiceContext, store: ErrorStore): void {
  const projectOf = (req: FastifyRequest) => {
    const p = req.params as P;
    return p.projectId !== undefined ? checkProjectId(p.projectId) : projectFromName(p.projectName!);
  };
  const query = (req: FastifyRequest) => req.query as Record<string, unknown>;

  for (const prefix of ['/v1beta1/projects/:projectId', '/v1beta1/:projectName']) {
    app.get(`${prefix}/groupStats`, async (req) => {
      await authorise(req, ctx, READ_RULE);
      const projectId = projectOf(req);
      return listGroupStats(store, projectId, readGroupStatsQuery(query(req), ctx.clock.now()));
    });
    app.get(`${prefix}/events`, async (req) => {
      await authorise(req, ctx, READ_RULE);
      const projectId = projectOf(req);
      return listEvents(store, projectId, readEventsQuery(query(req), ctx.clock.now()));
    });
    app.delete(`${prefix}/events`, async (req) => {
      await authorise(req, ctx, READ_RULE);
      await store.deleteEvents(projectOf(req));
      return {};
    });
  }
}
