// Rows of files_comments and files_replies.
import type { Kysely } from 'kysely';

export interface CommentRecord {
  id: string;
  fileId: string;
  authorEmail: string;
  content: string;
  status: 'open' | 'resolved';
  anchor: string | null;
  context: { type?: string; value?: string } | null;
  deleted: boolean;
  createdAt: number;
  modifiedAt: number;
}

export interface ReplyRecord {
  id: string;
  commentId: string;
  authorEmail: string;
  content: string;
  verb: 'resolve' | 'reopen' | null;
  deleted: boolean;
  createdAt: number;
  modifiedAt: number;
}

const toComment = (r: any): CommentRecord => ({
  id: r.id,
  fileId: r.file_id,
  authorEmail: r.author_email,
  content: r.content,
  status: r.status,
  anchor: r.anchor ?? null,
  context: r.context ? JSON.parse(r.context) : null,
  deleted: Number(r.deleted) === 1,
  createdAt: Number(r.created_at),
  modifiedAt: Number(r.modified_at),
});

const toReply = (r: any): ReplyRecord => ({
  id: r.id,
  commentId: r.comment_id,
  authorEmail: r.author_email,
  content: r.content,
  verb: r.verb ?? null,
  deleted: Number(r.deleted) === 1,
  createdAt: Number(r.created_at),
  modifiedAt: Number(r.modified_at),
});

export async function listComments(db: Kysely<any>, fileId: string, opts: { includeDeleted: boolean; updatedMin?: number; after?: string; limit: number }): Promise<CommentRecord[]> {
  let q = db.selectFrom('files_comments').selectAll().where('file_id', '=', fileId);
  if (!opts.includeDeleted) q = q.where('deleted', '=', 0);
  if (opts.updatedMin !== undefined) q = q.where('modified_at', '>=', opts.updatedMin);
  if (opts.after) q = q.where('id', '>', opts.after);
  return (await q.orderBy('id').limit(opts.limit).execute()).map(toComment);
}

export async function getComment(db: Kysely<any>, fileId: string, id: string): Promise<CommentRecord | undefined> {
  const row = await db.selectFrom('files_comments').selectAll().where('file_id', '=', fileId).where('id', '=', id).executeTakeFirst();
  return row ? toComment(row) : undefined;
}

export async function saveComment(tx: Kysely<any>, c: CommentRecord): Promise<void> {
  const values = { content: c.content, status: c.status, anchor: c.anchor, context: c.context ? JSON.stringify(c.context) : null, deleted: c.deleted ? 1 : 0, modified_at: c.modifiedAt };
  await tx
    .insertInto('files_comments')
    .values({ id: c.id, file_id: c.fileId, author_email: c.authorEmail, created_at: c.createdAt, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

export async function listReplies(db: Kysely<any>, commentIds: string[], opts: { includeDeleted: boolean; after?: string; limit?: number }): Promise<ReplyRecord[]> {
  if (commentIds.length === 0) return [];
  let q = db.selectFrom('files_replies').selectAll().where('comment_id', 'in', commentIds);
  if (!opts.includeDeleted) q = q.where('deleted', '=', 0);
  if (opts.after) q = q.where('id', '>', opts.after);
  q = q.orderBy('id');
  if (opts.limit) q = q.limit(opts.limit);
  return (await q.execute()).map(toReply);
}

export async function getReply(db: Kysely<any>, commentId: string, id: string): Promise<ReplyRecord | undefined> {
  const row = await db.selectFrom('files_replies').selectAll().where('comment_id', '=', commentId).where('id', '=', id).executeTakeFirst();
  return row ? toReply(row) : undefined;
}

export async function saveReply(tx: Kysely<any>, r: ReplyRecord): Promise<void> {
  const values = { content: r.content, verb: r.verb, deleted: r.deleted ? 1 : 0, modified_at: r.modifiedAt };
  await tx
    .insertInto('files_replies')
    .values({ id: r.id, comment_id: r.commentId, author_email: r.authorEmail, created_at: r.createdAt, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}
