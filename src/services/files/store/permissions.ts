// Rows of files_permissions.
import { sql, type Kysely } from 'kysely';
import { inList } from '../../../core/db/in-list.ts';
import type { GranteeType, Role } from '../domain/roles.ts';
import { preparedByShape } from '../../../core/db/prepared.ts';

export interface PermissionRecord {
  fileId: string;
  id: string;
  type: GranteeType;
  role: Role;
  grantee: string;
  withLink: boolean;
  expiresAt: number | null;
  createdAt: number;
  version: number;
}

const toPermission = (r: any): PermissionRecord => ({
  fileId: r.file_id,
  id: r.id,
  type: r.type,
  role: r.role,
  grantee: r.grantee,
  withLink: Number(r.with_link) === 1,
  expiresAt: r.expires_at == null ? null : Number(r.expires_at),
  createdAt: Number(r.created_at),
  version: Number(r.version),
});

const permissionsQuery = preparedByShape<Record<string, unknown>>();

export async function listPermissions(db: Kysely<any>, fileIds: string[]): Promise<PermissionRecord[]> {
  if (fileIds.length === 0) return [];
  const { rows } = await permissionsQuery(db, [fileIds], fileIds, (d) => sql<Record<string, unknown>>`select * from files_permissions where ${inList(d, 'file_id', fileIds)} order by file_id, created_at, id`);
  return rows.map(toPermission);
}

export async function getPermission(db: Kysely<any>, fileId: string, id: string): Promise<PermissionRecord | undefined> {
  const row = await db.selectFrom('files_permissions').selectAll().where('file_id', '=', fileId).where('id', '=', id).executeTakeFirst();
  return row ? toPermission(row) : undefined;
}

export async function putPermission(tx: Kysely<any>, p: PermissionRecord): Promise<void> {
  const values = { type: p.type, role: p.role, grantee: p.grantee, with_link: p.withLink ? 1 : 0, expires_at: p.expiresAt, version: p.version };
  await tx
    .insertInto('files_permissions')
    .values({ file_id: p.fileId, id: p.id, created_at: p.createdAt, ...values })
    .onConflict((oc) => oc.columns(['file_id', 'id']).doUpdateSet(values))
    .execute();
}

export async function deletePermission(tx: Kysely<any>, fileId: string, id: string): Promise<void> {
  await tx.deleteFrom('files_permissions').where('file_id', '=', fileId).where('id', '=', id).execute();
}

/** The grantee's address or domain, as the wire shows it. */
export function granteeValue(p: Pick<PermissionRecord, 'grantee'>): string | undefined {
  const colon = p.grantee.indexOf(':');
  return colon < 0 ? undefined : p.grantee.slice(colon + 1);
}
