// Bytes crossing a thread boundary: structured clone turns a Buffer into a plain Uint8Array, and callers on either
// side expect Buffers (better-sqlite3 gives blobs as Buffers; converted content is written as one).

/** A Buffer over the same memory, for a Uint8Array; anything else as it is. */
export function asBuffer<T>(value: T): T extends Uint8Array ? Buffer : T {
  return (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value) as T extends Uint8Array ? Buffer : T;
}

/** The value as a Buffer when it is bytes, else with each byte array among its own properties made a Buffer (in place). */
export function withBuffers(value: unknown): unknown {
  if (value instanceof Uint8Array) return asBuffer(value);
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) if (v instanceof Uint8Array) (value as Record<string, unknown>)[k] = asBuffer(v);
  }
  return value;
}
