// Whole-value matching of wildcard patterns (SQL LIKE's `%` and `_`, a policy glob's `*`). Translating them into a
// regular expression lets the backtracking engine try every split: `%a%a%a%a%b` over 150 characters took seconds. This
// walk keeps only the last `many` it passed, so its time is at most pattern × value, never exponential.

/**
 * Whether `pattern` matches the whole of `text`: `many` stands for any run of characters (the empty one too), `one`
 * (when given) for exactly one character, every other character for itself. Characters are code points.
 */
export function wildcardMatch(pattern: string, text: string, many: string, one?: string): boolean {
  const p = Array.from(pattern);
  const t = Array.from(text);
  let i = 0; // in t
  let j = 0; // in p
  let lastMany = -1; // where in p the last `many` stood
  let resumeAt = 0; // where in t that `many` stopped swallowing
  while (i < t.length) {
    if (j < p.length && p[j] === many) {
      lastMany = j++;
      resumeAt = i;
    } else if (j < p.length && (p[j] === one || p[j] === t[i])) {
      i++;
      j++;
    } else if (lastMany >= 0) {
      // Let the last `many` swallow one more character and try the rest again from there.
      j = lastMany + 1;
      i = ++resumeAt;
    } else {
      return false;
    }
  }
  while (j < p.length && p[j] === many) j++;
  return j === p.length;
}
