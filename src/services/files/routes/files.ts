// files.* metadata operations: get, insert (metadata only), update and patch (metadata), delete, copy, trash,
// untrash, touch, emptyTrash, generateIds and list.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { downloadFile } from './content.ts';
import { decodePageToken, encodePageToken } from '../../../core/google/index.ts';
import { readFilePatch, type FilePatch } from '../domain/file-input.ts';
import { newFileId } from '../domain/ids.ts';
import { DEFAULT_BINARY, isFolder } from '../domain/mime.ts';
import { parseOrderBy } from '../domain/order-by.ts';
import { DriveQueryError, parseDriveQuery, type QueryNode } from '../domain/query/index.ts';
import { atLeast } from '../domain/roles.ts';
import { badRequest, insufficientPermissions, invalidValue, spacesNotGranted } from '../errors.ts';
import { SPACES, readSpaces, type Space } from '../domain/spaces.ts';
import { emptyFileContent, type PreparedUpload } from '../ops/convert.ts';
import { createFile, MODIFIED_DATE_BEHAVIORS, updateFile, type NewContent, type UpdateOptions } from '../ops/files.ts';
import { checkTrashable, copyFile, deleteTree, emptyTrash, setTrashed, touchFile } from '../ops/lifecycle.ts';
import { etagOf } from '../domain/etag.ts';
import { API_PATH } from '../resources.ts';
import type { FilesService } from '../service.ts';
import { getFile } from '../store/files.ts';
import { listQuery, listRows, type ListRequest } from '../store/list.ts';
import { authenticate, type Caller, type ScopeNeed } from '../users.ts';
import { Query, header, nextLink, params, route } from './http.ts';
import { FILE_SCHEMAS } from './schemas/files.ts';
import { renderFile, renderFiles } from './render.ts';

export function updateOptions(q: Query): UpdateOptions {
  return {
    supportsAllDrives: q.allDrives,
    pinned: q.bool('pinned', false),
    addParents: q.list('addParents'),
    removeParents: q.list('removeParents'),
    newRevision: q.bool('newRevision', true),
    modifiedDateBehavior: q.string('modifiedDateBehavior') ? q.oneOf('modifiedDateBehavior', MODIFIED_DATE_BEHAVIORS, 'now') : undefined,
    setModifiedDate: q.bool('setModifiedDate', false),
    // Drive's default for update and patch: the update counts as a view by the caller.
    updateViewedDate: q.bool('updateViewedDate', true),
  };
}

/** A `q` parsed, or the Drive 400 (reason `invalid`, location `q`). */
export function parseQuery(text: string): QueryNode {
  try {
    return parseDriveQuery(text);
  } catch (err) {
    // The grammar's message already begins with "Invalid query".
    if (err instanceof DriveQueryError) throw invalidValue('q', err.message);
    throw err;
  }
}

/** The `spaces` a list reads (default `drive`); 403 when the credential's scopes do not reach one of them. */
export function grantedSpaces(caller: Caller, q: Query): Space[] {
  const spaces = readSpaces(q.list('spaces'), 'spaces');
  if (spaces.some((space) => !caller.spaces.has(space))) throw spacesNotGranted();
  return spaces;
}

/** The caller, authenticated, with their My Drive root in place. */
export async function callerOf(svc: FilesService, req: FastifyRequest, need: ScopeNeed): Promise<Caller> {
  const caller = await authenticate(req, svc.ctx, need);
  await svc.ensureRoot(caller);
  return caller;
}

/** Inserts a file from metadata and optional prepared content (shared by the JSON and upload routes). */
export async function insertWith(svc: FilesService, caller: Caller, q: Query, patch: FilePatch, content?: PreparedUpload) {
  const bytes = content ?? emptyFileContent(patch.mimeType ?? DEFAULT_BINARY);
  const options = { supportsAllDrives: q.allDrives, pinned: q.bool('pinned', false) };
  const run = (c?: NewContent) => svc.write(caller, (u) => createFile(u, patch, c, options));
  const file = bytes ? await svc.blobs.withContent(bytes.data, (blob) => run({ blob, mimeType: bytes.mimeType, text: bytes.text })) : await run();
  return renderFile(svc, caller, file);
}

/** Updates a file's metadata and optional prepared content (shared by the JSON and upload routes). */
export async function updateWith(svc: FilesService, caller: Caller, req: FastifyRequest, patch: FilePatch, content?: PreparedUpload) {
  const q = new Query(req);
  const options = updateOptions(q);
  const run = (c?: NewContent) =>
    svc.write(caller, async (u) => {
      const { file, role } = await svc.access(u.tx, caller, params(req).fileId, { need: 'writer', supportsAllDrives: options.supportsAllDrives, ifMatch: header(req, 'if-match') });
      return updateFile(u, file, role, patch, c, options);
    });
  const file = content ? await svc.blobs.withContent(content.data, (blob) => run({ blob, mimeType: content.mimeType, text: content.text })) : await run();
  return renderFile(svc, caller, file);
}

export function fileRoutes(app: FastifyInstance, svc: FilesService): void {
  route(app, 'GET', '/files/:fileId', FILE_SCHEMAS.get, async (req, reply) => {
    const q = new Query(req);
    if (req.google?.alt === 'media') return downloadFile(svc, req, reply);
    const caller = await callerOf(svc, req, 'read');
    const { file, role } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: q.allDrives });
    if (header(req, 'if-none-match') === etagOf(file.id, file.version)) return reply.code(304).send();
    if (q.bool('updateViewedDate', false)) {
      await svc.write(caller, async (u) => {
        await u.tx.insertInto('files_views').values({ file_id: file.id, email: caller.email, viewed_at: u.now }).onConflict((oc) => oc.columns(['file_id', 'email']).doUpdateSet({ viewed_at: u.now })).execute();
      });
    }
    return renderFile(svc, caller, file, role);
  });

  route(app, 'POST', '/files', FILE_SCHEMAS.insert, async (req) => {
    const caller = await callerOf(svc, req, 'write');
    const q = new Query(req);
    return insertWith(svc, caller, q, readFilePatch(req.body));
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    route(app, method, '/files/:fileId', FILE_SCHEMAS.update, async (req) => {
      const caller = await callerOf(svc, req, 'writeMetadata');
      return updateWith(svc, caller, req, readFilePatch(req.body));
    });
  }

  route(app, 'DELETE', '/files/trash', FILE_SCHEMAS.emptyTrash, async (req, reply) => {
    const caller = await callerOf(svc, req, 'write');
    const q = new Query(req);
    const driveId = q.string('driveId');
    await svc.write(caller, async (u) => {
      if (driveId) await svc.access(u.tx, caller, driveId, { need: 'organizer', supportsAllDrives: true });
      await emptyTrash(u, driveId);
    });
    return reply.code(204).send();
  });

  route(app, 'DELETE', '/files/:fileId', FILE_SCHEMAS.delete, async (req, reply) => {
    const caller = await callerOf(svc, req, 'write');
    const q = new Query(req);
    await svc.write(caller, async (u) => {
      const { file, role } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: q.allDrives, ifMatch: header(req, 'if-match') });
      if (file.isRoot || (file.driveId && file.id === file.driveId)) throw badRequest('The root folder cannot be deleted.', 'cannotDeleteRoot');
      if (file.driveId ? !atLeast(role, 'organizer') : role !== 'owner') throw insufficientPermissions();
      await deleteTree(u, file.id);
    });
    return reply.code(204).send();
  });

  route(app, 'POST', '/files/:fileId/copy', FILE_SCHEMAS.copy, async (req) => {
    const caller = await callerOf(svc, req, 'write');
    const q = new Query(req);
    const patch = readFilePatch(req.body);
    const file = await svc.write(caller, async (u) => {
      const { file: source, role } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: q.allDrives });
      if (isFolder(source.mimeType)) throw badRequest('Folders cannot be copied.', 'cannotCopyFolder');
      if (source.extra.copyRequiresWriterPermission === true && !atLeast(role, 'writer')) throw insufficientPermissions('The file cannot be copied by readers.');
      return copyFile(u, source, patch, { supportsAllDrives: q.allDrives, pinned: q.bool('pinned', false) });
    });
    return renderFile(svc, caller, file);
  });

  for (const [action, trashed] of [['trash', true], ['untrash', false]] as const) {
    route(app, 'POST', `/files/:fileId/${action}`, FILE_SCHEMAS.trash, async (req) => {
      const caller = await callerOf(svc, req, 'write');
      const q = new Query(req);
      const file = await svc.write(caller, async (u) => {
        const { file, role } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: q.allDrives, ifMatch: header(req, 'if-match') });
        checkTrashable(file, role);
        await setTrashed(u, file, trashed);
        return (await getFile(u.tx, file.id))!;
      });
      return renderFile(svc, caller, file);
    });
  }

  route(app, 'POST', '/files/:fileId/touch', FILE_SCHEMAS.touch, async (req) => {
    const caller = await callerOf(svc, req, 'writeMetadata');
    const q = new Query(req);
    const file = await svc.write(caller, async (u) => {
      const { file } = await svc.access(u.tx, caller, params(req).fileId, { need: 'writer', supportsAllDrives: q.allDrives });
      return touchFile(u, file);
    });
    return renderFile(svc, caller, file);
  });

  route(app, 'GET', '/files/generateIds', FILE_SCHEMAS.generateIds, async (req) => {
    const caller = await callerOf(svc, req, 'write');
    const q = new Query(req);
    const count = q.int('maxResults', 10, 1, 1000);
    const space = q.oneOf('space', SPACES, 'drive');
    if (!caller.spaces.has(space)) throw spacesNotGranted('space');
    const ids = Array.from({ length: count }, newFileId);
    await svc.write(caller, async (u) => {
      await u.tx.insertInto('files_generated_ids').values(ids.map((id) => ({ id, email: caller.email, space, created_at: u.now }))).execute();
    });
    return { kind: 'drive#generatedIds', space, ids };
  });

  route(app, 'GET', '/files', FILE_SCHEMAS.list, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const q = new Query(req);
    return listFiles(svc, caller, q, req);
  });
}

async function listFiles(svc: FilesService, caller: Caller, q: Query, req: FastifyRequest) {
  const limit = q.int('maxResults', 100, 0, 1000) || 100;
  const text = q.string('q');
  const query = text !== undefined && text.trim() !== '' ? parseQuery(text) : undefined;
  const order = parseOrderBy(q.string('orderBy'));
  const corpora = q.oneOf('corpora', ['user', 'drive', 'domain', 'allDrives', 'default'] as const, 'default');
  q.oneOf('corpus', ['DEFAULT', 'DOMAIN'] as const, 'DEFAULT');
  q.oneOf('projection', ['BASIC', 'FULL'] as const, 'FULL');
  const spaces = grantedSpaces(caller, q);
  const includeDrives = q.bool('includeItemsFromAllDrives', false) || q.bool('includeTeamDriveItems', false);
  const driveId = q.string('driveId') ?? q.string('teamDriveId');
  let corpus: ListRequest['corpus'];
  if (corpora === 'drive' || driveId) {
    if (!driveId) throw invalidValue('driveId', 'The driveId parameter must be specified if and only if corpora is set to drive.');
    if (!includeDrives || !q.allDrives) throw invalidValue('includeItemsFromAllDrives', 'includeItemsFromAllDrives and supportsAllDrives must be true when corpora is drive.');
    await svc.access(svc.db, caller, driveId, { supportsAllDrives: true });
    corpus = { kind: 'drive', driveId };
  } else if (corpora === 'allDrives') {
    if (!includeDrives || !q.allDrives) throw invalidValue('includeItemsFromAllDrives', 'includeItemsFromAllDrives and supportsAllDrives must be true when corpora is allDrives.');
    corpus = { kind: 'allDrives' };
  } else {
    corpus = { kind: 'user', includeDrives: includeDrives && q.allDrives };
  }
  const key = JSON.stringify([caller.email, text ?? '', q.string('orderBy') ?? '', corpus, limit, spaces]);
  const token = q.string('pageToken');
  const offset = token ? decodePageToken<number>(token, key) : 0;
  if (!Number.isSafeInteger(offset) || offset < 0) throw invalidValue('pageToken', 'Invalid page token.');
  const request: ListRequest = { caller, now: svc.now(), query, order, corpus, spaces, offset, limit };
  const rows = await svc.ctx.db.heavyRead(listQuery(svc.db, request));
  const files = listRows(rows.slice(0, limit));
  const base = `${svc.ctx.baseUrl}${API_PATH}/files`;
  const items = await renderFiles(svc, caller, files);
  const out: Record<string, unknown> = {
    kind: 'drive#fileList',
    etag: etagOf(items.map((i) => i.etag).join(','), offset),
    selfLink: base + (req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : ''),
    incompleteSearch: false,
    items,
  };
  if (rows.length > limit) {
    out.nextPageToken = encodePageToken(offset + limit, key);
    out.nextLink = nextLink(base, req, out.nextPageToken as string);
  }
  return out;
}
