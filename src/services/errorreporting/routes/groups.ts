// groups.get and groups.update (a PUT that replaces the resolution status and tracking issues of an existing group).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidArgument, notFound } from '../../../core/google/index.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { isGroupId } from '../domain/fingerprint.ts';
import { readGroupUpdate } from '../domain/group-update.ts';
import { checkProjectId, groupFromName, groupName } from '../domain/project.ts';
import { errorGroupJson } from '../read-model.ts';
import type { ErrorStore } from '../store.ts';
import { READ_RULE, authorise } from './auth.ts';

type P = { projectId?: string; groupId?: string; groupName?: string };

export function groupRoutes(app: FastifyInstance, ctx: ServiceContext, store: ErrorStore): void {
  const groupOf = (req: FastifyRequest) => {
    const p = req.params as P;
    const ref = p.groupName !== undefined ? groupFromName(p.groupName) : { projectId: checkProjectId(p.projectId!), groupId: p.groupId! };
    if (!isGroupId(ref.groupId)) throw invalidArgument(`Invalid group id: "${ref.groupId}".`, 'groupName');
    return ref;
  };
  const missing = (projectId: string, groupId: string) => notFound(`Group ${groupName(projectId, groupId)} was not found.`);

  for (const path of ['/v1beta1/projects/:projectId/groups/:groupId', '/v1beta1/:groupName']) {
    app.get(path, async (req) => {
      await authorise(req, ctx, READ_RULE);
      const { projectId, groupId } = groupOf(req);
      const group = await store.group(projectId, groupId);
      if (!group) throw missing(projectId, groupId);
      return errorGroupJson(group);
    });
    app.put(path, async (req) => {
      await authorise(req, ctx, READ_RULE);
      const { projectId, groupId } = groupOf(req);
      const update = readGroupUpdate(req.body, groupName(projectId, groupId), groupId);
      if (!(await store.updateGroup(projectId, groupId, update.resolutionStatus, update.trackingIssues, ctx.clock.now()))) {
        throw missing(projectId, groupId);
      }
      return errorGroupJson((await store.group(projectId, groupId))!);
    });
  }
}
