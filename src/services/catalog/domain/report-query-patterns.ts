// The two pattern languages of conditions: LIKE (`%` any run, `_` one character) and REGEXP_MATCH (RE2 syntax,
// run here as a JavaScript RegExp that searches the value; a leading `(?i)` makes it case-insensitive).
import { compileUntrustedPattern } from '../../../core/untrusted-pattern.ts';
import { ReportQueryError } from './report-query-lexer.ts';

export function compilePattern(pattern: string, position = 0): RegExp {
  const insensitive = pattern.startsWith('(?i)');
  const compiled = compileUntrustedPattern(insensitive ? pattern.slice(4) : pattern, insensitive ? 'iu' : 'u', { re2: true });
  if (compiled instanceof RegExp) return compiled;
  if (compiled === 'nested-repetition') throw new ReportQueryError(`Regular expression '${pattern}' nests repetitions, which are refused here: their matching time can grow exponentially`, position);
  throw new ReportQueryError(`Invalid regular expression '${pattern}'`, position);
}

export function likePattern(pattern: string): RegExp {
  let source = '';
  for (const ch of pattern) source += ch === '%' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${source}$`, 'su');
}
