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
  const bracket = /\s*\[([^\]]*)\]\s*$/.exec(text);
  if (bracket) {
    role = bracket[1].trim() || undefined;
    text = text.slice(0, bracket.index).trim();
  }
  // Dates ("1832-1898", "-1471", "751? BCE-651? BCE") and expanded forenames in parentheses carry no display name.
  const parts = text
    .split(',')
    .map((p) => p.replace(/\([^)]*\)/g, '').trim())
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

/** Authors of an Authors field: contributors without a role, or every contributor when none is plainly an author. */
export function authorsOf(field: string): string[] {
  const all = field
    .split(';')
    .map(parseContributor)
    .filter((c): c is Contributor => c !== undefined);
  const authors = all.filter((c) => c.role === undefined);
  return [...new Set((authors.length > 0 ? authors : all).map((c) => c.name))];
}
