// One page of a short synced list held whole in memory (calendar list, ACL), resumed after the sort key of the last
// item served: entries added or removed between pages neither shift nor skip the others. The page token also keeps
// the change number read before the first page, which the last page's sync token carries, so a change made while a
// client pages is reported by its next sync.
import { decodePageToken, encodePageToken, invalidArgument } from '../../../core/google/index.ts';
import { shortListSize } from './offset-page.ts';
import { strParam, type Query } from './params.ts';

interface Cursor {
  snap: number;
  after: string;
}

export interface Keyed {
  /** The item's place in the list: items are served in ascending order of key. */
  key: string;
}

function cursorOf(query: Query, queryKey: string): Cursor | undefined {
  const token = strParam(query, 'pageToken', 4096);
  if (token === undefined) return undefined;
  const cursor = decodePageToken<Cursor>(token, queryKey);
  if (!Number.isSafeInteger(cursor?.snap) || typeof cursor.after !== 'string') throw invalidArgument('Invalid page token.', 'pageToken');
  return cursor;
}

/** The change number the list started from: the page token's, else `now()` for a first page. */
export async function startOf(query: Query, queryKey: string, now: () => number | Promise<number>): Promise<number> {
  return cursorOf(query, queryKey)?.snap ?? now();
}

export function keyedPage<T extends Keyed>(all: T[], query: Query, queryKey: string, snap: number): { items: T[]; nextPageToken?: string } {
  const after = cursorOf(query, queryKey)?.after;
  const size = shortListSize(query);
  const rest = [...all].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).filter((i) => after === undefined || i.key > after);
  const items = rest.slice(0, size);
  return rest.length > size ? { items, nextPageToken: encodePageToken({ snap, after: items[items.length - 1].key } satisfies Cursor, queryKey) } : { items };
}
