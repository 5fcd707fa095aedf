// Text normalisation for matching names and aliases: case, accents and punctuation do not matter.

/** Lower-case, accents removed, punctuation turned into spaces, spaces collapsed. */
export function normalize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The words of a normalised text. */
export function tokens(text: string): string[] {
  const n = normalize(text);
  return n ? n.split(' ') : [];
}
