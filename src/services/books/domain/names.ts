// Contributor names of Project Gutenberg's catalog ("Last, First, 1832-1898 [Role]") as Books shows authors
// ("First Last").

export interface Contributor {
  name: string;
  /** The role in brackets (Translator, Editor, ...); undefined for an author. */
  role?: string;
}

const SUFFIXES = new Set(['Jr.', 'Sr.', 'II', 'III', 'IV']);

/** One contributor; undefined for an empty entry. */
export function parseContributor(entry: string): Contributor | undefined {
  let text = entry.trim();
  let role: string | undefined;
  const bracket = trailingBracket(text);
  if (bracket) {
    role = text.slice(bracket.open + 1, -1).trim() || undefined;
    text = text.slice(0, bracket.open).trim();
  }
  // Dates ("1832-1898", "-1471", "751? BCE-651? BCE") and expanded forenames in parentheses carry no display name.
  const parts = text
    .split(',')
    .map((p) => withoutParentheses(p).trim())
    .filter((p) => p !== '' && !/\d/.test(p) && !/^(BCE|CE|active|fl\.)\b/i.test(p));
  if (parts.length === 0) return undefined;
  const [last, first, ...rest] = parts;
  let name = last;
  if (first) {
    // Peers repeat the family name in the forenames ("Tennyson, Alfred Tennyson, Baron").
    name = first.endsWith(` ${last}`) ? first : `${first} ${last}`;
    const suffix = rest.find((p) => SUFFIXES.has(p));
    if (suffix) name += ` ${suffix}`;
  }
  return { name: name.replace(/\s+/g, ' '), role };
}

// Both by position, in time linear in the entry: the regular expressions they replace (/\s*\[([^\]]*)\]\s*$/,
// /\([^)]*\)/g) scanned to the end again from every unmatched bracket or space, quadratic in a long entry.

/** The first `[` after which the (trimmed) entry holds no `]` but its last character. */
function trailingBracket(text: string): { open: number } | undefined {
  if (!text.endsWith(']')) return undefined;
  const open = text.indexOf('[', text.lastIndexOf(']', text.length - 2) + 1);
  return open >= 0 && open < text.length - 1 ? { open } : undefined;
}

/** The text without each `(` and what follows it up to the next `)`. */
function withoutParentheses(text: string): string {
  let out = '';
  let at = 0;
  for (let open = text.indexOf('('); open >= 0; open = text.indexOf('(', at)) {
    const close = text.indexOf(')', open);
    if (close < 0) break;
    out += text.slice(at, open);
    at = close + 1;
  }
  return out + text.slice(at);
}

/** Authors of an Authors field: contributors without a role, or every contributor when none is plainly an author. */
export function authorsOf(field: string): string[] {
  const all = field
    .split(';')
    .map(parseContributor)
    .filter((c): c is Contributor => c !== undefined);
  const authors = all.filter((c) => c.role === undefined);
  return [...new Set((authors.length > 0 ? authors : all).map((c) => c.name))];
}
