// Sorted lists of entity positions (postings) and the two operations search needs on them.

export type Postings = Uint32Array;

/** Positions present in every list (each sorted ascending); the shortest list drives, the others are probed. */
export function intersect(lists: Postings[]): Postings {
  if (lists.length === 0) return new Uint32Array(0);
  const sorted = [...lists].sort((a, b) => a.length - b.length);
  let result = sorted[0];
  for (const other of sorted.slice(1)) {
    if (result.length === 0) break;
    const next = new Uint32Array(result.length);
    let n = 0;
    let lo = 0;
    for (const value of result) {
      lo = lowerBound(other, value, lo);
      if (lo >= other.length) break;
      if (other[lo] === value) next[n++] = value;
    }
    result = next.subarray(0, n);
  }
  return result;
}

/** The sorted, duplicate-free union of positions given in any order. */
export function sortedUnique(values: Postings): Postings {
  const copy = Uint32Array.from(values).sort();
  let n = 0;
  for (let i = 0; i < copy.length; i++) if (i === 0 || copy[i] !== copy[i - 1]) copy[n++] = copy[i];
  return copy.subarray(0, n);
}

/** First index at or after `from` whose value is not below `value`: a gallop then a binary search. */
function lowerBound(list: Postings, value: number, from: number): number {
  let step = 1;
  let hi = from;
  while (hi < list.length && list[hi] < value) {
    from = hi + 1;
    hi += step;
    step *= 2;
  }
  hi = Math.min(hi, list.length);
  let lo = from;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
