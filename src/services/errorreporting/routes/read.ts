// groupStats.list, events.list and deleteEvents, for a project and for a location of it (the regional twins), each
// under the literal path and the form whose slashes were percent-encoded.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { documented } from '../../../core/http/documented.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { checkLocation, checkProjectId, holdsEvents, scopeFromName, type Scope } from '../domain/project.ts';
import { readEventsQuery, readGroupStatsQuery } from '../domain/query.ts';
import { listEvents, listGroupStats } from '../read-model.ts';
import type { ErrorStore } from '../store.ts';
import { googleQuery } from '../../../core/google/query-schema.ts';
import { READ_RULE, authorise } from './auth.ts';
import { LocationParams, ProjectNameParams, ProjectParams } from './schemas/common.ts';
import { EventsQuery, GroupStatsQuery } from './schemas/read.ts';

type P = { projectId?: string; location?: string; projectName?: string };

const PREFIXES = ['/v1beta1/projects/:projectId', '/v1beta1/projects/:projectId/locations/:location', '/v1beta1/:projectName'];

/** The documented path parameters under a prefix; `wildcard` where the `-` location is accepted. */
const paramsOf = (prefix: string, wildcard: boolean) =>
  prefix.endsWith(':location') ? LocationParams(wildcard) : prefix.endsWith(':projectName') ? ProjectNameParams(true) : ProjectParams;

export function readRoutes(app: FastifyInstance, ctx: ServiceContext, store: ErrorStore): void {
  /** The scope of a request; the `-` location wildcard only for the list methods. */
  const scopeOf = (req: FastifyRequest, wildcard: boolean): Scope => {
    const p = req.params as P;
    if (p.projectName !== undefined) return scopeFromName(p.projectName, wildcard);
    const projectId = checkProjectId(p.projectId!);
    return p.location === undefined ? { projectId } : { projectId, location: checkLocation(p.location, wildcard) };
  };
  const query = (req: FastifyRequest) => req.query as Record<string, unknown>;

  for (const prefix of PREFIXES) {
    app.get(`${prefix}/groupStats`, documented({ params: paramsOf(prefix, true), querystring: GroupStatsQuery }), async (req) => {
      await authorise(req, ctx, READ_RULE);
      const scope = scopeOf(req, true);
      return listGroupStats(store, scope, readGroupStatsQuery(query(req), ctx.clock.now()));
    });
    app.get(`${prefix}/events`, documented({ params: paramsOf(prefix, true), querystring: EventsQuery }), async (req) => {
      await authorise(req, ctx, READ_RULE);
      const scope = scopeOf(req, true);
      return listEvents(store, scope, readEventsQuery(query(req), ctx.clock.now()));
    });
    app.delete(`${prefix}/events`, documented({ params: paramsOf(prefix, false), querystring: googleQuery({}, { unknownParameters: 'ignored' }) }), async (req) => {
      await authorise(req, ctx, READ_RULE);
      const scope = scopeOf(req, false);
      if (holdsEvents(scope)) await store.deleteEvents(scope.projectId);
      return {};
    });
  }
}
