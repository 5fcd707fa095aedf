// Regular expressions a request supplies (report conditions, form-field patterns). JavaScript's engine backtracks: a
// pattern such as `(a+)+$` or `(a|a)*b` over a long value could hold the one event loop of every service for minutes.
// These run on RE2's algorithm instead (re2js), whose time is linear in the input whatever the pattern; its language
// is RE2's, which has no lookaround and no backreferences, as the real services' own pattern languages.
import { RE2JS } from 're2js';
import { boundedCache } from './cache.ts';

export type { RE2JS as UntrustedPattern } from 're2js';

/** Compiled patterns by source: a report condition is evaluated on every row, a form's pattern on every payer. */
const compiled = boundedCache<string, RE2JS>({ entries: 1_000, bytes: 4 * 1024 * 1024 }, (_, source) => source.length * 16);

/** The compiled pattern, or RE2's reason for refusing it. `search`/`matchesWhole` are the two ways callers apply one. */
export function compileUntrustedPattern(source: string): RE2JS | { refused: string } {
  const known = compiled.get(source);
  if (known) return known;
  try {
    const pattern = RE2JS.compile(source);
    compiled.set(source, pattern);
    return pattern;
  } catch (e) {
    return { refused: (e as Error).message };
  }
}

/** Whether `pattern` matches somewhere in `text`. */
export const search = (pattern: RE2JS, text: string): boolean => pattern.matcher(text).find();

/** Whether `pattern` matches the whole of `text`. */
export const matchesWhole = (pattern: RE2JS, text: string): boolean => pattern.matches(text);
