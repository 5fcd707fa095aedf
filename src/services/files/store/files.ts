// Rows of files_files, their parents and the ancestor closure.
import { sql, type Kysely } from 'kysely';
import { bulkInsert } from '../../../core/db/bulk.ts';
import { inList } from '../../../core/db/in-list.ts';
import type { Space } from '../domain/spaces.ts';
import { preparedOn, preparedByShape } from '../../../core/db/prepared.ts';

export interface FileRecord {
  id: string;
  ownerEmail: string | null;
  driveId: string | null;
  /** `drive`, or `appDataFolder` for the application data folder and everything in it. */
  space: Space;
  isRoot: boolean;
  title: string;
  mimeType: string;
  description: string | null;
  starred: boolean;
  hidden: boolean;
  restricted: boolean;
  trashed: boolean;
  explicitlyTrashed: boolean;
  trashedAt: number | null;
  trashingUser: string | null;
  createdAt: number;
  modifiedAt: number;
  /** Who made the last change (content or metadata). */
  lastModifyingEmail: string | null;
  version: number;
  blobHash: string | null;
  fileSize: number | null;
  md5: string | null;
  headRevisionId: string | null;
  originalFilename: string | null;
  writersCanShare: boolean;
  searchText: string;
  extra: Record<string, unknown>;
}

const bool = (v: unknown) => Number(v) === 1;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export function toRecord(r: any): FileRecord {
  return {
    id: r.id,
    ownerEmail: r.owner_email ?? null,
    driveId: r.drive_id ?? null,
    space: r.space ?? 'drive',
    isRoot: bool(r.is_root),
    title: r.title,
    mimeType: r.mime_type,
    description: r.description ?? null,
    starred: bool(r.starred),
    hidden: bool(r.hidden),
    restricted: bool(r.restricted),
    trashed: bool(r.trashed),
    explicitlyTrashed: bool(r.explicitly_trashed),
    trashedAt: num(r.trashed_at),
    trashingUser: r.trashing_user ?? null,
    createdAt: Number(r.created_at),
    modifiedAt: Number(r.modified_at),
    lastModifyingEmail: r.last_modifying_email ?? null,
    version: Number(r.version),
    blobHash: r.blob_hash ?? null,
    fileSize: num(r.file_size),
    md5: r.md5 ?? null,
    headRevisionId: r.head_revision_id ?? null,
    originalFilename: r.original_filename ?? null,
    writersCanShare: bool(r.writers_can_share),
    searchText: r.search_text,
    extra: JSON.parse(r.extra),
  };
}

export function toRow(f: FileRecord): Record<string, unknown> {
  return {
    id: f.id,
    owner_email: f.ownerEmail,
    drive_id: f.driveId,
    space: f.space,
    is_root: f.isRoot ? 1 : 0,
    title: f.title,
    title_lower: f.title.toLowerCase(),
    mime_type: f.mimeType,
    description: f.description,
    starred: f.starred ? 1 : 0,
    hidden: f.hidden ? 1 : 0,
    restricted: f.restricted ? 1 : 0,
    trashed: f.trashed ? 1 : 0,
    explicitly_trashed: f.explicitlyTrashed ? 1 : 0,
    trashed_at: f.trashedAt,
    trashing_user: f.trashingUser,
    created_at: f.createdAt,
    modified_at: f.modifiedAt,
    last_modifying_email: f.lastModifyingEmail,
    version: f.version,
    blob_hash: f.blobHash,
    file_size: f.fileSize,
    md5: f.md5,
    head_revision_id: f.headRevisionId,
    original_filename: f.originalFilename,
    writers_can_share: f.writersCanShare ? 1 : 0,
    search_text: f.searchText,
    extra: JSON.stringify(f.extra),
  };
}

const fileById = preparedOn<Record<string, unknown>>((db) => db.selectFrom('files_files').selectAll().where('id', '=', ''));

/**
 * `lock` (PostgreSQL, inside a unit of work) holds the row until the commit: `update` makes concurrent writers of the
 * file queue; `share` only keeps it from changing or going (a folder receiving a new child).
 */
export async function getFile(db: Kysely<any>, id: string, lock?: 'update' | 'share'): Promise<FileRecord | undefined> {
  // The unlocked read is on every request's path: compiled once.
  if (!lock) {
    const { rows } = await fileById(db, id);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }
  let q = db.selectFrom('files_files').selectAll().where('id', '=', id);
  if (lock === 'update') q = q.forUpdate();
  if (lock === 'share') q = q.forShare();
  const row = await q.executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/** `lock: 'share'` (PostgreSQL, inside a unit of work) holds the rows as getFile does. Any number of ids. */
export async function getFiles(db: Kysely<any>, ids: string[], lock?: 'share'): Promise<Map<string, FileRecord>> {
  if (ids.length === 0) return new Map();
  let q = db.selectFrom('files_files').selectAll().where(inList(db, 'id', ids));
  if (lock === 'share') q = q.forShare();
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.id as string, toRecord(r)]));
}

export async function insertFile(tx: Kysely<any>, f: FileRecord, parents: string[]): Promise<void> {
  await tx.insertInto('files_files').values(toRow(f)).execute();
  await setParents(tx, f.id, parents);
}

/**
 * `insertFile` unless a file of its id exists; true when inserted. Concurrent callers on PostgreSQL wait for the
 * first one's commit and then find the row: a root made on first use is made once.
 */
export async function insertFileIfAbsent(tx: Kysely<any>, f: FileRecord, parents: string[]): Promise<boolean> {
  const rows = await tx
    .insertInto('files_files')
    .values(toRow(f))
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .execute();
  if (rows.length === 0) return false;
  await setParents(tx, f.id, parents);
  return true;
}

/** Writes every column of the record (the caller read it inside the same unit). */
export async function saveFile(tx: Kysely<any>, f: FileRecord): Promise<void> {
  const { id: _id, ...values } = toRow(f);
  await tx.updateTable('files_files').set(values).where('id', '=', f.id).execute();
}

const parentsQuery = preparedByShape<{ file_id: string; parent_id: string }>();

export async function parentsOf(db: Kysely<any>, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const { rows } = await parentsQuery(db, [ids], ids, (d) => sql<{ file_id: string; parent_id: string }>`select file_id, parent_id from files_parents where ${inList(d, 'file_id', ids)} order by parent_id`);
  for (const r of rows) out.get(r.file_id)!.push(r.parent_id);
  return out;
}

/** Replaces the parents of a file and refreshes the closure of its whole subtree. */
export async function setParents(tx: Kysely<any>, fileId: string, parents: string[]): Promise<void> {
  await tx.deleteFrom('files_parents').where('file_id', '=', fileId).execute();
  const unique = [...new Set(parents)];
  await bulkInsert(tx, 'files_parents', ['file_id', 'parent_id'], unique.map((p) => [fileId, p]));
  await rebuildClosure(tx, fileId);
}

export async function rebuildClosure(tx: Kysely<any>, fileId: string): Promise<void> {
  const subtree = sql`sub(id) as (select ${fileId} union select p.file_id from files_parents p join sub on p.parent_id = sub.id)`;
  await sql`with recursive ${subtree} delete from files_ancestors where file_id in (select id from sub)`.execute(tx);
  await sql`with recursive ${subtree},
    anc(file_id, ancestor_id) as (
      select id, id from sub
      union
      select anc.file_id, p.parent_id from anc join files_parents p on p.file_id = anc.ancestor_id)
    insert into files_ancestors (file_id, ancestor_id) select file_id, ancestor_id from anc`.execute(tx);
}

/** The file and everything below it (each once). */
export async function subtreeOf(db: Kysely<any>, fileId: string): Promise<string[]> {
  const rows = await db.selectFrom('files_ancestors').select('file_id').where('ancestor_id', '=', fileId).execute();
  return rows.map((r) => r.file_id as string);
}

/** Those of `fileIds` that are `ancestorId` or below it. */
export async function within(db: Kysely<any>, ancestorId: string, fileIds: string[]): Promise<Set<string>> {
  if (fileIds.length === 0) return new Set();
  const rows = await db.selectFrom('files_ancestors').select('file_id').where('ancestor_id', '=', ancestorId).where(inList(db, 'file_id', fileIds)).execute();
  return new Set(rows.map((r) => r.file_id as string));
}

export async function isAncestor(db: Kysely<any>, ancestorId: string, fileId: string): Promise<boolean> {
  const row = await db.selectFrom('files_ancestors').select('file_id').where('file_id', '=', fileId).where('ancestor_id', '=', ancestorId).executeTakeFirst();
  return row !== undefined;
}

/** Removes a file row and everything hanging off it (not its content: the caller releases blobs). */
export async function deleteFileRows(tx: Kysely<any>, id: string): Promise<void> {
  const comments = tx.selectFrom('files_comments').select('id').where('file_id', '=', id);
  await tx.deleteFrom('files_replies').where('comment_id', 'in', comments).execute();
  for (const table of ['files_comments', 'files_properties', 'files_permissions', 'files_views', 'files_modifications', 'files_labels', 'files_revisions']) {
    await tx.deleteFrom(table).where('file_id', '=', id).execute();
  }
  await tx.deleteFrom('files_parents').where((eb) => eb.or([eb('file_id', '=', id), eb('parent_id', '=', id)])).execute();
  await tx.deleteFrom('files_ancestors').where((eb) => eb.or([eb('file_id', '=', id), eb('ancestor_id', '=', id)])).execute();
  await tx.deleteFrom('files_files').where('id', '=', id).execute();
}
