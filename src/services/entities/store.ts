// The stored graph: one row per entity holding its document, and a few facts about the graph (which default was
// built, from which data). Writes take the unit of work's transaction; reads take any executor.
import type { Kysely } from 'kysely';
import { bulkInsert } from '../../core/db/bulk.ts';
import type { Entity } from './domain/entity.ts';

const ENTITY_COLUMNS = ['id', 'doc', 'terms', 'popularity', 'updated_at'];
/** Ids per `in (...)` list: well below both databases' parameter limits. */
const ID_CHUNK = 500;

/**
 * Inserts or replaces entities (a unit of work's transaction: the delete and the insert commit together). `fresh`
 * says none of the ids is stored yet, which spares the delete.
 */
export async function writeEntities(tx: Kysely<any>, entities: Entity[], now: number, fresh = false): Promise<void> {
  if (!fresh) await deleteEntities(tx, entities.map((e) => e.id));
  // Plain multi-row VALUES on both databases: with long JSON texts it beats unnest(), whose array literals need escaping.
  const rows = entities.map((e) => [e.id, JSON.stringify(e), JSON.stringify(termsOf(e)), e.popularity ?? 1, now]);
  await bulkInsert(tx, 'entities_entities', ENTITY_COLUMNS, rows);
}

export async function deleteEntity(tx: Kysely<any>, id: string): Promise<boolean> {
  return (await deleteEntities(tx, [id])) > 0;
}

export async function deleteEntities(tx: Kysely<any>, ids: string[]): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const res = await tx.deleteFrom('entities_entities').where('id', 'in', ids.slice(i, i + ID_CHUNK)).executeTakeFirst();
    deleted += Number(res.numDeletedRows);
  }
  return deleted;
}

export async function entityIds(db: Kysely<any>): Promise<string[]> {
  return (await db.selectFrom('entities_entities').select('id').execute()).map((r) => r.id as string);
}

export async function countEntities(db: Kysely<any>): Promise<number> {
  const row = await db.selectFrom('entities_entities').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The part of an entity the search index reads back at start. */
export type EntityTerms = Pick<Entity, 'id' | 'types' | 'names' | 'aliases' | 'popularity'>;
const termsOf = (e: Entity): Omit<EntityTerms, 'id'> => ({ types: e.types, names: e.names, aliases: e.aliases, popularity: e.popularity });

/** A page of rows (`id`, `terms`) in id order, after `after`. */
export function termsPage(db: Kysely<any>, limit: number, after?: string) {
  let q = db
    .selectFrom('entities_entities')
    .select('id')
    .select((eb) => eb.fn.coalesce('terms', 'doc').as('terms'))
    .orderBy('id')
    .limit(limit);
  if (after !== undefined) q = q.where('id', '>', after);
  return q;
}

export const parseTerms = (row: { id: unknown; terms: unknown }): EntityTerms => ({ ...(JSON.parse(row.terms as string) as EntityTerms), id: row.id as string });

export async function listEntities(db: Kysely<any>, limit: number, after?: string): Promise<Entity[]> {
  let q = db.selectFrom('entities_entities').select('doc').orderBy('id').limit(limit);
  if (after !== undefined) q = q.where('id', '>', after);
  return (await q.execute()).map((r) => JSON.parse(r.doc as string) as Entity);
}

/** The documents of these ids that exist (in no particular order). */
export async function entityDocuments(db: Kysely<any>, ids: string[]): Promise<Entity[]> {
  const out: Entity[] = [];
  for (let i = 0; i < ids.length; i += ID_CHUNK) {
    const rows = await db.selectFrom('entities_entities').select('doc').where('id', 'in', ids.slice(i, i + ID_CHUNK)).execute();
    for (const r of rows) out.push(JSON.parse(r.doc) as Entity);
  }
  return out;
}

export async function readMeta(db: Kysely<any>, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('entities_meta').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value as string | undefined;
}

export async function writeMeta(tx: Kysely<any>, key: string, value: string): Promise<void> {
  await tx.deleteFrom('entities_meta').where('key', '=', key).execute();
  await tx.insertInto('entities_meta').values({ key, value }).execute();
}
