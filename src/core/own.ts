// Lookups by a name a request chose. A plain object inherits Object.prototype's members, so `TABLE[name]` finds a
// function for `constructor`, `valueOf` or `toString`, and `name in TABLE` is true for them: tables read with a
// request's name go through these instead.

/** `table[key]` when `key` is the table's own entry, else undefined. */
export function own<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A dictionary with no prototype, for entries keyed by a request's names (`__proto__` is an ordinary key there). */
export function dictionary<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** Sets an own property even for keys such as `__proto__`, which plain assignment would treat as the prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
