// Regular expressions a request supplies (report conditions, form-field patterns). The real services run them with
// RE2, which takes time linear in the input; JavaScript's engine backtracks, so a nested repetition such as `(a+)+$`
// over a long value could hold the one event loop of every service for minutes. A pattern is taken only when its
// repetitions are not nested (star height 1, at most 25) and, where the API's own language is RE2, when RE2 could run
// it too (no backreferences, no lookaround). Overlapping alternatives under one repetition (`(a|a)*`) are not caught.
import safeRegex from 'safe-regex2';

export type PatternRefusal = 'invalid' | 'unsupported' | 'nested-repetition';

/** The compiled pattern, or why it is refused; `re2` refuses what RE2 lacks as `unsupported`. */
export function compileUntrustedPattern(source: string, flags: string, options: { re2: boolean }): RegExp | PatternRefusal {
  let compiled: RegExp;
  try {
    compiled = new RegExp(source, flags);
  } catch {
    return 'invalid';
  }
  if (options.re2 && usesBacktrackingOnlySyntax(source)) return 'unsupported';
  if (!safeRegex(withoutLookbehind(source))) return 'nested-repetition';
  return compiled;
}

/** `source` with lookbehind groups opened as plain groups: the checker's parser cannot read them, and their nesting is the same. */
function withoutLookbehind(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      out += source.slice(i, i + 2);
      i++;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === ']') inClass = false;
    else if (ch === '(' && !inClass && /^\?<[=!]/.test(source.slice(i + 1, i + 4))) {
      out += '(?:';
      i += 3;
      continue;
    }
    out += ch;
  }
  return out;
}

/** Backreferences (`\1`, `\k<name>`) and lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`), which RE2 does not have. */
function usesBacktrackingOnlySyntax(source: string): boolean {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || (next === 'k' && source[i + 2] === '<'))) return true;
      i++;
    } else if (ch === '[') {
      inClass = true;
    } else if (ch === ']') {
      inClass = false;
    } else if (ch === '(' && !inClass && /^\?(?:[=!]|<[=!])/.test(source.slice(i + 1, i + 4))) {
      return true;
    }
  }
  return false;
}
