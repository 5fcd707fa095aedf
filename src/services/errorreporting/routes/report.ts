// POST /v1beta1/projects/{projectId}/events:report, also reachable with the slash of `{+projectName}` or the colon of
// `:report` percent-encoded.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../../../core/google/index.ts';
import { documented } from '../../../core/http/documented.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { isAnalysable } from '../domain/log-bucket.ts';
import { checkProjectId, scopeFromName } from '../domain/project.ts';
import { acceptReport } from '../domain/report.ts';
import type { ErrorStore } from '../store.ts';
import { googleQuery } from '../../../core/google/query-schema.ts';
import { REPORT_RULE, authorise } from './auth.ts';
import { ProjectNameParams, ProjectParams } from './schemas/common.ts';
import { ReportedErrorEvent } from './schemas/event.ts';

type P = { projectId: string; projectName: string; method: string };

/** Reports are project-wide: the real API has no location-scoped report, so a location in the name is a 404. */
function projectOnly(name: string): string {
  const scope = scopeFromName(name, false);
  if (scope.location !== undefined) throw notFound(`The requested URL /v1beta1/${name}/events:report was not found on this server.`);
  return scope.projectId;
}

const querystring = googleQuery({}, { unknownParameters: 'ignored' });
const byProject = documented({ params: ProjectParams, querystring, body: ReportedErrorEvent });
const byName = documented({ params: ProjectNameParams(false), querystring, body: ReportedErrorEvent });
const byEncodedColon = documented({
  params: Type.Object({ ...ProjectParams.properties, method: Type.String({ description: 'events:report, its colon percent-encoded (events%3Areport).' }) }),
  querystring,
  body: ReportedErrorEvent,
});

export function reportRoutes(app: FastifyInstance, ctx: ServiceContext, store: ErrorStore): void {
  const report = async (req: FastifyRequest, project: () => string) => {
    await authorise(req, ctx, REPORT_RULE);
    const projectId = project();
    const now = ctx.clock.now();
    const event = acceptReport(req.body, now);
    const bucket = await store.logBucket(projectId);
    await store.record(projectId, event, isAnalysable(projectId, bucket), now);
    return {};
  };

  app.post('/v1beta1/projects/:projectId/events::report', byProject, (req) => report(req, () => checkProjectId((req.params as P).projectId)));
  app.post('/v1beta1/:projectName/events::report', byName, (req) => report(req, () => projectOnly((req.params as P).projectName)));
  app.post('/v1beta1/projects/:projectId/:method', byEncodedColon, async (req) => {
    const { projectId, method } = req.params as P;
    if (method !== 'events:report') throw notFound(`The requested URL ${req.url.split('?')[0]} was not found on this server.`);
    return report(req, () => checkProjectId(projectId));
  });
}
