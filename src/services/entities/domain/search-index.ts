// The in-memory search index over the whole graph. A base segment (segment.ts) holds every entity in popularity
// order with a word dictionary over postings of positions; since positions follow popularity, walking the
// intersection of a query's postings in order visits the likeliest results first and stops early. Changes since the
// base was built live in a small delta scanned in full, folded in when it grows.
import { withThing, type Entity } from './entity.ts';
import { weighNormalized, type MatchTerms } from './match.ts';
import { normalize } from './normalize.ts';
import { intersect } from './postings.ts';
import { TopK, scoreOf, type Scored } from './rank.ts';
import { Segment, SegmentBuilder, type IndexedEntity } from './segment.ts';

export type { IndexedEntity } from './segment.ts';

/** What the index reads of an entity. */
export type Indexable = Pick<Entity, 'id' | 'types' | 'names' | 'aliases' | 'popularity'>;

export interface IndexQuery {
  /** The query as typed. */
  query: string;
  prefix: boolean;
  languages: string[];
  types: string[];
  limit: number;
}

/** Changed entities kept beside the base before a rebuild folds them in. */
const DELTA_LIMIT = 2000;

export class SearchIndex {
  #base: Segment;
  #delta = new Map<string, IndexedEntity | null>();
  readonly #types = new Map<string, readonly string[]>();
  readonly #deltaLimit: number;

  /** Indexes `entities`, or takes a base segment built elsewhere (read from the database a page at a time). */
  constructor(entities: Iterable<Indexable> | Segment = [], options: { deltaLimit?: number } = {}) {
    this.#deltaLimit = options.deltaLimit ?? DELTA_LIMIT;
    if (entities instanceof Segment) this.#base = entities;
    else {
      const builder = new SegmentBuilder();
      for (const e of entities) builder.add(indexedEntity(e));
      this.#base = builder.finish();
    }
  }

  get size(): number {
    let n = this.#base.live;
    for (const [id, e] of this.#delta) n += (e ? 1 : 0) - (this.#base.has(id) ? 1 : 0);
    return n;
  }

  upsert(entities: Indexable[]): void {
    for (const e of entities) this.#delta.set(e.id, this.#indexed(e));
    this.#compactIfLarge();
  }

  remove(id: string): void {
    this.#delta.set(id, null);
    this.#compactIfLarge();
  }

  /** The best `limit` matches, best first, with their scores. */
  search(q: IndexQuery): Scored[] {
    const text = normalize(q.query);
    const top = new TopK(q.limit);
    if (!text) return [];
    const words = text.split(' ');
    const wanted = q.types.length ? new Set(q.types) : undefined;
    const accepts = (types: readonly string[]) => !wanted || types.some((t) => wanted.has(t));
    const weigh = (terms: MatchTerms) => weighNormalized(text, words, terms, q.prefix);
    for (const e of this.#delta.values()) {
      if (!e || !accepts(e.types)) continue;
      const weight = weigh(termsIn(e, q.languages));
      if (weight > 0) top.add({ id: e.id, score: scoreOf(e.popularity, weight) });
    }
    const base = this.#base;
    const lists = [...new Set(words)].map((w) => (q.prefix ? base.prefixPostings(w) : base.wordPostings(w)));
    // A rare type narrows the walk to its own postings; a common one is cheaper checked on the way (every entity is a
    // Thing).
    if (q.types.length && !q.types.includes('Thing')) {
      const typed = base.typePostings(q.types);
      if (typed.length < Math.min(...lists.map((l) => l.length))) lists.push(typed);
    }
    const languages = base.languageKeys(q.languages);
    const changed = this.#delta.size > 0;
    for (const pos of intersect(lists)) {
      const popularity = base.popularityAt(pos);
      if (top.closedBelow(scoreOf(popularity, 1))) break;
      if (!accepts(base.typesAt(pos))) continue;
      // The id is read only when needed: for a changed entity (its delta entry stands instead) or a match.
      const id = changed ? base.idAt(pos) : undefined;
      if (id !== undefined && this.#delta.has(id)) continue;
      const weight = weigh(base.termsAt(pos, languages));
      if (weight > 0) top.add({ id: id ?? base.idAt(pos), score: scoreOf(popularity, weight) });
    }
    return top.results();
  }

  #indexed(e: Indexable): IndexedEntity {
    const entry = indexedEntity(e);
    // Delta entries of one type list share it.
    const key = entry.types.join('\u0000');
    let shared = this.#types.get(key);
    if (!shared) this.#types.set(key, (shared = entry.types));
    entry.types = shared;
    return entry;
  }

  #compactIfLarge(): void {
    if (this.#delta.size < this.#deltaLimit) return;
    const base = this.#base;
    const builder = new SegmentBuilder();
    for (let pos = 0; pos < base.live; pos++) if (!this.#delta.has(base.idAt(pos))) builder.add(base.entityAt(pos));
    for (const e of this.#delta.values()) if (e) builder.add(e);
    this.#base = builder.finish();
    this.#delta.clear();
    this.#types.clear();
  }
}

/** What the index keeps of an entity: its texts normalised, its types starting with Thing. */
export function indexedEntity(e: Indexable): IndexedEntity {
  const names: Record<string, string> = {};
  for (const [lang, name] of Object.entries(e.names)) names[lang] = normalize(name);
  const out: IndexedEntity = { id: e.id, popularity: e.popularity ?? 1, types: Object.freeze(withThing(e.types)), names };
  if (e.aliases) out.aliases = Object.fromEntries(Object.entries(e.aliases).map(([lang, list]) => [lang, list.map(normalize)]));
  return out;
}

function termsIn(e: IndexedEntity, languages: string[]): MatchTerms {
  const names: string[] = [];
  const aliases: string[] = [];
  for (const l of languages) {
    const name = e.names[l];
    if (name !== undefined) names.push(name);
    const more = e.aliases?.[l];
    if (more) aliases.push(...more);
  }
  return { names, aliases };
}
