// children.* and parents.*: the folder graph seen from either end. Adding or removing a reference moves the file,
// with the same rules as addParents/removeParents.
import type { FastifyInstance } from 'fastify';
import { decodePageToken, encodePageToken } from '../../../core/google/index.ts';
import { parseOrderBy } from '../domain/order-by.ts';
import type { QueryNode } from '../domain/query/index.ts';
import { notFoundOf, invalidValue, requiredValue } from '../errors.ts';
import { updateFile } from '../ops/files.ts';
import { childJson, parentJson, API_PATH } from '../resources.ts';
import type { FilesService } from '../service.ts';
import { parentsOf } from '../store/files.ts';
import { listQuery, listRows } from '../store/list.ts';
import { callerOf, parseQuery, updateOptions } from './files.ts';
import { Query, nextLink, objectBody, params, route } from './http.ts';
import { FOLDER_SCHEMAS } from './schemas/folders.ts';
import type { Caller } from '../users.ts';
import type { FastifyRequest } from 'fastify';

function referenceId(req: FastifyRequest): string {
  const id = objectBody(req).id;
  if (id === undefined || id === null || id === '') throw requiredValue('id', 'Required: id');
  if (typeof id !== 'string' || id.length > 128) throw invalidValue('id');
  return id;
}

/** Moves `childId` into or out of `folderId` as the caller (the child needs writer access). */
async function relink(svc: FilesService, caller: Caller, req: FastifyRequest, childId: string, folderId: string, add: boolean): Promise<void> {
  const q = new Query(req);
  const options = { ...updateOptions(q), addParents: add ? [folderId] : [], removeParents: add ? [] : [folderId], updateViewedDate: false, modifiedDateBehavior: 'noChange' as const };
  await svc.write(caller, async (u) => {
    const { file, role } = await svc.access(u.tx, caller, childId, { need: 'writer', supportsAllDrives: q.allDrives });
    if (!add) {
      const parents = (await parentsOf(u.tx, [file.id])).get(file.id) ?? [];
      if (!parents.includes(svc.resolveId(caller, folderId))) throw notFoundOf('Parent', folderId, 'parentId');
    }
    await updateFile(u, file, role, {}, undefined, options);
  });
}

export function folderRoutes(app: FastifyInstance, svc: FilesService): void {
  const base = () => svc.ctx.baseUrl;

  route(app, 'GET', '/files/:folderId/children', FOLDER_SCHEMAS.listChildren, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const q = new Query(req);
    const { file: folder } = await svc.access(svc.db, caller, params(req).folderId, { supportsAllDrives: q.allDrives });
    const limit = q.int('maxResults', 100, 0, 1000) || 100;
    const text = q.string('q');
    const key = JSON.stringify(['children', caller.email, folder.id, text ?? '', q.string('orderBy') ?? '', limit]);
    const token = q.string('pageToken');
    const offset = token ? decodePageToken<number>(token, key) : 0;
    const inFolder: QueryNode = { kind: 'in', collection: 'parents', value: folder.id };
    const query: QueryNode = text && text.trim() ? { kind: 'and', operands: [inFolder, parseQuery(text)] } : inFolder;
    const rows = await svc.ctx.db.heavyRead(
      listQuery(svc.db, { caller, now: svc.now(), query, order: parseOrderBy(q.string('orderBy')), corpus: { kind: 'allDrives' }, spaces: [folder.space], offset, limit }),
    );
    const out: Record<string, unknown> = {
      kind: 'drive#childList',
      selfLink: `${base()}${API_PATH}/files/${folder.id}/children`,
      items: listRows(rows.slice(0, limit)).map((f) => childJson(base(), folder.id, f.id)),
    };
    if (rows.length > limit) {
      const next = encodePageToken(offset + limit, key);
      Object.assign(out, { nextPageToken: next, nextLink: nextLink(`${base()}${API_PATH}/files/${folder.id}/children`, req, next) });
    }
    return out;
  });

  route(app, 'GET', '/files/:folderId/children/:childId', FOLDER_SCHEMAS.getChild, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const { folderId, childId } = params(req);
    const { file: folder } = await svc.access(svc.db, caller, folderId, { supportsAllDrives: true });
    const { file: child } = await svc.access(svc.db, caller, childId, { supportsAllDrives: true });
    if (!((await parentsOf(svc.db, [child.id])).get(child.id) ?? []).includes(folder.id)) throw notFoundOf('Child', childId, 'childId');
    return childJson(base(), folder.id, child.id);
  });

  route(app, 'POST', '/files/:folderId/children', FOLDER_SCHEMAS.insertChild, async (req) => {
    const caller = await callerOf(svc, req, 'write');
    const childId = referenceId(req);
    const folderId = svc.resolveId(caller, params(req).folderId);
    await relink(svc, caller, req, childId, folderId, true);
    return childJson(base(), folderId, svc.resolveId(caller, childId));
  });

  route(app, 'DELETE', '/files/:folderId/children/:childId', FOLDER_SCHEMAS.deleteChild, async (req, reply) => {
    const caller = await callerOf(svc, req, 'write');
    await relink(svc, caller, req, params(req).childId, svc.resolveId(caller, params(req).folderId), false);
    return reply.code(204).send();
  });

  route(app, 'GET', '/files/:fileId/parents', FOLDER_SCHEMAS.listParents, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: new Query(req).allDrives });
    const parents = (await parentsOf(svc.db, [file.id])).get(file.id) ?? [];
    return { kind: 'drive#parentList', selfLink: `${base()}${API_PATH}/files/${file.id}/parents`, items: parents.map((p) => parentJson(base(), file.id, p, caller.rootId)) };
  });

  route(app, 'GET', '/files/:fileId/parents/:parentId', FOLDER_SCHEMAS.getParent, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: new Query(req).allDrives });
    const parentId = svc.resolveId(caller, params(req).parentId);
    if (!((await parentsOf(svc.db, [file.id])).get(file.id) ?? []).includes(parentId)) throw notFoundOf('Parent', params(req).parentId, 'parentId');
    return parentJson(base(), file.id, parentId, caller.rootId);
  });

  route(app, 'POST', '/files/:fileId/parents', FOLDER_SCHEMAS.insertParent, async (req) => {
    const caller = await callerOf(svc, req, 'write');
    const parentId = svc.resolveId(caller, referenceId(req));
    await relink(svc, caller, req, params(req).fileId, parentId, true);
    return parentJson(base(), svc.resolveId(caller, params(req).fileId), parentId, caller.rootId);
  });

  route(app, 'DELETE', '/files/:fileId/parents/:parentId', FOLDER_SCHEMAS.deleteParent, async (req, reply) => {
    const caller = await callerOf(svc, req, 'write');
    await relink(svc, caller, req, params(req).fileId, svc.resolveId(caller, params(req).parentId), false);
    return reply.code(204).send();
  });
}
