// The base segment of the search index: every entity it holds in popularity order, with a word dictionary (sorted, so
// a prefix is a contiguous range) over postings of positions. It is kept in typed arrays and a few long strings rather
// than an object per entity: a graph of a hundred thousand entities then costs tens of megabytes, not hundreds, and
// the objects made while building it all die, so the process gives their memory back once it is built.
import type { MatchTerms } from './match.ts';
import { sortedUnique, type Postings } from './postings.ts';

/** What the index keeps of an entity: normalised texts, types and popularity; the document stays in the database. */
export interface IndexedEntity {
  id: string;
  popularity: number;
  types: readonly string[];
  names: Record<string, string>;
  aliases?: Record<string, string[]>;
}

// An entity's terms are stored as one string of records `<language><kind><text>END`: the language as one character
// (its number in the segment's table), the kind (name or alias), then the folded text, which holds letters, digits
// and single spaces only, so never END.
const END = '\u0001';
const NAME = 'n';
const ALIAS = 'a';
/** Language numbers are written as characters from here on (printable, one byte while there are few languages). */
const FIRST_LANGUAGE = 0x20;
/** Entities whose terms share one string: few strings, and one non-Latin-1 text widens only its own block. */
const BLOCK = 256;
/** Prefix unions at least this long are kept once computed (only short prefixes reach it), up to a bound. */
const CACHED_UNION = 256;
const CACHED_UNIONS = 4096;

const languageChar = (n: number) => {
  const code = FIRST_LANGUAGE + n;
  if (code >= 0xd800) throw new Error('too many languages in one entity graph');
  return String.fromCharCode(code);
};

/** Collects entities (already normalised), then lays them out as a segment. */
export class SegmentBuilder {
  readonly #ids: string[] = [];
  readonly #popularity: number[] = [];
  readonly #typeSets: number[] = [];
  readonly #terms: string[] = [];
  readonly #typeLists: Array<readonly string[]> = [];
  readonly #typeSetOf = new Map<string, number>();
  readonly #languages: string[] = [];
  readonly #languageOf = new Map<string, string>();

  add(e: IndexedEntity): void {
    this.#ids.push(e.id);
    this.#popularity.push(e.popularity);
    const key = e.types.join('\u0000');
    let set = this.#typeSetOf.get(key);
    if (set === undefined) {
      this.#typeSetOf.set(key, (set = this.#typeLists.length));
      this.#typeLists.push(e.types);
    }
    this.#typeSets.push(set);
    // Joined rather than concatenated: one flat string per entity, not a tree of pieces each an object of its own.
    const terms: string[] = [];
    for (const [lang, name] of Object.entries(e.names)) terms.push(this.#language(lang), NAME, name, END);
    for (const [lang, list] of Object.entries(e.aliases ?? {})) for (const alias of list) terms.push(this.#language(lang), ALIAS, alias, END);
    this.#terms.push(terms.join(''));
  }

  #language(lang: string): string {
    let char = this.#languageOf.get(lang);
    if (char === undefined) {
      this.#languageOf.set(lang, (char = languageChar(this.#languages.length)));
      this.#languages.push(lang);
    }
    return char;
  }

  finish(): Segment {
    const ids = this.#ids;
    const given = this.#popularity;
    const n = ids.length;
    // Popularity first, then id: the order in which a search visits candidates.
    const order = indices(n).sort((a, b) => given[b] - given[a] || compareText(ids[a], ids[b]));
    const popularity = new Float64Array(n);
    const typeSets = new Uint32Array(n);
    const termEnds = new Uint32Array(n);
    const blocks: string[] = [];
    const words = new WordCollector();
    let block: string[] = [];
    let blockLength = 0;
    order.forEach((from, pos) => {
      popularity[pos] = given[from];
      typeSets[pos] = this.#typeSets[from];
      const terms = this.#terms[from];
      words.add(pos, terms);
      block.push(terms);
      termEnds[pos] = blockLength += terms.length;
      if ((pos + 1) % BLOCK === 0 || pos === n - 1) {
        blocks.push(block.join(''));
        block = [];
        blockLength = 0;
      }
    });
    const packedIds = pack(Array.from(order, (from) => ids[from]));
    return new Segment({ ids: packedIds, popularity, typeSets, typeLists: this.#typeLists, languages: this.#languages, terms: { blocks, ends: termEnds }, words: words.finish() });
  }
}

/** Gathers each entity's distinct words, then lays out the dictionary and its postings. */
class WordCollector {
  readonly #numberOf = new Map<string, number>();
  /** The last position each word was added for: a word an entity repeats is counted once. */
  readonly #lastPosition: number[] = [];
  #pairs = new Uint32Array(1024);
  #count = 0;

  /** Words of one entity's terms; positions come in ascending order. */
  add(pos: number, terms: string): void {
    for (let i = 0; i < terms.length; ) {
      const end = terms.indexOf(END, i + 2);
      for (const word of terms.slice(i + 2, end).split(' ')) {
        if (!word) continue;
        let n = this.#numberOf.get(word);
        if (n === undefined) this.#numberOf.set(word, (n = this.#numberOf.size));
        if (this.#lastPosition[n] === pos) continue;
        this.#lastPosition[n] = pos;
        if (this.#count + 2 > this.#pairs.length) {
          const grown = new Uint32Array(this.#pairs.length * 2);
          grown.set(this.#pairs);
          this.#pairs = grown;
        }
        this.#pairs[this.#count++] = n;
        this.#pairs[this.#count++] = pos;
      }
      i = end + 1;
    }
  }

  finish(): Words {
    const words = [...this.#numberOf.keys()];
    const sorted = indices(words.length).sort((a, b) => compareText(words[a], words[b])); // code-unit order, as the searches compare
    const rank = new Uint32Array(words.length);
    sorted.forEach((n, r) => (rank[n] = r));
    // Counting sort by word; positions stay ascending within each word since they were added in order.
    const offsets = new Uint32Array(words.length + 1);
    for (let i = 0; i < this.#count; i += 2) offsets[rank[this.#pairs[i]] + 1]++;
    for (let r = 0; r < words.length; r++) offsets[r + 1] += offsets[r];
    const postings = new Uint32Array(this.#count / 2);
    const next = offsets.slice(0, words.length);
    for (let i = 0; i < this.#count; i += 2) postings[next[rank[this.#pairs[i]]]++] = this.#pairs[i + 1];
    return { ...pack(sorted.map((n) => words[n])), offsets, postings };
  }
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** 0 .. n - 1 in a plain array (sorting one with a comparator is faster than a typed array). */
function indices(n: number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** Strings end to end in one (joined, so stored as one flat sequence rather than a string object per item). */
function pack(items: string[]): Packed {
  const ends = new Uint32Array(items.length);
  let at = 0;
  items.forEach((item, i) => (ends[i] = at += item.length));
  return { text: items.join(''), ends };
}

/** The first index in [0, n) for which `below` is false, `below` being true up to some index and false after. */
function firstNotBelow(n: number, below: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (below(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Strings laid end to end: item i is text[ends[i - 1] .. ends[i]). */
interface Packed {
  text: string;
  ends: Uint32Array;
}

interface Words extends Packed {
  /** Postings of word i are postings[offsets[i] .. offsets[i + 1]). */
  offsets: Uint32Array;
  postings: Postings;
}

interface SegmentParts {
  ids: Packed;
  popularity: Float64Array;
  typeSets: Uint32Array;
  typeLists: ReadonlyArray<readonly string[]>;
  languages: readonly string[];
  terms: { blocks: string[]; ends: Uint32Array };
  words: Words;
}

const itemOf = (p: Packed, i: number) => p.text.slice(i === 0 ? 0 : p.ends[i - 1], p.ends[i]);

/** Entities in popularity order and the word dictionary over them; immutable once built. */
export class Segment {
  readonly #p: SegmentParts;
  /** Positions in id order, to find an id by binary search; sorted on first use (only changes need it). */
  #byId?: Uint32Array;
  readonly #byType = new Map<string, Postings>();
  readonly #unions = new Map<string, Postings>();

  constructor(parts: SegmentParts) {
    this.#p = parts;
    const byType = new Map<string, number[]>();
    parts.typeSets.forEach((set, pos) => {
      for (const type of parts.typeLists[set]) {
        const list = byType.get(type);
        if (list) list.push(pos);
        else byType.set(type, [pos]);
      }
    });
    for (const [type, list] of byType) this.#byType.set(type, Uint32Array.from(list));
  }

  static empty(): Segment {
    return new SegmentBuilder().finish();
  }

  get live(): number {
    return this.#p.popularity.length;
  }

  idAt(pos: number): string {
    return itemOf(this.#p.ids, pos);
  }

  popularityAt(pos: number): number {
    return this.#p.popularity[pos];
  }

  typesAt(pos: number): readonly string[] {
    return this.#p.typeLists[this.#p.typeSets[pos]];
  }

  has(id: string): boolean {
    const byId = (this.#byId ??= this.#sortedById());
    const i = firstNotBelow(byId.length, (k) => this.idAt(byId[k]) < id);
    return i < byId.length && this.idAt(byId[i]) === id;
  }

  #sortedById(): Uint32Array {
    const ids = Array.from({ length: this.live }, (_, pos) => this.idAt(pos));
    return Uint32Array.from(indices(ids.length).sort((a, b) => compareText(ids[a], ids[b])));
  }

  /** The characters that stand for these languages in the terms (languages no entity uses are left out). */
  languageKeys(languages: string[]): Set<string> {
    const keys = new Set<string>();
    for (const l of languages) {
      const n = this.#p.languages.indexOf(l);
      if (n >= 0) keys.add(languageChar(n));
    }
    return keys;
  }

  /** The entity's names and aliases in the languages `languageKeys` gave. */
  termsAt(pos: number, keys: Set<string>): MatchTerms {
    // Searches call this for every candidate: the walk of #eachTerm, inline, slicing only the wanted texts.
    const names: string[] = [];
    const aliases: string[] = [];
    const { blocks, ends } = this.#p.terms;
    const block = blocks[Math.floor(pos / BLOCK)];
    const end = ends[pos];
    for (let i = pos % BLOCK === 0 ? 0 : ends[pos - 1]; i < end; ) {
      const stop = block.indexOf(END, i + 2);
      if (keys.has(block[i])) (block[i + 1] === NAME ? names : aliases).push(block.slice(i + 2, stop));
      i = stop + 1;
    }
    return { names, aliases };
  }

  /** The entity as it was added (to fold the segment and later changes into a new one). */
  entityAt(pos: number): IndexedEntity {
    const names: Record<string, string> = {};
    const aliases: Record<string, string[]> = {};
    this.#eachTerm(pos, (key, kind, text) => {
      const lang = this.#p.languages[key.charCodeAt(0) - FIRST_LANGUAGE];
      if (kind === NAME) names[lang] = text;
      else (aliases[lang] ??= []).push(text);
    });
    const e: IndexedEntity = { id: this.idAt(pos), popularity: this.popularityAt(pos), types: this.typesAt(pos), names };
    if (Object.keys(aliases).length) e.aliases = aliases;
    return e;
  }

  #eachTerm(pos: number, fn: (key: string, kind: string, text: string) => void): void {
    const { blocks, ends } = this.#p.terms;
    const block = blocks[Math.floor(pos / BLOCK)];
    const end = ends[pos];
    for (let i = pos % BLOCK === 0 ? 0 : ends[pos - 1]; i < end; ) {
      const stop = block.indexOf(END, i + 2);
      fn(block[i], block[i + 1], block.slice(i + 2, stop));
      i = stop + 1;
    }
  }

  wordPostings(word: string): Postings {
    const i = this.#lowerBoundWord(word);
    return i < this.#wordCount && itemOf(this.#p.words, i) === word ? this.#postingsOf(i, i + 1) : new Uint32Array(0);
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
    const lo = this.#lowerBoundWord(prefix);
    const hi = this.#lowerBoundWord(`${prefix}\uffff`);
    if (hi - lo <= 1) return this.#postingsOf(lo, hi);
    const cached = this.#unions.get(prefix);
    if (cached) return cached;
    const union = sortedUnique(this.#postingsOf(lo, hi));
    if (union.length >= CACHED_UNION) {
      if (this.#unions.size >= CACHED_UNIONS) this.#unions.clear();
      this.#unions.set(prefix, union);
    }
    return union;
  }

  get #wordCount(): number {
    return this.#p.words.ends.length;
  }

  #postingsOf(from: number, to: number): Postings {
    const { offsets, postings } = this.#p.words;
    return postings.subarray(offsets[from], offsets[to]);
  }

  /** First word not below `key` (code-unit order). */
  #lowerBoundWord(key: string): number {
    return firstNotBelow(this.#wordCount, (i) => itemOf(this.#p.words, i) < key);
  }
}
