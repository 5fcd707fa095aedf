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
    // One index-only lookup per word (the term index holds the ids), intersected here; popularity is read for the
    // survivors alone.
    let found: Set<string> | undefined;
    for (const { word, asPrefix } of lookups) {
      let q = this.#db.selectFrom('entities_terms').select('entity_id').where('lang', 'in', input.languages);
      // A range on the term index; terms compare byte-wise on both databases (the column is COLLATE "C" on PostgreSQL).
      q = asPrefix ? q.where('term', '>=', word).where('term', '<', `${word}\u{10FFFF}`) : q.where('term', '=', word);
      const next = new Set<string>();
      for (const r of await q.execute()) if (!found || found.has(r.entity_id)) next.add(r.entity_id);
      found = next;
      if (found.size === 0) return [];
    }
    const ids = [...(found ?? [])];
    const candidates: Candidate[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      let q = this.#db.selectFrom('entities_entities as e').select(['e.id', 'e.popularity']).where('e.id', 'in', ids.slice(i, i + 500));
      if (input.types.length) {
        q = q.where((eb) => eb.exists(eb.selectFrom('entities_types as t').select('t.entity_id').whereRef('t.entity_id', '=', 'e.id').where('t.type', 'in', input.types)));
      }
      for (const r of await q.execute()) candidates.push({ id: r.id, popularity: Number(r.popularity) });
    }
    return candidates.sort((a, b) => b.popularity - a.popularity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The documents of these ids (in no particular order). */
  async documents(ids: string[]): Promise<Entity[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db.selectFrom('entities_entities').select('doc').where('id', 'in', ids).execute();
    return rows.map((r) => JSON.parse(r.doc) as Entity);
  }
}
