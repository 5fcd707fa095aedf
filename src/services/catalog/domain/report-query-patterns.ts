// The two pattern languages of conditions: LIKE (`%` any run, `_` one character) and REGEXP_MATCH (RE2 syntax, run on
// RE2's linear-time algorithm, matching anywhere in the value; `(?i)` makes it case-insensitive, as in RE2).
import { compileUntrustedPattern, search } from '../../../core/untrusted-pattern.ts';
import { wildcardMatch } from '../../../core/wildcard.ts';
import { ReportQueryError } from './report-query-lexer.ts';

/** A REGEXP_MATCH condition's test; throws the query error when RE2 refuses the pattern. */
export function compilePattern(pattern: string, position = 0): { test(value: string): boolean } {
  const compiled = compileUntrustedPattern(pattern);
  if ('refused' in compiled) throw new ReportQueryError(`Invalid regular expression '${pattern}': ${compiled.refused}`, position);
  return { test: (value) => search(compiled, value) };
}

/** Whether `value` is LIKE `pattern` as a whole (`%` any run, `_` one character), in time at most their product. */
export const likeMatches = (pattern: string, value: string): boolean => wildcardMatch(pattern, value, '%', '_');
