// Report paging: maxResults 5..250, an opaque nextToken bound to the query it came from, and orderBy with a
// `-` prefix or ` DESC` suffix for descending.
import { createHash } from 'node:crypto';
import { payError } from '../contract.ts';

export const MIN_RESULTS = 5;
export const MAX_RESULTS = 250;
export const DEFAULT_RESULTS = 25;

export interface OrderTerm<F extends string> {
  field: F;
  desc: boolean;
}

/** Parses `orderBy` ("field", "-field", "field DESC", "field ASC", comma separated); 400 for unknown fields. */
export function parseOrderBy<F extends string>(text: string | undefined, allowed: readonly F[]): OrderTerm<F>[] | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return text.split(',').map((part) => {
    let term = part.trim();
    let desc = false;
    if (term.startsWith('-')) {
      desc = true;
      term = term.slice(1);
    }
    const m = /^(\S+)(?:\s+(ASC|DESC))?$/i.exec(term);
    if (!m || !allowed.includes(m[1] as F)) throw payError(400, 'P045', `Field invalid: orderBy accepts ${allowed.join(', ')}`);
    if (m[2]?.toUpperCase() === 'DESC') desc = true;
    return { field: m[1] as F, desc };
  });
}

const fingerprint = (query: unknown): string => createHash('sha256').update(JSON.stringify(query)).digest('base64url').slice(0, 12);

export function encodePageToken(offset: number, query: unknown): string {
  return Buffer.from(JSON.stringify({ o: offset, q: fingerprint(query) })).toString('base64url');
}

/** The offset a token stands for; 0 for an empty token; 400 when forged or from another query. */
export function decodePageToken(token: string | undefined, query: unknown): number {
  if (token === undefined || token === '') return 0;
  try {
    const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown; q?: unknown };
    if (typeof t.o === 'number' && Number.isSafeInteger(t.o) && t.o >= 0 && t.q === fingerprint(query)) return t.o;
  } catch {
    // fall through
  }
  throw payError(400, 'P045', 'Field invalid: nextToken does not belong to this query');
}
