// Rows of files_properties.
import { sql, type Kysely } from 'kysely';
import { inList } from '../../../core/db/in-list.ts';
import type { PropertyInput, Visibility } from '../domain/properties.ts';
import { preparedByShape } from '../../../core/db/prepared.ts';

export interface PropertyRecord extends PropertyInput {
  fileId: string;
  version: number;
}

const toProperty = (r: any): PropertyRecord => ({ fileId: r.file_id, key: r.key, visibility: r.visibility, value: r.value, version: Number(r.version) });

const propertiesQuery = preparedByShape<Record<string, unknown>>();

export async function listProperties(db: Kysely<any>, fileIds: string[]): Promise<PropertyRecord[]> {
  if (fileIds.length === 0) return [];
  const { rows } = await propertiesQuery(db, [fileIds], fileIds, (d) => sql<Record<string, unknown>>`select * from files_properties where ${inList(d, 'file_id', fileIds)} order by ${sql.ref('key')}, visibility`);
  return rows.map(toProperty);
}

export async function getProperty(db: Kysely<any>, fileId: string, key: string, visibility: Visibility): Promise<PropertyRecord | undefined> {
  const row = await db.selectFrom('files_properties').selectAll().where('file_id', '=', fileId).where('key', '=', key).where('visibility', '=', visibility).executeTakeFirst();
  return row ? toProperty(row) : undefined;
}

export async function putProperty(tx: Kysely<any>, fileId: string, p: PropertyInput): Promise<PropertyRecord> {
  const old = await getProperty(tx, fileId, p.key, p.visibility);
  const version = (old?.version ?? 0) + 1;
  await tx
    .insertInto('files_properties')
    .values({ file_id: fileId, key: p.key, visibility: p.visibility, value: p.value, version })
    .onConflict((oc) => oc.columns(['file_id', 'key', 'visibility']).doUpdateSet({ value: p.value, version }))
    .execute();
  return { ...p, fileId, version };
}

export async function deleteProperty(tx: Kysely<any>, fileId: string, key: string, visibility: Visibility): Promise<boolean> {
  const res = await tx.deleteFrom('files_properties').where('file_id', '=', fileId).where('key', '=', key).where('visibility', '=', visibility).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function countProperties(db: Kysely<any>, fileId: string, visibility: Visibility): Promise<number> {
  const row = await db.selectFrom('files_properties').select((eb) => eb.fn.countAll().as('n')).where('file_id', '=', fileId).where('visibility', '=', visibility).executeTakeFirst();
  return Number(row?.n ?? 0);
}
