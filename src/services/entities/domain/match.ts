// How well an entity's names and aliases match a query. Pure: the store finds candidates, this ranks them.
import { normalize, tokens } from './normalize.ts';

/** Match strengths, strongest first. */
export const WEIGHTS = {
  exactName: 1,
  exactAlias: 0.9,
  prefixName: 0.7,
  allWords: 0.6,
  prefixAlias: 0.5,
  prefixWords: 0.4,
} as const;

export interface MatchTerms {
  names: string[];
  aliases: string[];
}

/**
 * The best weight with which `query` matches one of the terms, or 0 for no match.
 * Without `prefix`: the whole name, the whole alias, or every query word among a name's or alias's words.
 * With `prefix`: also a name or alias that starts with the query, or words that start with each query word in turn.
 */
export function matchWeight(query: string, terms: MatchTerms, prefix: boolean): number {
  const q = normalize(query);
  if (!q) return 0;
  return weighNormalized(q, q.split(' '), { names: terms.names.map(normalize), aliases: terms.aliases.map(normalize) }, prefix);
}

/** `matchWeight` over texts already normalised (`q` and `qWords` are the query's normal form and its words). */
export function weighNormalized(q: string, qWords: string[], terms: MatchTerms, prefix: boolean): number {
  let best = 0;
  const consider = (n: string, isName: boolean) => {
    if (!n) return;
    if (n === q) best = Math.max(best, isName ? WEIGHTS.exactName : WEIGHTS.exactAlias);
    if (best >= WEIGHTS.exactName) return;
    const words = n.split(' ');
    if (qWords.every((w) => words.includes(w))) best = Math.max(best, WEIGHTS.allWords);
    if (prefix) {
      if (n.startsWith(q)) best = Math.max(best, isName ? WEIGHTS.prefixName : WEIGHTS.prefixAlias);
      if (qWords.every((w) => words.some((x) => x.startsWith(w)))) best = Math.max(best, WEIGHTS.prefixWords);
    }
  };
  for (const name of terms.names) consider(name, true);
  for (const alias of terms.aliases) consider(alias, false);
  return best;
}

/**
 * The search terms an entity is indexed under: the words of its names and aliases. Every match needs each query word
 * among them (the last one as a prefix with `prefix`), so candidates are the intersection of one lookup per word.
 */
export function indexTerms(texts: string[]): string[] {
  const out = new Set<string>();
  for (const t of texts) for (const w of tokens(t)) out.add(w);
  return [...out];
}
