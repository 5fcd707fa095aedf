// Opaque page tokens: the position to resume from, bound to the query that produced it.
import { createHash } from 'node:crypto';
import { invalidArgument } from './errors.ts';

/** Encodes a position (offset or cursor) for the query identified by `queryKey`. */
export function encodePageToken(position: unknown, queryKey: string): string {
  return Buffer.from(JSON.stringify({ p: position, q: digest(queryKey) })).toString('base64url');
}

/** Decodes a token made by `encodePageToken` for the same query; a 400 for anything else. */
export function decodePageToken<T>(token: string, queryKey: string): T {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (parsed && parsed.q === digest(queryKey) && parsed.p !== undefined) return parsed.p as T;
  } catch {
    // fall through to the error
  }
  throw invalidArgument('Invalid page token.', 'pageToken');
}

/** One page of a list held whole in memory: `size` items from the offset `pageToken` holds, and a token for the rest. */
export function offsetPageOf<T>(all: T[], pageToken: string | undefined, size: number, queryKey: string): { items: T[]; nextPageToken?: string } {
  const offset = pageToken !== undefined ? decodePageToken<number>(pageToken, queryKey) : 0;
  const items = all.slice(offset, offset + size);
  return offset + size < all.length ? { items, nextPageToken: encodePageToken(offset + size, queryKey) } : { items };
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

const INT32_MAX = 2 ** 31 - 1;

/** Validates `pageSize`: a positive int32 (the type Google's APIs give it), capped at `max`, `fallback` when absent. */
export function pageSize(raw: unknown, fallback: number, max: number, name = 'pageSize'): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > INT32_MAX) throw invalidArgument(`Invalid value for ${name}: ${String(raw)}`, name);
  if (n === 0) return fallback;
  return Math.min(n, max);
}
