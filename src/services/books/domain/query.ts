// The `q` of volumes.list: free words and "quoted phrases", plus the keywords intitle:, inauthor:, inpublisher:,
// subject: (full-text terms scoped to one field) and isbn:, lccn:, oclc: (exact identifier look-ups). Terms are
// separated by spaces or `+`; every term must match.
import type { FullTextTerm } from '../../../core/db/fulltext.ts';
import { own } from '../../../core/own.ts';
import { normaliseLookup, type LookupKind } from './catalog-volume.ts';

/** The full-text fields of the catalog index, most important first. */
export const TEXT_FIELDS = ['title', 'authors', 'publisher', 'subjects'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

const FIELD_OF: Record<string, TextField> = { intitle: 'title', inauthor: 'authors', inpublisher: 'publisher', subject: 'subjects' };
const LOOKUPS = new Set<LookupKind>(['isbn', 'lccn', 'oclc']);

export interface VolumeQuery {
  terms: FullTextTerm[];
  lookups: Array<{ kind: LookupKind; value: string }>;
}

/** Splits q into tokens: `word`, `"a phrase"`, `key:value`, `key:"a phrase"`. */
function tokens(q: string): Array<{ key?: string; value: string }> {
  const out: Array<{ key?: string; value: string }> = [];
  const pattern = /(?:([A-Za-z]+):)?(?:"([^"]*)"?|([^\s+"]+))/g;
  for (const m of q.matchAll(pattern)) {
    const value = (m[2] ?? m[3] ?? '').trim();
    out.push({ key: m[1]?.toLowerCase(), value });
  }
  return out;
}

export function parseVolumeQuery(q: string): VolumeQuery {
  const query: VolumeQuery = { terms: [], lookups: [] };
  for (const { key, value } of tokens(q)) {
    if (value === '') continue;
    // Only the keywords' own entries: `constructor:` is an unknown keyword, not Object.prototype's member.
    const field = key === undefined ? undefined : own(FIELD_OF, key);
    if (field) {
      query.terms.push({ text: value, field });
    } else if (key && LOOKUPS.has(key as LookupKind)) {
      query.lookups.push({ kind: key as LookupKind, value: normaliseLookup(key as LookupKind, value) });
    } else {
      // An unknown keyword is ordinary text ("c:" in "Objective-C: a primer").
      query.terms.push({ text: key ? `${key} ${value}` : value });
    }
  }
  return query;
}
