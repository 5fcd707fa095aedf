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

interface Token {
  /** An escape (`\\x`), a lookaround opener (`(?=`, `(?!`, `(?<=`, `(?<!`) or one character. */
  text: string;
  inClass: boolean;
}

/** The pattern's source cut into the pieces both checks read, each marked inside or outside a character class. */
function tokensOf(source: string): Token[] {
  const tokens: Token[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; ) {
    const lookaround = !inClass && source[i] === '(' ? /^\(\?(?:[=!]|<[=!])/.exec(source.slice(i, i + 4))?.[0] : undefined;
    const text = source[i] === '\\' ? source.slice(i, i + 2) : (lookaround ?? source[i]!);
    tokens.push({ text, inClass });
    if (text === '[') inClass = true;
    else if (text === ']') inClass = false;
    i += text.length;
  }
  return tokens;
}

/** `source` with lookbehind groups opened as plain groups: the checker's parser cannot read them, and their nesting is the same. */
function withoutLookbehind(source: string): string {
  return tokensOf(source)
    .map((t) => (t.text === '(?<=' || t.text === '(?<!' ? '(?:' : t.text))
    .join('');
}

/** Backreferences (`\1`, `\k<name>`) and lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`), which RE2 does not have. */
function usesBacktrackingOnlySyntax(source: string): boolean {
  const tokens = tokensOf(source);
  return tokens.some((t, i) => !t.inClass && (t.text.startsWith('(?') || /^\\[1-9]$/.test(t.text) || (t.text === '\\k' && tokens[i + 1]?.text === '<')));
}
