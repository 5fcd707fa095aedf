// Policy path patterns: `*` as the last character matches any suffix, a `+` segment matches exactly one segment.
// When several patterns match a path, only the highest-priority one applies (no union across patterns).

export interface PathPattern {
  /** As written (leading `/` removed). */
  raw: string;
  /** The pattern without its trailing `*`. */
  body: string;
  prefix: boolean;
  /** Segments of `body` when it holds `+` segments; undefined for plain patterns (matched by string compare). */
  segments?: string[];
  /** Index of the first `+` segment or of the `*` glob; Infinity for exact patterns. */
  firstWildcard: number;
  plusCount: number;
}

export function compilePattern(raw: string): PathPattern {
  const prefix = raw.endsWith('*');
  const body = prefix ? raw.slice(0, -1) : raw;
  const parts = body.split('/');
  let firstWildcard = prefix ? body.length : Infinity;
  let plusCount = 0;
  let offset = 0;
  for (const part of parts) {
    if (part === '+') {
      plusCount++;
      firstWildcard = Math.min(firstWildcard, offset);
    }
    offset += part.length + 1;
  }
  return { raw, body, prefix, segments: plusCount > 0 ? parts : undefined, firstWildcard, plusCount };
}

export function patternMatches(p: PathPattern, path: string): boolean {
  if (!p.segments) return p.prefix ? path.startsWith(p.body) : path === p.body;
  const parts = path.split('/');
  const want = p.segments;
  if (p.prefix ? parts.length < want.length : parts.length !== want.length) return false;
  for (let i = 0; i < want.length; i++) {
    if (want[i] === '+') continue;
    const lastOfPrefix = p.prefix && i === want.length - 1;
    if (lastOfPrefix ? !parts[i].startsWith(want[i]) : parts[i] !== want[i]) return false;
  }
  return true;
}

/**
 * Orders two patterns that both match: positive when `a` has the higher priority. The rules, in order:
 * a later first wildcard wins; not ending in `*` beats ending in `*`; fewer `+` segments win; longer wins;
 * lexicographically larger wins.
 */
export function comparePriority(a: PathPattern, b: PathPattern): number {
  if (a.firstWildcard !== b.firstWildcard) return a.firstWildcard > b.firstWildcard ? 1 : -1;
  if (a.prefix !== b.prefix) return a.prefix ? -1 : 1;
  if (a.plusCount !== b.plusCount) return a.plusCount < b.plusCount ? 1 : -1;
  if (a.raw.length !== b.raw.length) return a.raw.length > b.raw.length ? 1 : -1;
  return a.raw === b.raw ? 0 : a.raw > b.raw ? 1 : -1;
}
