// The two pattern languages of conditions: LIKE (`%` any run, `_` one character) and REGEXP_MATCH (RE2 syntax,
// run here as a JavaScript RegExp that searches the value; a leading `(?i)` makes it case-insensitive).
import { ReportQueryError } from './report-query-lexer.ts';

export function compilePattern(pattern: string, position = 0): RegExp {
  const insensitive = pattern.startsWith('(?i)');
  try {
    return new RegExp(insensitive ? pattern.slice(4) : pattern, insensitive ? 'iu' : 'u');
  } catch {
    throw new ReportQueryError(`Invalid regular expression '${pattern}'`, position);
  }
}

export function likePattern(pattern: string): RegExp {
  let source = '';
  for (const ch of pattern) source += ch === '%' ? '.*' : ch === '_' ? '.' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${source}$`, 'su');
}
