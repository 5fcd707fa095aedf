// groups.get and groups.update (a PUT that replaces the resolution status and tracking issues of an existing group),
// for a project and for a location of it.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidArgument, notFound } from '../../../core/google/index.ts';
import { documented } from '../../../core/http/documented.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { isGroupId } from '../domain/fingerprint.ts';
import { readGroupUpdate } from '../domain/group-update.ts';
import { checkLocation, checkProjectId, groupFromName, groupName, groupNames, holdsEvents, type Scope } from '../domain/project.ts';
import { errorGroupJson } from '../read-model.ts';
import type { ErrorStore } from '../store.ts';
import { googleQuery } from '../../../core/google/query-schema.ts';
import { READ_RULE, authorise } from './auth.ts';

import { ErrorGroup, GROUP_PATH_PARAMS } from './schemas/group.ts';

type P = { projectId?: string; location?: string; groupId?: string; groupName?: string };

const PATHS = ['/v1beta1/projects/:projectId/groups/:groupId', '/v1beta1/projects/:projectId/locations/:location/groups/:groupId', '/v1beta1/:groupName'];

export function groupRoutes(app: FastifyInstance, ctx: ServiceContext, store: ErrorStore): void {
  const groupOf = (req: FastifyRequest): Scope & { groupId: string } => {
    const p = req.params as P;
    let ref: Scope & { groupId: string };
    if (p.groupName !== undefined) ref = groupFromName(p.groupName);
    else {
      const projectId = checkProjectId(p.projectId!);
      ref = p.location === undefined ? { projectId, groupId: p.groupId! } : { projectId, location: checkLocation(p.location, false), groupId: p.groupId! };
    }
    if (!isGroupId(ref.groupId)) throw invalidArgument(`Invalid group id: "${ref.groupId}".`, 'groupName');
    return ref;
  };
  const missing = (ref: Scope & { groupId: string }) => notFound(`Group ${groupName(ref, ref.groupId)} was not found.`);
  // Groups live in the home location only; another location has none.
  const find = async (ref: Scope & { groupId: string }) => (holdsEvents(ref) ? store.group(ref.projectId, ref.groupId) : undefined);

  const query = googleQuery({}, { unknownParameters: 'ignored' });
  PATHS.forEach((path, i) => {
    const params = GROUP_PATH_PARAMS[i];
    app.get(path, documented({ params, querystring: query }), async (req) => {
      await authorise(req, ctx, READ_RULE);
      const ref = groupOf(req);
      const group = await find(ref);
      if (!group) throw missing(ref);
      return errorGroupJson(group, ref);
    });
    app.put(path, documented({ params, querystring: query, body: ErrorGroup }), async (req) => {
      await authorise(req, ctx, READ_RULE);
      const ref = groupOf(req);
      // A group read through one form of the path may be written back through the other.
      const update = readGroupUpdate(req.body, groupNames(ref, ref.groupId), ref.groupId);
      if (!holdsEvents(ref) || !(await store.updateGroup(ref.projectId, ref.groupId, update.resolutionStatus, update.trackingIssues, ctx.clock.now()))) {
        throw missing(ref);
      }
      return errorGroupJson((await store.group(ref.projectId, ref.groupId))!, ref);
    });
  });
}
