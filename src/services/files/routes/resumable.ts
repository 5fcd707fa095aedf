// Resumable uploads: a POST opens a session (metadata now, bytes later) answered with its URI in `Location`; PUTs
// to that URI carry chunks with `Content-Range` and are answered 308 with the `Range` received until the last one
// completes the insert or update. Sessions and received bytes are in the database, so an upload continues after
// a restart (or on another instance), until the session expires.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { GoogleError } from '../../../core/google/index.ts';
import { parseJsonBody } from '../../../core/http/json-body.ts';
import { readFilePatch } from '../domain/file-input.ts';
import { newUploadId } from '../domain/ids.ts';
import { normaliseMime } from '../domain/mime.ts';
import { parseContentRange } from '../domain/range.ts';
import { badRequest, invalidValue } from '../errors.ts';
import { prepareUpload } from '../ops/convert.ts';
import { createFile, updateFile } from '../ops/files.ts';
import type { FilesService } from '../service.ts';
import { callerOf, type Caller } from '../users.ts';
import type { Space } from '../domain/spaces.ts';
import { updateOptions } from './files.ts';
import { Query, header, params } from './http.ts';
import { renderFile } from './render.ts';
import { tooLarge } from './content.ts';

interface SessionRequest {
  principalId: string;
  /** The spaces the opening credential reached (sessions opened before spaces existed reach every one). */
  spaces?: Space[];
  metadata: unknown;
  query: Record<string, unknown>;
}

export const EXPIRE_UPLOAD = 'expire-upload';

/** (Re)arms the job that drops a session and its bytes once it has been idle for the session lifetime. */
function scheduleExpiry(svc: FilesService, tx: Kysely<any>, id: string) {
  return svc.ctx.jobs.schedule({ service: 'files', kind: EXPIRE_UPLOAD, key: `files-upload:${id}`, runAt: svc.now() + svc.settings.resumableTtlMs, payload: { id } }, tx);
}

/** The job: drops an expired session and the bytes it received (a session used since then is left alone). */
export async function expireUpload(svc: FilesService, id: string): Promise<void> {
  await svc.ctx.db.write(async (tx) => {
    const gone = await tx.deleteFrom('files_uploads').where('id', '=', id).where('expires_at', '<=', svc.now()).executeTakeFirst();
    if (Number(gone.numDeletedRows) > 0) await svc.blobs.dropParts(tx, id);
  });
}

const sessionGone = () => new GoogleError(404, 'The upload session was not found or has expired.', { reason: 'notFound', location: 'upload_id', locationType: 'parameter' });

export async function startResumable(svc: FilesService, caller: Caller, req: FastifyRequest, reply: FastifyReply, rawFileId: string | undefined) {
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  let metadata: unknown = {};
  if (body.length > 0) {
    // The limits of every JSON body: the session keeps the metadata as JSON, which a deeply nested one would overflow.
    try {
      metadata = parseJsonBody(body.toString('utf8')) ?? {};
    } catch (err) {
      throw new GoogleError(400, `Invalid JSON payload received. ${(err as Error).message}`, { reason: 'parseError' });
    }
  }
  const patch = readFilePatch(metadata);
  const declaredType = header(req, 'x-upload-content-type');
  const mediaMime = declaredType ? normaliseMime(declaredType) : (patch.mimeType ?? 'application/octet-stream');
  if (!mediaMime) throw invalidValue('X-Upload-Content-Type', `Invalid MIME type: ${declaredType}`);
  const declaredLength = header(req, 'x-upload-content-length');
  if (declaredLength !== undefined && !/^\d{1,15}$/.test(declaredLength)) throw invalidValue('X-Upload-Content-Length', `Invalid upload length: ${declaredLength}`);
  const total = declaredLength === undefined ? null : Number(declaredLength);
  if (total !== null && total > svc.settings.maxUploadBytes) throw tooLarge(svc.settings.maxUploadBytes);
  const fileId = rawFileId === undefined ? null : svc.resolveId(caller, rawFileId);
  if (fileId) await svc.access(svc.db, caller, fileId, { need: 'writer', supportsAllDrives: new Query(req).allDrives });
  const id = newUploadId();
  const request: SessionRequest = { principalId: caller.principalId, spaces: [...caller.spaces], metadata, query: { ...(req.query as Record<string, unknown>), uploadType: undefined } };
  await svc.ctx.db.write(async (tx) => {
    await tx
      .insertInto('files_uploads')
      .values({ id, email: caller.email, file_id: fileId, request: JSON.stringify(request), content_type: mediaMime, total, received: 0, expires_at: svc.now() + svc.settings.resumableTtlMs })
      .execute();
    await scheduleExpiry(svc, tx, id);
  });
  const path = req.url.split('?')[0];
  const location = `${svc.ctx.baseUrl}${path}?uploadType=resumable&upload_id=${id}`;
  return reply.code(200).header('location', location).header('x-guploader-uploadid', id).send();
}

export async function resumableChunk(svc: FilesService, req: FastifyRequest, reply: FastifyReply) {
  const id = new Query(req).required('upload_id');
  const session = await svc.db.selectFrom('files_uploads').selectAll().where('id', '=', id).executeTakeFirst();
  if (!session || Number(session.expires_at) <= svc.now()) throw sessionGone();
  if ((params(req).fileId ?? null) !== session.file_id) throw sessionGone();
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const rangeHeader = header(req, 'content-range');
  const range = rangeHeader === undefined ? { kind: 'chunk' as const, start: 0, end: body.length, total: body.length } : parseContentRange(rangeHeader);
  if (!range) throw invalidValue('Content-Range', `Invalid Content-Range: ${rangeHeader}`);
  const received = Number(session.received);
  const known = session.total === null ? undefined : Number(session.total);
  if (known !== undefined && range.total !== undefined && known !== range.total) {
    throw invalidValue('Content-Range', `The upload's total size is ${known} bytes, not ${range.total}.`);
  }
  const total = known ?? range.total;
  if (total !== undefined && total > svc.settings.maxUploadBytes) throw tooLarge(svc.settings.maxUploadBytes);
  const incomplete = (bytes: number) => {
    if (bytes > 0) reply.header('range', `bytes=0-${bytes - 1}`);
    return reply.code(308).header('x-guploader-uploadid', id).send();
  };
  if (range.kind === 'probe') {
    if (total !== undefined && received === total) return finish(svc, session, Buffer.alloc(0), reply);
    return incomplete(received);
  }
  if (body.length !== range.end - range.start) throw invalidValue('Content-Range', `The chunk has ${body.length} bytes but Content-Range names ${range.end - range.start}.`);
  if (range.start > received) throw badRequest(`The chunk starts at byte ${range.start} but the upload has received ${received} bytes.`, 'invalidContentRange');
  const fresh = body.subarray(Math.max(0, received - range.start));
  const after = received + fresh.length;
  if (total !== undefined && after > total) throw invalidValue('Content-Range', 'The chunk goes past the end of the upload.');
  if (after > svc.settings.maxUploadBytes) throw tooLarge(svc.settings.maxUploadBytes);
  if (total !== undefined && after === total) return finish(svc, session, fresh, reply);
  await svc.ctx.db.write(async (tx) => {
    const moved = await tx
      .updateTable('files_uploads')
      .set({ received: after, total: total ?? null, expires_at: svc.now() + svc.settings.resumableTtlMs })
      .where('id', '=', id)
      .where('received', '=', received)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw badRequest('Another chunk of this upload arrived first; probe the upload status and resume.', 'invalidContentRange');
    await svc.blobs.appendPart(tx, 'files', id, received, fresh);
    await scheduleExpiry(svc, tx, id);
  });
  return incomplete(after);
}

/** The last chunk: the whole content becomes the file's, and the session and its parts go, in one unit. */
async function finish(svc: FilesService, session: any, last: Buffer, reply: FastifyReply) {
  const request = JSON.parse(session.request) as SessionRequest;
  const principal = await svc.ctx.identity.getPrincipal(request.principalId);
  if (!principal) throw sessionGone();
  const caller = callerOf(principal, request.spaces && new Set(request.spaces));
  const q = new Query({ query: request.query });
  const patch = readFilePatch(request.metadata);
  const data = Buffer.concat([await svc.blobs.readParts(svc.db, session.id), last]);
  const current = session.file_id ? await svc.db.selectFrom('files_files').select('mime_type').where('id', '=', session.file_id).executeTakeFirst() : undefined;
  const requested = patch.mimeType ?? (current && String(current.mime_type).startsWith('application/vnd.google-apps.') ? current.mime_type : undefined);
  const content = await prepareUpload(data, session.content_type, q.bool('convert', false), requested);
  const file = await svc.blobs.withContent(content.data, (blob) =>
    svc.write(caller, async (u) => {
      const gone = await u.tx.deleteFrom('files_uploads').where('id', '=', session.id).where('received', '=', session.received).executeTakeFirst();
      if (Number(gone.numDeletedRows) !== 1) throw sessionGone();
      await svc.blobs.dropParts(u.tx, session.id);
      const next = { blob, mimeType: content.mimeType, text: content.text };
      const merged = { ...patch, mimeType: content.mimeType };
      if (!session.file_id) return createFile(u, merged, next, { supportsAllDrives: q.allDrives, pinned: q.bool('pinned', false) });
      const { file, role } = await svc.access(u.tx, caller, session.file_id, { need: 'writer', supportsAllDrives: q.allDrives });
      return updateFile(u, file, role, merged, next, updateOptions(q));
    }),
  );
  return reply.code(200).send(await renderFile(svc, caller, file));
}
