// Page size and token of list methods. Older Content API lists take `maxResults` (default 25, at most 250), newer
// ones `pageSize` (default 50, at most 1000); both answer `nextPageToken` only when more remains.
import { decodePageToken, encodePageToken, pageSize } from '../../../core/google/index.ts';
import type { Page } from '../store.ts';

export type Paging = 'maxResults' | 'pageSize' | 'none';

const LIMITS: Record<Paging, { fallback: number; max: number }> = {
  maxResults: { fallback: 25, max: 250 },
  pageSize: { fallback: 50, max: 1000 },
  none: { fallback: 10_000, max: 10_000 },
};

export interface PageRequest {
  limit: number;
  after?: string;
  /** Builds the token that resumes after `id`. */
  token(page: Page<unknown>): string | undefined;
}

export function pageRequest(query: Record<string, unknown>, paging: Paging, queryKey: string): PageRequest {
  const { fallback, max } = LIMITS[paging];
  const limit = paging === 'none' ? fallback : pageSize(query[paging], fallback, max, paging);
  const raw = typeof query.pageToken === 'string' && query.pageToken !== '' ? query.pageToken : undefined;
  const after = raw === undefined ? undefined : decodePageToken<string>(raw, queryKey);
  return { limit, after, token: (page) => (page.next === undefined ? undefined : encodePageToken(page.next, queryKey)) };
}

/** Pages an in-memory list ordered by `id` (derived lists such as statuses of sub-accounts). */
export function pageArray<T>(items: T[], idOf: (t: T) => string, req: PageRequest): Page<T> {
  const start = req.after === undefined ? items : items.filter((t) => idOf(t) > req.after!);
  if (start.length <= req.limit) return { items: start };
  const slice = start.slice(0, req.limit);
  return { items: slice, next: idOf(slice[slice.length - 1]) };
}

/** Rows read per query while a filter narrows a stored list (see `pageFiltered`). */
const FILTER_SCAN_CHUNK = 250;

/**
 * Pages a stored list that a filter narrows, filtering before paging: rows are read in id order, a chunk at a time,
 * until the page is full and one more match shows that more remain. So only the last page is short, and a token
 * is given only when a match follows.
 */
export async function pageFiltered<T extends { id: string }>(read: (after: string | undefined, limit: number) => Promise<Page<T>>, keep: (t: T) => boolean, req: PageRequest): Promise<Page<T>> {
  const kept: T[] = [];
  let after = req.after;
  for (;;) {
    const chunk = await read(after, Math.max(FILTER_SCAN_CHUNK, req.limit + 1));
    for (const item of chunk.items) {
      if (!keep(item)) continue;
      if (kept.length === req.limit) return { items: kept, next: kept[kept.length - 1].id };
      kept.push(item);
    }
    if (chunk.next === undefined) return { items: kept };
    after = chunk.next;
  }
}

/** A list answer: `{kind?, <field>: [...], nextPageToken?}` with the field omitted when empty, as Google does. */
export function listAnswer(field: string, items: unknown[], nextPageToken: string | undefined, kind?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (kind) out.kind = kind;
  if (nextPageToken) out.nextPageToken = nextPageToken;
  if (items.length > 0) out[field] = items;
  return out;
}
