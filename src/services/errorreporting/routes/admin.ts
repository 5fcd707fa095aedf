// Admin routes (under /services/errorreporting on the admin listener): the log bucket settings of a project, and the
// log of everything a project reported, analysed or not.
import { type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../core/errors.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { defaultLogBucket } from '../domain/log-bucket.ts';
import { isProjectId } from '../domain/project.ts';
import { LogBucketBody, LogQuery } from '../schemas.ts';
import type { ErrorStore } from '../store.ts';

export function adminRoutes(app: FastifyInstance, ctx: ServiceContext, store: ErrorStore): void {
  const project = (params: unknown) => {
    const { projectId } = params as { projectId: string };
    if (!isProjectId(projectId)) throw new ApiError(400, `invalid project id ${JSON.stringify(projectId)}`);
    return projectId;
  };

  app.get('/projects/:projectId/log-bucket', async (req) => store.logBucket(project(req.params)));

  // Checked here rather than by the route schema, which would silently drop unknown fields.
  app.put('/projects/:projectId/log-bucket', async (req) => {
    const projectId = project(req.params);
    if (!Value.Check(LogBucketBody, req.body)) {
      const first = Value.Errors(LogBucketBody, req.body).First();
      throw new ApiError(400, `invalid log bucket settings: ${first ? `${first.path || '/'} ${first.message}` : 'expected an object'}`);
    }
    const body = req.body as Static<typeof LogBucketBody>;
    if (body.bucketProject !== undefined && !isProjectId(body.bucketProject)) {
      throw new ApiError(400, `invalid bucketProject ${JSON.stringify(body.bucketProject)}`);
    }
    const settings = { ...defaultLogBucket(projectId), ...body };
    await store.putLogBucket(projectId, settings, ctx.clock.now());
    return settings;
  });

  app.get('/projects/:projectId/log', { schema: { querystring: LogQuery } }, async (req) => {
    const projectId = project(req.params);
    const { limit } = req.query as Static<typeof LogQuery>;
    const [entries, total] = await Promise.all([store.log(projectId, limit ?? 100), store.logCount(projectId)]);
    return { total, entries: entries.map((e) => ({ ...e, receivedAt: new Date(e.receivedAt).toISOString() })) };
  });
}

