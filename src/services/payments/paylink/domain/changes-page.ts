// Paging of `/paylink/token/changes`: maxResults 5 to 250, an opaque nextToken that resumes after the last row
// returned, and orderBy `p.id` ascending by default (`-p.id` or `p.id DESC` for descending).

export const MIN_RESULTS = 5;
export const MAX_RESULTS = 250;
export const DEFAULT_RESULTS = 25;
const ORDERABLE = ['p.id'];

export interface ChangesPage {
  limit: number;
  descending: boolean;
  /** Resume strictly after this sequence number in the order chosen. */
  afterSeq?: number;
}

export type PageProblem = { field: 'maxResults' | 'nextToken' | 'orderBy'; message: string };

/** Reads the paging fields of a request; a problem names the offending field. */
export function parseChangesPage(input: { maxResults?: unknown; nextToken?: unknown; orderBy?: unknown }, queryKey: string): ChangesPage | PageProblem {
  let limit = DEFAULT_RESULTS;
  if (input.maxResults !== undefined && input.maxResults !== null) {
    const n = input.maxResults;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < MIN_RESULTS || n > MAX_RESULTS) {
      return { field: 'maxResults', message: `maxResults must be an integer from ${MIN_RESULTS} to ${MAX_RESULTS}.` };
    }
    limit = n;
  }
  let descending = false;
  if (input.orderBy !== undefined && input.orderBy !== null && input.orderBy !== '') {
    if (typeof input.orderBy !== 'string') return { field: 'orderBy', message: 'orderBy must be a string.' };
    const parsed = parseOrderBy(input.orderBy);
    if (!parsed) return { field: 'orderBy', message: `orderBy may only name ${ORDERABLE.join(', ')}.` };
    descending = parsed.descending;
  }
  if (input.nextToken === undefined || input.nextToken === null || input.nextToken === '') return { limit, descending };
  if (typeof input.nextToken !== 'string') return { field: 'nextToken', message: 'nextToken must be a string.' };
  const afterSeq = decodeNextToken(input.nextToken, queryKey, descending);
  if (afterSeq === undefined) return { field: 'nextToken', message: 'nextToken is not one this query returned.' };
  return { limit, descending, afterSeq };
}

export function parseOrderBy(text: string): { field: string; descending: boolean } | undefined {
  let field = text.trim();
  let descending = false;
  if (field.startsWith('-')) {
    descending = true;
    field = field.slice(1);
  } else if (endsWithWord(field, 'desc')) {
    descending = true;
    field = field.slice(0, -4).trimEnd();
  } else if (endsWithWord(field, 'asc')) {
    field = field.slice(0, -3).trimEnd();
  }
  return ORDERABLE.includes(field) ? { field, descending } : undefined;
}

/**
 * True when `text` ends in whitespace and then `word` (any case). A look at the end only: the regular expression
 * /\s+DESC$/ retried its whitespace run from every position in it, quadratic in a long run of spaces.
 */
function endsWithWord(text: string, word: 'desc' | 'asc'): boolean {
  return text.length > word.length && text.slice(-word.length).toLowerCase() === word && /\s/.test(text[text.length - word.length - 1]);
}

/** A token bound to the query (`queryKey`) and direction, so it cannot be replayed against another query. */
export function encodeNextToken(lastSeq: number, queryKey: string, descending: boolean): string {
  return Buffer.from(JSON.stringify({ s: lastSeq, q: queryKey, d: descending ? 1 : 0 })).toString('base64url');
}

function decodeNextToken(token: string, queryKey: string, descending: boolean): number | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (parsed && parsed.q === queryKey && parsed.d === (descending ? 1 : 0) && Number.isSafeInteger(parsed.s)) return parsed.s;
  } catch {
    // not a token of ours
  }
  return undefined;
}
