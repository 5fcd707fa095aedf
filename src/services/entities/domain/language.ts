// Requested language tags: a tag with a region or script (`en-GB`, `pt-BR`) stands for texts stored under that tag,
// else under its primary language (`en`, `pt`), since the graph keys most texts by the bare ISO 639 code.

const TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/**
 * A requested tag in its canonical case, or undefined when it is no language tag. Tags are case-insensitive (BCP 47):
 * `EN` is `en`, `pt-br` is `pt-BR`, `zh-hant` is `zh-Hant`.
 */
export function canonicalTag(raw: string): string | undefined {
  if (!TAG.test(raw)) return undefined;
  const [primary, ...rest] = raw.split('-');
  const subtags = rest.map((s) => (/^[A-Za-z]{2}$/.test(s) ? s.toUpperCase() : /^[A-Za-z]{4}$/.test(s) ? s[0].toUpperCase() + s.slice(1).toLowerCase() : s.toLowerCase()));
  return [primary.toLowerCase(), ...subtags].join('-');
}

export const primaryLanguage = (tag: string): string => tag.split('-')[0];

/** The stored text for a requested tag: the tag's own, else its primary language's. */
export function textFor<T>(values: Record<string, T>, tag: string): T | undefined {
  return values[tag] ?? values[primaryLanguage(tag)];
}

/** The language keys whose names and aliases a search with these tags matches. */
export function matchedLanguages(tags: string[]): string[] {
  return [...new Set(tags.flatMap((t) => [t, primaryLanguage(t)]))];
}
