// The file-storage browser's data: each user's root and shared drive as the top of a folder tree, one folder's
// children at a time, one file with its revisions and permissions, and its content (a revision's) for preview and
// download. Content is always sent sandboxed and, unless it is a raster image, as an attachment: uploaded HTML must
// never run on the console's origin.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { BlobStore } from '../../core/blobs/index.ts';
import type { Runtime } from '../../core/runtime.ts';
import { readSettings } from '../../services/files/settings.ts';
import { adminError } from '../errors.ts';

const FOLDER = 'application/vnd.google-apps.folder';
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** How much of a text file the preview shows. */
const PREVIEW_BYTES = 64 * 1024;

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
const Content = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 200 }), revision: Type.Optional(Type.String({ maxLength: 200 })), preview: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

const iso = (ms: unknown) => (ms == null ? null : new Date(Number(ms)).toISOString());

function summary(r: any) {
  return {
    id: r.id,
    title: r.title,
    mimeType: r.mime_type,
    folder: r.mime_type === FOLDER,
    owner: r.owner_email,
    size: r.file_size != null ? Number(r.file_size) : null,
    modifiedAt: iso(r.modified_at),
    trashed: !!Number(r.trashed),
  };
}

export function filesRoutes(app: FastifyInstance, rt: Runtime): void {
  const service = () => {
    const s = rt.services.get('files');
    if (!s) throw adminError(404, 'service files is not running');
    return s;
  };
  const db = () => service().ctx.kysely;
  const COLUMNS = ['id', 'title', 'mime_type', 'owner_email', 'file_size', 'modified_at', 'trashed', 'drive_id', 'is_root'] as const;

  app.get('/console/api/files/roots', async () => {
    const roots = await db().selectFrom('files_files').select(COLUMNS).where('is_root', '=', 1).orderBy('owner_email').orderBy('title').execute();
    return { roots: roots.map((r) => ({ ...summary(r), folder: true, label: r.drive_id ? `shared drive ${r.title}` : `${r.owner_email ?? r.title}: ${r.title}` })) };
  });

  app.get('/console/api/files/children', { schema: { querystring: Id } }, async (req) => {
    const { id } = req.query as Static<typeof Id>;
    const rows = await db()
      .selectFrom('files_parents as p')
      .innerJoin('files_files as f', 'f.id', 'p.file_id')
      .select(COLUMNS.map((c) => `f.${c}` as const))
      .where('p.parent_id', '=', id)
      .orderBy('f.title')
      .limit(1000)
      .execute();
    // Folders first, as file browsers list them.
    const children = rows.map(summary).sort((a, b) => Number(b.folder) - Number(a.folder));
    return { id, children };
  });

  app.get('/console/api/files/file', { schema: { querystring: Id } }, async (req) => {
    const { id } = req.query as Static<typeof Id>;
    const file = await db().selectFrom('files_files').select([...COLUMNS, 'description', 'created_at', 'md5', 'head_revision_id', 'original_filename']).where('id', '=', id).executeTakeFirst();
    if (!file) throw adminError(404, `no file ${id}`);
    const [revisions, permissions] = await Promise.all([
      db().selectFrom('files_revisions').select(['id', 'mime_type', 'original_filename', 'modified_at', 'modifying_email', 'pinned', 'blob_hash']).where('file_id', '=', id).orderBy('seq').execute(),
      db().selectFrom('files_permissions').select(['id', 'type', 'role', 'grantee', 'with_link', 'expires_at']).where('file_id', '=', id).orderBy('created_at').execute(),
    ]);
    return {
      ...summary(file),
      description: file.description,
      createdAt: iso(file.created_at),
      md5: file.md5,
      originalFilename: file.original_filename,
      headRevisionId: file.head_revision_id,
      revisions: revisions.map((r) => ({ id: r.id, mimeType: r.mime_type, originalFilename: r.original_filename, modifiedAt: iso(r.modified_at), modifiedBy: r.modifying_email, pinned: !!Number(r.pinned) })),
      permissions: permissions.map((p) => ({ id: p.id, type: p.type, role: p.role, grantee: p.grantee, withLink: !!Number(p.with_link), expiresAt: iso(p.expires_at) })),
    };
  });

  app.get('/console/api/files/content', { schema: { querystring: Content } }, async (req, reply) => {
    const { id, revision, preview } = req.query as Static<typeof Content>;
    const s = service();
    let q = db().selectFrom('files_revisions as r').innerJoin('files_files as f', 'f.id', 'r.file_id').select(['r.blob_hash', 'r.mime_type', 'f.title']).where('r.file_id', '=', id);
    q = revision ? q.where('r.id', '=', revision) : q.whereRef('r.id', '=', 'f.head_revision_id');
    const row = await q.executeTakeFirst();
    if (!row) throw adminError(404, `file ${id} has no stored content${revision ? ` in revision ${revision}` : ''}`);
    const settings = readSettings(s.ctx.settings);
    const blobs = new BlobStore(s.ctx.db, s.ctx.clock, s.ctx.dataDir, { backend: settings.blobBackend, directory: settings.blobDirectory });
    const data = preview ? await blobs.read(row.blob_hash, 0, PREVIEW_BYTES) : await blobs.read(row.blob_hash);
    const inline = INLINE_TYPES.has(row.mime_type);
    return reply
      .header('content-type', preview ? 'text/plain; charset=utf-8' : inline ? row.mime_type : 'application/octet-stream')
      .header('content-disposition', `${inline || preview ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.title)}`)
      .header('content-security-policy', 'sandbox; default-src \'none\'')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(data);
  });
}
