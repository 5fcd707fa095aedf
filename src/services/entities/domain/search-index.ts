// The in-memory search index over the whole graph. A base segment holds every entity in popularity order with a
// word dictionary (sorted, so a prefix is a contiguous range) over compact postings of positions; since positions
// follow popularity, walking the intersection of a query's postings in order visits the likeliest results first and
// stops early. Changes since the base was built live in a small delta scanned in full, folded in when it grows.
import type { Entity } from './entity.ts';
import { weighNormalized } from './match.ts';
import { normalize } from './normalize.ts';
import { intersect, lowerBoundText, sortedUnique, type Postings } from './postings.ts';
import { TopK, scoreOf, type Scored } from './rank.ts';

/** What the index keeps of an entity: normalised texts, types and popularity; the document stays in the database. */
export interface IndexedEntity {
  id: string;
  popularity: number;
  types: readonly string[];
  names: Record<string, string>;
  aliases?: Record<string, string[]>;
}

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
/** Prefix unions at least this long are kept once computed (only short prefixes reach it), up to a bound. */
const CACHED_UNION = 256;
const CACHED_UNIONS = 4096;

export class SearchIndex {
  #base: Segment;
  #delta = new Map<string, IndexedEntity | null>();
  readonly #types = new Map<string, readonly string[]>();
  readonly #deltaLimit: number;

  constructor(entities: Iterable<Indexable> = [], options: { deltaLimit?: number } = {}) {
    this.#deltaLimit = options.deltaLimit ?? DELTA_LIMIT;
    this.#base = new Segment([...entities].map((e) => this.#indexed(e)));
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
    const accepts = this.#filter(q.types);
    const weigh = (e: IndexedEntity) => weighNormalized(text, words, termsIn(e, q.languages), q.prefix);
    const consider = (e: IndexedEntity) => {
      if (!accepts(e)) return;
      const weight = weigh(e);
      if (weight > 0) top.add({ id: e.id, score: scoreOf(e.popularity, weight) });
    };
    for (const e of this.#delta.values()) if (e) consider(e);
    const base = this.#base;
    const lists = [...new Set(words)].map((w) => (q.prefix ? base.prefixPostings(w) : base.wordPostings(w)));
    // A rare type narrows the walk to its own postings; a common one is cheaper checked on the way (every entity is a
    // Thing).
    if (q.types.length && !q.types.includes('Thing')) {
      const typed = base.typePostings(q.types);
      if (typed.length < Math.min(...lists.map((l) => l.length))) lists.push(typed);
    }
    for (const pos of intersect(lists)) {
      const e = base.entries[pos];
      if (top.closedBelow(scoreOf(e.popularity, 1))) break;
      if (!this.#delta.has(e.id)) consider(e);
    }
    return top.results();
  }

  #filter(types: string[]): (e: IndexedEntity) => boolean {
    if (types.length === 0) return () => true;
    const wanted = new Set(types);
    return (e) => e.types.some((t) => wanted.has(t));
  }

  #indexed(e: Indexable): IndexedEntity {
    const types = ['Thing', ...e.types.filter((t) => t !== 'Thing')];
    const key = types.join(',');
    let shared = this.#types.get(key);
    if (!shared) this.#types.set(key, (shared = Object.freeze(types)));
    const names: Record<string, string> = {};
    for (const [lang, name] of Object.entries(e.names)) names[lang] = normalize(name);
    const out: IndexedEntity = { id: e.id, popularity: e.popularity ?? 1, types: shared, names };
    if (e.aliases) out.aliases = Object.fromEntries(Object.entries(e.aliases).map(([lang, list]) => [lang, list.map(normalize)]));
    return out;
  }

  #compactIfLarge(): void {
    if (this.#delta.size < this.#deltaLimit) return;
    const live = this.#base.entries.filter((e) => !this.#delta.has(e.id));
    for (const e of this.#delta.values()) if (e) live.push(e);
    this.#base = new Segment(live);
    this.#delta.clear();
  }
}

function termsIn(e: IndexedEntity, languages: string[]): { names: string[]; aliases: string[] } {
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

/** Entities in popularity order and the word dictionary over them; immutable once built. */
class Segment {
  readonly entries: IndexedEntity[];
  /** Distinct words of every name and alias, sorted. */
  readonly #words: string[];
  /** Postings of word i are #postings[#offsets[i] .. #offsets[i + 1]). */
  readonly #offsets: Uint32Array;
  readonly #postings: Postings;
  readonly #positions: Map<string, number>;
  readonly #unions = new Map<string, Postings>();
  readonly #byType = new Map<string, Postings>();

  constructor(entities: IndexedEntity[]) {
    this.entries = entities.sort((a, b) => b.popularity - a.popularity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.#positions = new Map(this.entries.map((e, i) => [e.id, i]));
    const byWord = new Map<string, number[]>();
    this.entries.forEach((e, pos) => {
      for (const word of wordsOf(e)) {
        const list = byWord.get(word);
        if (list) list.push(pos);
        else byWord.set(word, [pos]);
      }
    });
    const byType = new Map<string, number[]>();
    this.entries.forEach((e, pos) => {
      for (const type of e.types) {
        const list = byType.get(type);
        if (list) list.push(pos);
        else byType.set(type, [pos]);
      }
    });
    for (const [type, list] of byType) this.#byType.set(type, Uint32Array.from(list));
    this.#words = [...byWord.keys()].sort(); // code-unit order, as the binary searches compare
    this.#offsets = new Uint32Array(this.#words.length + 1);
    let total = 0;
    this.#words.forEach((w, i) => {
      this.#offsets[i] = total;
      total += byWord.get(w)!.length;
    });
    this.#offsets[this.#words.length] = total;
    this.#postings = new Uint32Array(total);
    this.#words.forEach((w, i) => this.#postings.set(byWord.get(w)!, this.#offsets[i]));
  }

  get live(): number {
    return this.entries.length;
  }

  has(id: string): boolean {
    return this.#positions.has(id);
  }

  wordPostings(word: string): Postings {
    const i = lowerBoundText(this.#words, word);
    return this.#words[i] === word ? this.#postings.subarray(this.#offsets[i], this.#offsets[i + 1]) : new Uint32Array(0);
  }

  /** Positions of the entities of any of these types. */
  typePostings(types: string[]): Postings {
    const lists = types.map((t) => this.#byType.get(t)).filter((l): l is Postings => l !== undefined);
    if (lists.length === 1) return lists[0];
    const all = new Uint32Array(lists.reduce((n, l) => n + l.length, 0));
    let at = 0;
    for (const l of lists) {
      all.set(l, at);
      at += l.length;
    }
    return sortedUnique(all);
  }

  /** Positions of the entities with a word starting with `prefix`. */
  prefixPostings(prefix: string): Postings {
    const lo = lowerBoundText(this.#words, prefix);
    const hi = lowerBoundText(this.#words, `${prefix}\uffff`);
    if (hi - lo <= 1) return this.#postings.subarray(this.#offsets[lo], this.#offsets[hi]);
    const cached = this.#unions.get(prefix);
    if (cached) return cached;
    const union = sortedUnique(this.#postings.subarray(this.#offsets[lo], this.#offsets[hi]));
    if (union.length >= CACHED_UNION) {
      if (this.#unions.size >= CACHED_UNIONS) this.#unions.clear();
      this.#unions.set(prefix, union);
    }
    return union;
  }
}

function wordsOf(e: IndexedEntity): Set<string> {
  const out = new Set<string>();
  const add = (text: string) => {
    for (const w of text.split(' ')) if (w) out.add(w);
  };
  for (const name of Object.values(e.names)) add(name);
  for (const list of Object.values(e.aliases ?? {})) for (const alias of list) add(alias);
  return out;
}
