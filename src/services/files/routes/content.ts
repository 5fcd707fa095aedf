// Content on the wire: uploads (media, multipart, resumable) under the upload prefixes, downloads with Range
// (alt=media, downloadUrl, webContentLink) and exports of Workspace files.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GoogleError } from '../../../core/google/index.ts';
import { readFilePatch } from '../domain/file-input.ts';
import { normaliseMime, isWorkspace } from '../domain/mime.ts';
import { MultipartError, parseMultipartRelated } from '../domain/multipart.ts';
import { parseRange } from '../domain/range.ts';
import { badRequest, forbidden, invalidValue, requiredValue } from '../errors.ts';
import { exportFile, prepareUpload } from '../ops/convert.ts';
import type { FilesService } from '../service.ts';
import { getRevision } from '../store/revisions.ts';
import { roleOf } from '../store/access.ts';
import { getFile, type FileRecord } from '../store/files.ts';
import { callerOf, insertWith, updateWith } from './files.ts';
import { Query, header, params, route, UPLOAD_PREFIXES } from './http.ts';
import { resumableChunk, startResumable } from './resumable.ts';
import { FILE_SCHEMAS } from './schemas/files.ts';
import { UPLOAD_SCHEMAS } from './schemas/uploads.ts';

export const tooLarge = (limit: number) =>
  new GoogleError(413, `The upload exceeds the maximum size of ${limit} bytes.`, { reason: 'uploadTooLarge' });

/** The media and metadata of a simple or multipart upload. */
function readUpload(svc: FilesService, req: FastifyRequest, type: string): { patch: ReturnType<typeof readFilePatch>; data: Buffer; mediaMime: string } {
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const contentType = header(req, 'content-type') ?? '';
  if (type === 'multipart') {
    let parsed;
    try {
      parsed = parseMultipartRelated(body, contentType);
    } catch (err) {
      if (err instanceof MultipartError) throw badRequest(`Invalid multipart request: ${err.message}`, 'badContent');
      throw err;
    }
    const mediaMime = normaliseMime(parsed.media.contentType);
    if (!mediaMime) throw invalidValue('Content-Type', `Invalid MIME type of the media part: ${parsed.media.contentType}`);
    if (parsed.media.data.length > svc.settings.maxUploadBytes) throw tooLarge(svc.settings.maxUploadBytes);
    return { patch: readFilePatch(parsed.metadata), data: parsed.media.data, mediaMime };
  }
  const mediaMime = contentType === '' ? 'application/octet-stream' : normaliseMime(contentType);
  if (!mediaMime) throw invalidValue('Content-Type', `Invalid MIME type: ${contentType}`);
  if (body.length > svc.settings.maxUploadBytes) throw tooLarge(svc.settings.maxUploadBytes);
  return { patch: {}, data: body, mediaMime };
}

function uploadType(req: FastifyRequest): 'media' | 'multipart' | 'resumable' {
  const q = new Query(req);
  const fallback = (header(req, 'content-type') ?? '').toLowerCase().startsWith('multipart/') ? 'multipart' : 'media';
  return q.oneOf('uploadType', ['media', 'multipart', 'resumable'] as const, fallback);
}

export function uploadRoutes(app: FastifyInstance, svc: FilesService): void {
  route(
    app,
    'POST',
    '/files',
    UPLOAD_SCHEMAS.insert,
    async (req, reply) => {
      const type = uploadType(req);
      const caller = await callerOf(svc, req, 'write');
      if (type === 'resumable') return startResumable(svc, caller, req, reply, undefined);
      const q = new Query(req);
      const { patch, data, mediaMime } = readUpload(svc, req, type);
      const content = await prepareUpload(data, mediaMime, q.bool('convert', false), patch.mimeType);
      return insertWith(svc, caller, q, { ...patch, mimeType: content.mimeType }, content);
    },
    UPLOAD_PREFIXES,
  );
  // The session URI of a resumable insert is the insert path with `upload_id`.
  route(app, 'PUT', '/files', UPLOAD_SCHEMAS.insertChunk, async (req, reply) => resumableChunk(svc, req, reply), UPLOAD_PREFIXES);

  route(
    app,
    'PUT',
    '/files/:fileId',
    UPLOAD_SCHEMAS.update,
    async (req, reply) => {
      if (new Query(req).string('upload_id')) return resumableChunk(svc, req, reply);
      const type = uploadType(req);
      const caller = await callerOf(svc, req, 'write');
      if (type === 'resumable') return startResumable(svc, caller, req, reply, params(req).fileId);
      const q = new Query(req);
      const { patch, data, mediaMime } = readUpload(svc, req, type);
      const current = await getFile(svc.db, svc.resolveId(caller, params(req).fileId));
      const requested = patch.mimeType ?? (current && isWorkspace(current.mimeType) ? current.mimeType : undefined);
      const content = await prepareUpload(data, mediaMime, q.bool('convert', false), requested);
      return updateWith(svc, caller, req, { ...patch, mimeType: content.mimeType }, content);
    },
    UPLOAD_PREFIXES,
  );
}

/** Sends `data` (a slice of content of `size` bytes) honouring a Range header. */
export async function sendContent(reply: FastifyReply, req: FastifyRequest, size: number, mime: string, read: (start: number, end: number) => Promise<Buffer>) {
  const range = parseRange(header(req, 'range'), size);
  reply.header('accept-ranges', 'bytes');
  reply.header('content-type', mime);
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    throw new GoogleError(416, 'Request range not satisfiable', { reason: 'requestedRangeNotSatisfiable', location: 'Range', locationType: 'header' });
  }
  if (range) {
    reply.code(206).header('content-range', `bytes ${range.start}-${range.end - 1}/${size}`);
    return reply.send(await read(range.start, range.end));
  }
  return reply.send(await read(0, size));
}

async function download(svc: FilesService, req: FastifyRequest, reply: FastifyReply, file: FileRecord) {
  if (isWorkspace(file.mimeType) || !file.blobHash) {
    throw new GoogleError(403, 'Only files with binary content can be downloaded. Use Export with Docs Editors files.', {
      reason: 'fileNotDownloadable',
      location: 'alt',
      locationType: 'parameter',
    });
  }
  const revisionId = new Query(req).string('revisionId');
  let hash = file.blobHash;
  let mime = file.mimeType;
  if (revisionId) {
    const rev = await getRevision(svc.db, file.id, revisionId);
    if (!rev) throw invalidValue('revisionId', `Revision not found: ${revisionId}`, 'notFound');
    hash = rev.blobHash;
    mime = rev.mimeType;
  }
  const info = await svc.blobs.info(svc.db, hash);
  if (!info) throw new GoogleError(500, 'The content of the file is missing.', { reason: 'backendError' });
  return sendContent(reply, req, info.size, mime, (start, end) => svc.blobs.read(hash, start, end));
}

export function downloadRoutes(app: FastifyInstance, svc: FilesService): void {
  route(app, 'GET', '/files/:fileId/export', FILE_SCHEMAS.export, async (req, reply) => {
    const caller = await callerOf(svc, req, 'readContent');
    const q = new Query(req);
    const target = q.required('mimeType');
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: q.allDrives });
    if (!isWorkspace(file.mimeType) || !file.blobHash) throw forbidden('Export only supports Docs Editors files.', 'fileNotExportable');
    const stored = await svc.blobs.read(file.blobHash);
    const out = await exportFile(stored, file.mimeType, target, file.title);
    return sendContent(reply, req, out.length, target, async (s, e) => out.subarray(s, e));
  });

  // webContentLink: files anyone may read download without credentials; others need the caller's access.
  app.get('/uc', FILE_SCHEMAS.webContentLink, async (req, reply) => {
    const q = new Query(req);
    const id = q.string('id');
    if (!id) throw requiredValue('id');
    const file = await getFile(svc.db, id);
    const open = file ? await roleOf(svc.db, id, ['anyone'], svc.now()) : undefined;
    if (file && open) return download(svc, req, reply, file);
    const caller = await callerOf(svc, req, 'readContent');
    const { file: allowed } = await svc.access(svc.db, caller, id, { supportsAllDrives: true });
    return download(svc, req, reply, allowed);
  });
}

/** alt=media on files.get. */
export async function downloadFile(svc: FilesService, req: FastifyRequest, reply: FastifyReply) {
  const caller = await callerOf(svc, req, 'readContent');
  const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: new Query(req).allDrives });
  return download(svc, req, reply, file);
}
