// revisions.*: every content change of a file. Pinned revisions are kept forever (at most 200 per file); the last
// remaining revision cannot be deleted, nor can a Workspace file's.
import type { FastifyInstance } from 'fastify';
import { isWorkspace } from '../domain/mime.ts';
import { badRequest, forbidden, invalidValue, notFoundOf } from '../errors.ts';
import { revisionJson, API_PATH } from '../resources.ts';
import type { FilesService } from '../service.ts';
import { saveFile } from '../store/files.ts';
import { deleteRevision, getRevision, listRevisions, updateRevisionFlags, type RevisionRecord } from '../store/revisions.ts';
import type { Caller } from '../users.ts';
import { callerOf } from './files.ts';
import { Query, objectBody, offsetPage, params, route } from './http.ts';
import { REVISION_SCHEMAS } from './schemas/revisions.ts';

const MAX_PINNED = 200;

export function revisionRoutes(app: FastifyInstance, svc: FilesService): void {
  const json = async (caller: Caller, r: RevisionRecord) => {
    const info = await svc.blobs.info(svc.db, r.blobHash);
    return revisionJson(svc, caller, r, { size: info?.size ?? 0, md5: info?.md5 ?? '' });
  };
  const notFound = (id: string) => notFoundOf('Revision', id, 'revisionId');
  const resolveRevision = (id: string, head: string | null) => (id === 'head' && head ? head : id);

  route(app, 'GET', '/files/:fileId/revisions', REVISION_SCHEMAS.list, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const q = new Query(req);
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: true });
    const limit = q.int('maxResults', 200, 1, 1000);
    const all = await listRevisions(svc.db, file.id);
    const page = await offsetPage(q, `revisions:${file.id}`, all, limit, (r) => json(caller, r));
    return { kind: 'drive#revisionList', selfLink: `${svc.ctx.baseUrl}${API_PATH}/files/${file.id}/revisions`, ...page };
  });

  route(app, 'GET', '/files/:fileId/revisions/:revisionId', REVISION_SCHEMAS.get, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: true });
    const r = await getRevision(svc.db, file.id, resolveRevision(params(req).revisionId, file.headRevisionId));
    if (!r) throw notFound(params(req).revisionId);
    return json(caller, r);
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    route(app, method, '/files/:fileId/revisions/:revisionId', REVISION_SCHEMAS.update, async (req) => {
      const caller = await callerOf(svc, req, 'write');
      const body = objectBody(req);
      for (const field of ['pinned', 'published', 'publishAuto', 'publishedOutsideDomain']) {
        if (body[field] !== undefined && typeof body[field] !== 'boolean') throw invalidValue(field, `Invalid value for ${field}: expected a boolean.`);
      }
      const saved = await svc.write(caller, async (u) => {
        const { file } = await svc.access(u.tx, caller, params(req).fileId, { need: 'writer', supportsAllDrives: true });
        const r = await getRevision(u.tx, file.id, resolveRevision(params(req).revisionId, file.headRevisionId));
        if (!r) throw notFound(params(req).revisionId);
        const pinned = (body.pinned as boolean | undefined) ?? r.pinned;
        if (pinned && !r.pinned && (await listRevisions(u.tx, file.id)).filter((x) => x.pinned).length >= MAX_PINNED) {
          throw forbidden(`A file can have at most ${MAX_PINNED} pinned revisions.`, 'pinnedRevisionsLimitReached');
        }
        const published = (body.published as boolean | undefined) ?? r.published;
        await u.touch(file.id, 'update', ['content']);
        await updateRevisionFlags(u.tx, file.id, r.id, { pinned, published });
        return { ...r, pinned, published };
      });
      return json(caller, saved);
    });
  }

  route(app, 'DELETE', '/files/:fileId/revisions/:revisionId', REVISION_SCHEMAS.delete, async (req, reply) => {
    const caller = await callerOf(svc, req, 'write');
    await svc.write(caller, async (u) => {
      const { file } = await svc.access(u.tx, caller, params(req).fileId, { need: 'writer', supportsAllDrives: true });
      if (isWorkspace(file.mimeType)) throw forbidden('Revisions of Docs Editors files cannot be deleted.', 'revisionDeletionNotSupported');
      const all = await listRevisions(u.tx, file.id);
      const r = all.find((x) => x.id === resolveRevision(params(req).revisionId, file.headRevisionId));
      if (!r) throw notFound(params(req).revisionId);
      if (all.length === 1) throw badRequest('The last remaining revision of a file cannot be deleted.', 'cannotDeleteLastRevision');
      await u.touch(file.id, 'update', ['content']);
      await deleteRevision(u.tx, file.id, r.id);
      await u.release(r.blobHash);
      if (r.id === file.headRevisionId) {
        const head = all.filter((x) => x.id !== r.id).at(-1)!;
        const info = (await svc.blobs.info(u.tx, head.blobHash))!;
        Object.assign(file, { headRevisionId: head.id, blobHash: head.blobHash, fileSize: info.size, md5: info.md5, mimeType: head.mimeType, version: file.version + 1 });
        await saveFile(u.tx, file);
      }
    });
    return reply.code(204).send();
  });
}
