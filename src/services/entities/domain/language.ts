// Requested language tags: a tag with a region or script (`en-GB`, `pt-BR`) stands for texts stored under that tag,
// else under its primary language (`en`, `pt`), since the graph keys most texts by the bare ISO 639 code.

export const primaryLanguage = (tag: string): string => tag.split('-')[0];

/** The stored text for a requested tag: the tag's own, else its primary language's. */
export function textFor<T>(values: Record<string, T>, tag: string): T | undefined {
  return values[tag] ?? values[primaryLanguage(tag)];
}

/** The language keys whose names and aliases a search with these tags matches. */
export function matchedLanguages(tags: string[]): string[] {
  return [...new Set(tags.flatMap((t) => [t, primaryLanguage(t)]))];
}
