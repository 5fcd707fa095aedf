// The `q` of volumes.list: free words and "quoted phrases", plus the keywords intitle:, inauthor:, inpublisher:,
// subject: (full-text terms scoped to one field) and isbn:, lccn:, oclc: (exact identifier look-ups). Terms are
// separated by spaces or `+`; every term must match, except a term led by `-`, which volumes must not match
// (`football -soccer`, as Google's book search reads it).
import type { FullTextTerm } from '../../../core/db/fulltext.ts';
import { own } from '../../../core/own.ts';
import { normaliseLookup, type LookupKind } from './catalog-volume.ts';

/** The full-text fields of the catalog index, most important first. */
export const TEXT_FIELDS = ['title', 'authors', 'publisher', 'subjects'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

const FIELD_OF: Record<string, TextField> = { intitle: 'title', inauthor: 'authors', inpublisher: 'publisher', subject: 'subjects' };
const LOOKUPS = new Set<LookupKind>(['isbn', 'lccn', 'oclc']);

export interface VolumeCriteria {
  terms: FullTextTerm[];
  lookups: Array<{ kind: LookupKind; value: string }>;
}

export interface VolumeQuery extends VolumeCriteria {
  /** The `-` terms: a volume matching any one of them is left out. */
  excluded: VolumeCriteria;
}

// A known keyword takes the next word or phrase even past blanks (`intitle: whale` is `intitle:whale`), as each keyword
// is documented to match the text after it. An unknown `word:` keeps only what touches it.
const KEYWORDS = [...Object.keys(FIELD_OF), ...LOOKUPS].join('|');
// A `-` only counts at the start of a token: `saint-exupery` is one word.
const TOKEN = new RegExp(`(-(?=[^\\s+]))?(?:(?:(${KEYWORDS}):[\\s+]*)|([A-Za-z]+):)?(?:"([^"]*)"?|([^\\s+"]+))`, 'gi');

/** Splits q into tokens: `word`, `"a phrase"`, `key:value`, `key:"a phrase"`, each possibly led by `-`. */
function tokens(q: string): Array<{ excluded: boolean; key?: string; value: string }> {
  const out: Array<{ excluded: boolean; key?: string; value: string }> = [];
  for (const m of q.matchAll(TOKEN)) {
    const value = (m[4] ?? m[5] ?? '').trim();
    out.push({ excluded: m[1] !== undefined, key: (m[2] ?? m[3])?.toLowerCase(), value });
  }
  return out;
}

export function parseVolumeQuery(q: string): VolumeQuery {
  const query: VolumeQuery = { terms: [], lookups: [], excluded: { terms: [], lookups: [] } };
  for (const { excluded, key, value } of tokens(q)) {
    if (value === '') continue;
    const into = excluded ? query.excluded : query;
    // Only the keywords' own entries: `constructor:` is an unknown keyword, not Object.prototype's member.
    const field = key === undefined ? undefined : own(FIELD_OF, key);
    if (field) {
      into.terms.push({ text: value, field });
    } else if (key && LOOKUPS.has(key as LookupKind)) {
      into.lookups.push({ kind: key as LookupKind, value: normaliseLookup(key as LookupKind, value) });
    } else {
      // An unknown keyword is ordinary text ("c:" in "Objective-C: a primer").
      into.terms.push({ text: key ? `${key} ${value}` : value });
    }
  }
  return query;
}
