// Resource names of the bidding troubleshooting API: owners (`bidders/B`, `bidders/B/accounts/A`), filter sets
// (`<owner>/filterSets/F`) and the metrics collections below a filter set.
import { own } from '../../../core/own.ts';
import { FILTER_SET_ID_PATTERN, ID_PATTERN } from './vocabulary.ts';

export type Owner = { level: 'bidder'; bidderId: string } | { level: 'account'; bidderId: string; accountId: string };

export const ownerName = (o: Owner): string => (o.level === 'bidder' ? `bidders/${o.bidderId}` : `bidders/${o.bidderId}/accounts/${o.accountId}`);

/** Metrics collections of the real API below a filter set (filteredBids also has per-status breakdowns below it). */
export const METRICS_COLLECTIONS = [
  'bidMetrics',
  'impressionMetrics',
  'filteredBidRequests',
  'filteredBids',
  'bidResponseErrors',
  'bidResponsesWithoutBids',
  'losingBids',
  'nonBillableWinningBids',
] as const;
export type MetricsCollection = (typeof METRICS_COLLECTIONS)[number];

/** The spec's name for filtered bid responses, served as filteredBids. */
const ALIASES: Record<string, MetricsCollection> = { filteredBidResponses: 'filteredBids' };

/** Account-level metrics that accounts delegating their bidding may not use (the spec's list). */
export const BIDDER_ONLY_ACCOUNT_METRICS = new Set(['impressionMetrics', 'filteredBidResponses', 'filteredBids', 'bidResponseErrors', 'bidResponsesWithoutBids']);

export type Target =
  | { kind: 'filterSets'; owner: Owner }
  | { kind: 'filterSet'; owner: Owner; name: string }
  | { kind: 'metrics'; owner: Owner; name: string; collection: MetricsCollection; breakdown?: CreativeStatusBreakdown };

/** `filteredBids/{creativeStatusId}/creatives|details`: the status id as it appears in the path (checked on use). */
export interface CreativeStatusBreakdown {
  creativeStatusId: string;
  by: 'creatives' | 'details';
}

/** Reads the owner at the start of `segments`; returns it and how many segments it used. */
function ownerOf(segments: string[]): [Owner, number] | undefined {
  if (segments[0] !== 'bidders' || !ID_PATTERN.test(segments[1] ?? '')) return undefined;
  if (segments[2] === 'accounts') {
    if (!ID_PATTERN.test(segments[3] ?? '')) return undefined;
    return [{ level: 'account', bidderId: segments[1], accountId: segments[3] }, 4];
  }
  return [{ level: 'bidder', bidderId: segments[1] }, 2];
}

/** Maps the path below `/v2beta1/` (already split on `/`) to what it addresses; undefined when it names nothing. */
export function parseTarget(segments: string[]): Target | undefined {
  const found = ownerOf(segments);
  if (!found) return undefined;
  const [owner, used] = found;
  const rest = segments.slice(used);
  if (rest[0] !== 'filterSets') return undefined;
  if (rest.length === 1) return { kind: 'filterSets', owner };
  if (!FILTER_SET_ID_PATTERN.test(rest[1])) return undefined;
  const name = `${ownerName(owner)}/filterSets/${rest[1]}`;
  if (rest.length === 2) return { kind: 'filterSet', owner, name };
  const head = rest[2];
  const collection = own(ALIASES, head) ?? (METRICS_COLLECTIONS as readonly string[]).find((c) => c === head);
  if (collection === undefined) return undefined;
  if (rest.length === 3) return { kind: 'metrics', owner, name, collection: collection as MetricsCollection };
  if (collection === 'filteredBids' && rest.length === 5 && (rest[4] === 'creatives' || rest[4] === 'details')) {
    return { kind: 'metrics', owner, name, collection, breakdown: { creativeStatusId: rest[3], by: rest[4] } };
  }
  return undefined;
}

/** Parses a full filter-set name; undefined when it matches neither pattern. */
export function parseFilterSetName(name: string): { owner: Owner; filterSetId: string } | undefined {
  const segments = name.split('/');
  const found = ownerOf(segments);
  if (!found) return undefined;
  const [owner, used] = found;
  if (segments.length !== used + 2 || segments[used] !== 'filterSets' || !FILTER_SET_ID_PATTERN.test(segments[used + 1])) return undefined;
  return { owner, filterSetId: segments[used + 1] };
}
