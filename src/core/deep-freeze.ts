// Values shared by every request that reads them (a parsed document kept in a cache) are frozen through, so that no
// request can change what the next one reads.

/** `value` with itself and everything it holds frozen; returns `value`. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
