// Queries of the knowledge graph. Candidates are found through the term index; ranking happens in the domain.
import type { Kysely } from 'kysely';
import type { Entity } from './domain/entity.ts';
import { indexTerms } from './domain/match.ts';
import type { Candidate } from './domain/rank.ts';

export class EntityStore {
  readonly #db: Kysely<any>;
  constructor(db: Kysely<any>) {
    this.#db = db;
  }

  /** Inserts or replaces entities with their index rows, all in one transaction. */
  async upsert(entities: Entity[], now: number): Promise<void> {
    await this.#db.transaction().execute(async (tx) => {
      for (const e of entities) {
        const doc = JSON.stringify(e);
        await tx
          .insertInto('entities_entities')
          .values({ id: e.id, doc, popularity: e.popularity ?? 1, updated_at: now })
          .onConflict((oc) => oc.column('id').doUpdateSet({ doc, popularity: e.popularity ?? 1, updated_at: now }))
          .execute();
        await tx.deleteFrom('entities_terms').where('entity_id', '=', e.id).execute();
        await tx.deleteFrom('entities_types').where('entity_id', '=', e.id).execute();
        const termRows = Object.entries(e.names).flatMap(([lang, name]) =>
          indexTerms([name, ...(e.aliases?.[lang] ?? [])]).map((term) => ({ term, entity_id: e.id, lang })),
        );
        for (let i = 0; i < termRows.length; i += 500) await tx.insertInto('entities_terms').values(termRows.slice(i, i + 500)).execute();
        const types = [...new Set(['Thing', ...e.types])];
        await tx.insertInto('entities_types').values(types.map((type) => ({ type, entity_id: e.id }))).execute();
      }
    });
  }

  async delete(id: string): Promise<boolean> {
    const res = await this.#db.deleteFrom('entities_entities').where('id', '=', id).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async count(): Promise<number> {
    const row = await this.#db.selectFrom('entities_entities').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async list(limit: number, after?: string): Promise<Entity[]> {
    let q = this.#db.selectFrom('entities_entities').select('doc').orderBy('id').limit(limit);
    if (after) q = q.where('id', '>', after);
    return (await q.execute()).map((r) => JSON.parse(r.doc) as Entity);
  }

  async byIds(ids: string[], types: string[]): Promise<Entity[]> {
    if (ids.length === 0) return [];
    let q = this.#db.selectFrom('entities_entities as e').select('e.doc').where('e.id', 'in', ids);
    if (types.length) q = q.where((eb) => eb.exists(eb.selectFrom('entities_types as t').select('t.entity_id').whereRef('t.entity_id', '=', 'e.id').where('t.type', 'in', types)));
    return (await q.execute()).map((r) => JSON.parse(r.doc) as Entity);
  }

  /**
   * Ids (with popularity, most popular first) of the entities indexed under every one of `words` (the last one as a
   * prefix when `lastIsPrefix`) in one of the languages, of any of `types` when given: the only entities a query can
   * match.
   */
  async candidates(input: { words: string[]; lastIsPrefix: boolean; languages: string[]; types: string[] }): Promise<Candidate[]> {
    const last = input.words[input.words.length - 1];
    const exact = new Set(input.lastIsPrefix ? input.words.slice(0, -1) : input.words);
    const lookups = [...exact].map((word) => ({ word, asPrefix: false }));
    if (input.lastIsPrefix) lookups.push({ word: last, asPrefix: true });
    // One index lookup per word, intersected here: cheaper than nested IN subqueries on both planners.
    let found: Map<string, number> | undefined;
    for (const { word, asPrefix } of lookups) {
      let q = this.#db
        .selectFrom('entities_terms as m')
        .innerJoin('entities_entities as e', 'e.id', 'm.entity_id')
        .select(['m.entity_id', 'e.popularity'])
        .distinct()
        .where('m.lang', 'in', input.languages);
      // A range on the term index; terms compare byte-wise on both databases (the column is COLLATE "C" on PostgreSQL).
      q = asPrefix ? q.where('m.term', '>=', word).where('m.term', '<', `${word}\u{10FFFF}`) : q.where('m.term', '=', word);
      if (input.types.length) q = q.where('m.entity_id', 'in', this.#db.selectFrom('entities_types').select('entity_id').where('type', 'in', input.types));
      const rows = await q.execute();
      const next = new Map<string, number>();
      for (const r of rows) if (!found || found.has(r.entity_id)) next.set(r.entity_id, Number(r.popularity));
      found = next;
      if (found.size === 0) return [];
    }
    return [...(found ?? [])].map(([id, popularity]) => ({ id, popularity })).sort((a, b) => b.popularity - a.popularity || a.id.localeCompare(b.id));
  }

  /** The documents of these ids (in no particular order). */
  async documents(ids: string[]): Promise<Entity[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db.selectFrom('entities_entities').select('doc').where('id', 'in', ids).execute();
    return rows.map((r) => JSON.parse(r.doc) as Entity);
  }
}
