// comments.* and replies.*: discussions on a file. Commenters and above write; only an author edits their own
// words; a reply's verb resolves or reopens its comment.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { newCommentId } from '../domain/ids.ts';
import { atLeast } from '../domain/roles.ts';
import { forbidden, invalidValue, notFoundOf, requiredValue } from '../errors.ts';
import { API_PATH, iso, userJson } from '../resources.ts';
import type { FilesService } from '../service.ts';
import { getComment, getReply, listComments, listReplies, saveComment, saveReply, type CommentRecord, type ReplyRecord } from '../store/comments.ts';
import type { Caller } from '../users.ts';
import { callerOf } from './files.ts';
import { Query, nextLink, objectBody, params, route } from './http.ts';
import { COMMENT_SCHEMAS, MAX_COMMENT } from './schemas/comments.ts';

const escapeHtml = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function readContent(body: Record<string, unknown>, required: boolean): string | undefined {
  const c = body.content;
  if (c === undefined || c === null) {
    if (required) throw requiredValue('content', 'Comment content is required.');
    return undefined;
  }
  if (typeof c !== 'string' || (required && c.trim() === '')) throw invalidValue('content', 'Invalid value for content.');
  if (c.length > MAX_COMMENT) throw invalidValue('content', `Comment content must be at most ${MAX_COMMENT} characters.`);
  return c;
}

/**
 * A page read with one row beyond `limit`; the last id shown is where the next page starts (ids sort by creation).
 * `nextLink` is the request repeated with that token, as files.list gives it.
 */
async function cursorPage<T extends { id: string }>(kind: string, req: FastifyRequest, selfLink: string, rows: T[], limit: number, render: (row: T) => Promise<unknown>) {
  const page = rows.slice(0, limit);
  const out: Record<string, unknown> = { kind, selfLink, items: await Promise.all(page.map(render)) };
  if (rows.length > limit) {
    out.nextPageToken = page.at(-1)!.id;
    out.nextLink = nextLink(selfLink, req, page.at(-1)!.id);
  }
  return out;
}

export function commentRoutes(app: FastifyInstance, svc: FilesService): void {
  const base = () => svc.ctx.baseUrl;
  /** What comments and replies share: author, words (blank once deleted) and dates. */
  const written = async (w: CommentRecord | ReplyRecord, caller: Caller) => ({
    author: userJson(await svc.users.describe(w.authorEmail), caller),
    content: w.deleted ? '' : w.content,
    htmlContent: w.deleted ? '' : escapeHtml(w.content),
    createdDate: iso(w.createdAt),
    modifiedDate: iso(w.modifiedAt),
    deleted: w.deleted,
  });
  const replyJson = async (fileId: string, r: ReplyRecord, caller: Caller) => ({
    kind: 'drive#commentReply',
    replyId: r.id,
    selfLink: `${base()}${API_PATH}/files/${fileId}/comments/${r.commentId}/replies/${r.id}`,
    ...(await written(r, caller)),
    ...(r.verb ? { verb: r.verb } : {}),
  });
  const commentJson = async (c: CommentRecord, caller: Caller, title: string, includeDeleted: boolean) => ({
    kind: 'drive#comment',
    commentId: c.id,
    fileId: c.fileId,
    fileTitle: title,
    selfLink: `${base()}${API_PATH}/files/${c.fileId}/comments/${c.id}`,
    ...(await written(c, caller)),
    status: c.status,
    ...(c.anchor ? { anchor: c.anchor } : {}),
    ...(c.context ? { context: c.context } : {}),
    replies: await Promise.all((await listReplies(svc.db, [c.id], { includeDeleted })).map((r) => replyJson(c.fileId, r, caller))),
  });
  const commentOf = async (db: any, fileId: string, req: FastifyRequest) => {
    const c = await getComment(db, fileId, params(req).commentId);
    if (!c) throw notFoundOf('Comment', params(req).commentId, 'commentId');
    return c;
  };
  const replyOf = async (db: any, commentId: string, req: FastifyRequest) => {
    const r = await getReply(db, commentId, params(req).replyId);
    if (!r) throw notFoundOf('Reply', params(req).replyId, 'replyId');
    return r;
  };
  const authorOnly = (caller: Caller, email: string) => {
    if (caller.email !== email) throw forbidden('Only the author can change a comment or reply.', 'insufficientPermissions');
  };

  route(app, 'GET', '/files/:fileId/comments', COMMENT_SCHEMAS.list, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const q = new Query(req);
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: true });
    const limit = q.int('maxResults', 20, 0, 100) || 20;
    const includeDeleted = q.bool('includeDeleted', false);
    const updatedMinRaw = q.string('updatedMin');
    const updatedMin = updatedMinRaw ? Date.parse(updatedMinRaw) : undefined;
    if (updatedMin !== undefined && Number.isNaN(updatedMin)) throw invalidValue('updatedMin');
    const after = q.string('pageToken');
    const rows = await listComments(svc.db, file.id, { includeDeleted, updatedMin, after, limit: limit + 1 });
    return cursorPage('drive#commentList', req, `${base()}${API_PATH}/files/${file.id}/comments`, rows, limit, (c) => commentJson(c, caller, file.title, includeDeleted));
  });

  route(app, 'GET', '/files/:fileId/comments/:commentId', COMMENT_SCHEMAS.get, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: true });
    const c = await commentOf(svc.db, file.id, req);
    const includeDeleted = new Query(req).bool('includeDeleted', false);
    if (c.deleted && !includeDeleted) throw notFoundOf('Comment', c.id, 'commentId');
    return commentJson(c, caller, file.title, includeDeleted);
  });

  route(app, 'POST', '/files/:fileId/comments', COMMENT_SCHEMAS.insert, async (req) => {
    const caller = await callerOf(svc, req, 'write');
    const body = objectBody(req);
    const content = readContent(body, true)!;
    if (body.anchor !== undefined && (typeof body.anchor !== 'string' || body.anchor.length > 4096)) throw invalidValue('anchor');
    const context = body.context as { type?: unknown; value?: unknown } | undefined;
    if (context !== undefined && (typeof context !== 'object' || context === null || (context.type !== undefined && typeof context.type !== 'string') || (context.value !== undefined && typeof context.value !== 'string'))) {
      throw invalidValue('context');
    }
    const { c, title } = await svc.write(caller, async (u) => {
      const { file, role } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: true });
      if (!atLeast(role, 'commenter')) throw forbidden('The user does not have permission to comment on this file.', 'insufficientFilePermissions');
      const c: CommentRecord = { id: newCommentId(), fileId: file.id, authorEmail: caller.email, content, status: 'open', anchor: (body.anchor as string) ?? null, context: (context as CommentRecord['context']) ?? null, deleted: false, createdAt: u.now, modifiedAt: u.now };
      await u.touch(file.id, 'update', ['comments']);
      await saveComment(u.tx, c);
      return { c, title: file.title };
    });
    return commentJson(c, caller, title, false);
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    route(app, method, '/files/:fileId/comments/:commentId', method === 'PUT' ? COMMENT_SCHEMAS.update : COMMENT_SCHEMAS.patch, async (req) => {
      const caller = await callerOf(svc, req, 'write');
      const body = objectBody(req);
      const content = readContent(body, method === 'PUT');
      if (body.status !== undefined && body.status !== 'open' && body.status !== 'resolved') throw invalidValue('status');
      const { c, title } = await svc.write(caller, async (u) => {
        const { file } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: true });
        const c = await commentOf(u.tx, file.id, req);
        if (c.deleted) throw notFoundOf('Comment', c.id, 'commentId');
        authorOnly(caller, c.authorEmail);
        const next = { ...c, content: content ?? c.content, status: (body.status as CommentRecord['status']) ?? c.status, modifiedAt: u.now };
        await u.touch(file.id, 'update', ['comments']);
        await saveComment(u.tx, next);
        return { c: next, title: file.title };
      });
      return commentJson(c, caller, title, false);
    });
  }

  route(app, 'DELETE', '/files/:fileId/comments/:commentId', COMMENT_SCHEMAS.delete, async (req, reply) => {
    const caller = await callerOf(svc, req, 'write');
    await svc.write(caller, async (u) => {
      const { file, role } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: true });
      const c = await commentOf(u.tx, file.id, req);
      if (c.authorEmail !== caller.email && !atLeast(role, 'writer')) throw forbidden('Only the author or an editor can delete a comment.', 'insufficientPermissions');
      await u.touch(file.id, 'update', ['comments']);
      await saveComment(u.tx, { ...c, deleted: true, modifiedAt: u.now });
    });
    return reply.code(204).send();
  });

  route(app, 'GET', '/files/:fileId/comments/:commentId/replies', COMMENT_SCHEMAS.listReplies, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const q = new Query(req);
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: true });
    const c = await commentOf(svc.db, file.id, req);
    const limit = q.int('maxResults', 20, 0, 100) || 20;
    const rows = await listReplies(svc.db, [c.id], { includeDeleted: q.bool('includeDeleted', false), after: q.string('pageToken'), limit: limit + 1 });
    return cursorPage('drive#commentReplyList', req, `${base()}${API_PATH}/files/${file.id}/comments/${c.id}/replies`, rows, limit, (r) => replyJson(file.id, r, caller));
  });

  route(app, 'GET', '/files/:fileId/comments/:commentId/replies/:replyId', COMMENT_SCHEMAS.getReply, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: true });
    const c = await commentOf(svc.db, file.id, req);
    const r = await replyOf(svc.db, c.id, req);
    if (r.deleted && !new Query(req).bool('includeDeleted', false)) throw notFoundOf('Reply', r.id, 'replyId');
    return replyJson(file.id, r, caller);
  });

  route(app, 'POST', '/files/:fileId/comments/:commentId/replies', COMMENT_SCHEMAS.insertReply, async (req) => {
    const caller = await callerOf(svc, req, 'write');
    const body = objectBody(req);
    const verb = body.verb;
    if (verb !== undefined && verb !== 'resolve' && verb !== 'reopen') throw invalidValue('verb', `Invalid verb: ${String(verb)}`);
    const content = readContent(body, verb === undefined) ?? '';
    const r = await svc.write(caller, async (u) => {
      const { file, role } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: true });
      if (!atLeast(role, 'commenter')) throw forbidden('The user does not have permission to comment on this file.', 'insufficientFilePermissions');
      const c = await commentOf(u.tx, file.id, req);
      if (c.deleted) throw notFoundOf('Comment', c.id, 'commentId');
      const r: ReplyRecord = { id: newCommentId(), commentId: c.id, authorEmail: caller.email, content, verb: (verb as ReplyRecord['verb']) ?? null, deleted: false, createdAt: u.now, modifiedAt: u.now };
      await u.touch(file.id, 'update', ['comments']);
      await saveReply(u.tx, r);
      if (verb) await saveComment(u.tx, { ...c, status: verb === 'resolve' ? 'resolved' : 'open', modifiedAt: u.now });
      return { ...r, fileId: file.id };
    });
    return replyJson(r.fileId, r, caller);
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    route(app, method, '/files/:fileId/comments/:commentId/replies/:replyId', method === 'PUT' ? COMMENT_SCHEMAS.updateReply : COMMENT_SCHEMAS.patchReply, async (req) => {
      const caller = await callerOf(svc, req, 'write');
      const content = readContent(objectBody(req), method === 'PUT');
      const r = await svc.write(caller, async (u) => {
        const { file } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: true });
        const c = await commentOf(u.tx, file.id, req);
        const r = await replyOf(u.tx, c.id, req);
        if (r.deleted) throw notFoundOf('Reply', r.id, 'replyId');
        authorOnly(caller, r.authorEmail);
        const next = { ...r, content: content ?? r.content, modifiedAt: u.now };
        await u.touch(file.id, 'update', ['comments']);
        await saveReply(u.tx, next);
        return { ...next, fileId: file.id };
      });
      return replyJson(r.fileId, r, caller);
    });
  }

  route(app, 'DELETE', '/files/:fileId/comments/:commentId/replies/:replyId', COMMENT_SCHEMAS.deleteReply, async (req, reply) => {
    const caller = await callerOf(svc, req, 'write');
    await svc.write(caller, async (u) => {
      const { file, role } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: true });
      const c = await commentOf(u.tx, file.id, req);
      const r = await replyOf(u.tx, c.id, req);
      if (r.authorEmail !== caller.email && !atLeast(role, 'writer')) throw forbidden('Only the author or an editor can delete a reply.', 'insufficientPermissions');
      await u.touch(file.id, 'update', ['comments']);
      await saveReply(u.tx, { ...r, deleted: true, modifiedAt: u.now });
    });
    return reply.code(204).send();
  });
}
