// Who may see a file: the strongest role any permission on the file or one of its ancestors gives the caller's
// grantee keys (an expired permission gives nothing). Also who is told about a change (the audience).
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { inList } from '../../../core/db/in-list.ts';
import { preparedByShape } from '../../../core/db/prepared.ts';
import { strongest, type Role } from '../domain/roles.ts';

type Grant = { file_id: string; ancestor_id: string; role: string };
/** Every request runs it (the caller's role on the file): compiled once per number of files and of caller keys. */
const grantsQuery = preparedByShape<Grant>();

export async function rolesOf(db: Kysely<any>, fileIds: string[], keys: string[], now: number): Promise<Map<string, Role>> {
  const out = new Map<string, Role>();
  if (fileIds.length === 0) return out;
  const { rows } = await grantsQuery(db, [fileIds, keys], [...fileIds, ...keys, now], (d) =>
    sql<Grant>`select a.file_id, a.ancestor_id, p.role
    from files_ancestors a join files_permissions p on p.file_id = a.ancestor_id
    where ${inList(d, 'a.file_id', fileIds)} and ${inList(d, 'p.grantee', keys)} and (p.expires_at is null or p.expires_at > ${now})`,
  );
  const byFile = new Map<string, string[]>();
  // Owning a folder makes one an editor of what is inside, not its owner.
  for (const r of rows) byFile.set(r.file_id, [...(byFile.get(r.file_id) ?? []), r.role === 'owner' && r.ancestor_id !== r.file_id ? 'writer' : r.role]);
  for (const [id, roles] of byFile) {
    const best = strongest(roles);
    if (best) out.set(id, best);
  }
  return out;
}

export async function roleOf(db: Kysely<any>, fileId: string, keys: string[], now: number): Promise<Role | undefined> {
  return (await rolesOf(db, [fileId], keys, now)).get(fileId);
}

/**
 * The condition "the caller finds this file in a listing" on alias `f`: owned, or granted through the file or a
 * folder above it to the caller, a group of theirs, or (when not link-only) their domain or anyone.
 */
export function visibleTo(eb: ExpressionBuilder<any, any>, email: string, keys: string[], now: number): Expression<SqlBool> {
  const personal = keys.filter((k) => k.startsWith('user:') || k.startsWith('group:'));
  const broad = keys.filter((k) => !personal.includes(k));
  return eb.or([
    eb('f.owner_email', '=', email),
    eb.exists(
      eb
        .selectFrom('files_ancestors as va')
        .innerJoin('files_permissions as vp', 'vp.file_id', 'va.ancestor_id')
        .select(sql.lit(1).as('one'))
        .whereRef('va.file_id', '=', 'f.id')
        .where((w) =>
          w.and([
            w.or([w('vp.grantee', 'in', personal), w.and([w('vp.grantee', 'in', broad), w('vp.with_link', '=', 0)])]),
            w.or([w('vp.expires_at', 'is', null), w('vp.expires_at', '>', now)]),
          ]),
        ),
    ),
  ]);
}

/** The grantees of the permissions on the file or a folder above it, each once. */
function granteesAbove(db: Kysely<any>, fileId: string) {
  return db
    .selectFrom('files_ancestors as a')
    .innerJoin('files_permissions as p', 'p.file_id', 'a.ancestor_id')
    .select('p.grantee')
    .distinct()
    .where('a.file_id', '=', fileId);
}

/**
 * The grantee keys that an unexpired permission on the file or a folder above it names (any role lets one see the
 * file), among `keys` when given.
 */
export async function granteesOn(db: Kysely<any>, fileId: string, now: number, keys?: string[]): Promise<Set<string>> {
  const rows = await granteesAbove(db, fileId)
    .where((eb) => eb.or([eb('p.expires_at', 'is', null), eb('p.expires_at', '>', now)]))
    .$if(keys !== undefined, (qb) => qb.where(inList(db, 'p.grantee', keys!)))
    .execute();
  return new Set(rows.map((r) => r.grantee as string));
}

/** Subjects of the change log who hear about a file: every user granted on it or above it, and its shared drive. */
export async function audienceOf(db: Kysely<any>, fileId: string): Promise<Set<string>> {
  const rows = await granteesAbove(db, fileId).where('p.grantee', 'like', 'user:%').execute();
  const out = new Set(rows.map((r) => r.grantee as string));
  const file = await db.selectFrom('files_files').select('drive_id').where('id', '=', fileId).executeTakeFirst();
  if (file?.drive_id) out.add(`drive:${file.drive_id}`);
  return out;
}
