// HTTP byte ranges: `Range: bytes=a-b` on downloads and `Content-Range: bytes a-b/total` on resumable chunks.

export type RangeResult = { start: number; end: number } | 'unsatisfiable' | undefined;

/**
 * One range of a `Range` header against content of `size` bytes (end exclusive). Undefined when there is no usable
 * header (the whole content is sent, as RFC 9110 allows for a syntax it does not understand); 'unsatisfiable' for a
 * well-formed range outside the content.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size };
  }
  const start = Number(m[1]);
  const last = m[2] === '' ? size - 1 : Number(m[2]);
  if (last < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) + 1 };
}

export type ContentRange =
  | { kind: 'chunk'; start: number; end: number; total?: number }
  | { kind: 'probe'; total?: number };

/** `bytes a-b/total`, `bytes a-b/*`, `bytes * /total` or `bytes * /*` (end exclusive); undefined when malformed. */
export function parseContentRange(header: string): ContentRange | undefined {
  const m = /^bytes\s+(?:(\d+)-(\d+)|\*)\/(\d+|\*)$/.exec(header.trim());
  if (!m) return undefined;
  const total = m[3] === '*' ? undefined : Number(m[3]);
  if (m[1] === undefined) return { kind: 'probe', total };
  const start = Number(m[1]);
  const last = Number(m[2]);
  if (last < start || (total !== undefined && last >= total)) return undefined;
  return { kind: 'chunk', start, end: last + 1, total };
}
