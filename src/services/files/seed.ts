// Bulk seeding of metadata-only files for one user (benchmarks, large local data sets): rows written in a few
// statements instead of one request per file.
import { bulkInsert } from '../../core/db/bulk.ts';
import { FOLDER } from './domain/mime.ts';
import { newFileId, rootFolderId } from './domain/ids.ts';
import { granteeKey, permissionIdForEmail } from './domain/roles.ts';
import { newFileRecord, type FilesService } from './service.ts';
import { toRow } from './store/files.ts';

export interface SeedOptions {
  email: string;
  count: number;
  /** Title of file `i`. */
  title: (i: number) => string;
  mimeType?: (i: number) => string;
}

/** Creates `count` files in the user's My Drive (which must exist: any authenticated request makes it). */
export async function seedFiles(svc: FilesService, options: SeedOptions): Promise<string[]> {
  const root = rootFolderId(options.email);
  const now = svc.now();
  const ids: string[] = [];
  const BATCH = 10_000;
  for (let start = 0; start < options.count; start += BATCH) {
    const files: unknown[][] = [];
    const links: unknown[][] = [];
    const closure: unknown[][] = [];
    const perms: unknown[][] = [];
    const modifications: unknown[][] = [];
    for (let i = start; i < Math.min(options.count, start + BATCH); i++) {
      const id = newFileId();
      ids.push(id);
      const record = newFileRecord({ id, ownerEmail: options.email.toLowerCase(), title: options.title(i), mimeType: options.mimeType?.(i) ?? (i % 10 === 0 ? FOLDER : 'text/plain'), now: now - i * 1000 });
      const row = toRow(record);
      files.push(Object.values(row));
      modifications.push([id, record.ownerEmail, record.modifiedAt]);
      links.push([id, root]);
      closure.push([id, id], [id, root]);
      perms.push([id, permissionIdForEmail(options.email), 'user', 'owner', granteeKey('user', options.email), 0, null, now, 1]);
    }
    const columns = Object.keys(toRow(newFileRecord({ id: 'x', ownerEmail: null, title: '', mimeType: '', now: 0 })));
    await svc.ctx.db.write(async (tx) => {
      await bulkInsert(tx, 'files_files', columns, files);
      await bulkInsert(tx, 'files_parents', ['file_id', 'parent_id'], links);
      await bulkInsert(tx, 'files_ancestors', ['file_id', 'ancestor_id'], closure);
      await bulkInsert(tx, 'files_modifications', ['file_id', 'email', 'modified_at'], modifications);
      await bulkInsert(tx, 'files_permissions', ['file_id', 'id', 'type', 'role', 'grantee', 'with_link', 'expires_at', 'created_at', 'version'], perms);
    });
  }
  return ids;
}
