// One page of a short list held whole in memory (settings), addressed by offset; the page token is bound to the query
// that made it.
import { offsetPageOf } from '../../../core/google/index.ts';
import { intParam, strParam, type Query } from './params.ts';

/** `maxResults` defaults to 100 and is capped at 250, as Calendar's short lists document. */
export const shortListSize = (query: Query): number => Math.min(intParam(query, 'maxResults', 1, Number.MAX_SAFE_INTEGER) ?? 100, 250);

export function offsetPage<T>(all: T[], query: Query, queryKey: string): { items: T[]; nextPageToken?: string } {
  return offsetPageOf(all, strParam(query, 'pageToken', 4096), shortListSize(query), queryKey);
}
