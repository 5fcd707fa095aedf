// Shared by the bidding suites: demo tokens, a call helper, and independent totals computed from raw events.
import { call } from '../helpers/runtime.ts';

export const TOKENS = {
  bidder: 'bidding-demo-bidder-token',
  child: 'bidding-demo-child-token',
  delegate: 'bidding-demo-delegate-token',
};

export function apiClient(baseUrl: () => string) {
  return (token: string | undefined, method: string, path: string, body?: unknown) =>
    call(`${baseUrl()}/v2beta1/${path}`, { method, body, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

/** An event as sent on the wire (the NDJSON format). */
export interface WireEvent {
  time: string;
  bidder: string;
  account: string;
  format: string;
  environment: string;
  platform: string;
  creativeId?: string;
  dealId?: string;
  bid?: boolean;
  inAuction?: boolean;
  won?: boolean;
  billed?: boolean;
  measurable?: boolean;
  viewable?: boolean;
  inventoryMatch?: boolean;
  bidRequest?: boolean;
  successfulResponse?: boolean;
  calloutStatusId?: number;
  noBidStatus?: string;
  creativeStatusId?: number;
  detail?: string;
  nonBillableStatus?: string;
}

/**
 * Where each collection counts an event, read from the wire form alone (the documented defaults included): the
 * collection and the key of its row, or undefined when the event is not in the collection.
 */
export const BREAKDOWN_OF: Record<string, (e: WireEvent) => string | number | undefined> = {
  filteredBidRequests: (e) => (e.inventoryMatch !== false && e.bidRequest === false ? (e.calloutStatusId ?? 1) : undefined),
  bidResponseErrors: (e) => (e.inventoryMatch !== false && e.bidRequest !== false && e.successfulResponse === false ? (e.calloutStatusId ?? 2) : undefined),
  bidResponsesWithoutBids: (e) => (responded(e) && !e.bid ? (e.noBidStatus ?? 'RESPONSES_WITHOUT_BIDS') : undefined),
  filteredBids: (e) => (responded(e) && e.bid && !e.inAuction ? (e.creativeStatusId ?? 3) : undefined),
  losingBids: (e) => (e.inAuction && !e.won ? (e.creativeStatusId ?? 79) : undefined),
  nonBillableWinningBids: (e) => (e.won && !e.billed ? (e.nonBillableStatus ?? 'AD_NOT_RENDERED') : undefined),
};
const responded = (e: WireEvent) => e.inventoryMatch !== false && e.bidRequest !== false && e.successfulResponse !== false;

/** The row field naming each collection's key, its count metric, and its rows field. */
export const ROW_SHAPE: Record<string, { rows: string; key: string; metric: string }> = {
  filteredBidRequests: { rows: 'calloutStatusRows', key: 'calloutStatusId', metric: 'impressionCount' },
  bidResponseErrors: { rows: 'calloutStatusRows', key: 'calloutStatusId', metric: 'impressionCount' },
  bidResponsesWithoutBids: { rows: 'bidResponseWithoutBidsStatusRows', key: 'status', metric: 'impressionCount' },
  filteredBids: { rows: 'creativeStatusRows', key: 'creativeStatusId', metric: 'bidCount' },
  losingBids: { rows: 'creativeStatusRows', key: 'creativeStatusId', metric: 'bidCount' },
  nonBillableWinningBids: { rows: 'nonBillableWinningBidStatusRows', key: 'status', metric: 'bidCount' },
};

/** Counts per key of `key(e)` over the events where it is defined, as {key: count}. */
export function countBy(events: WireEvent[], key: (e: WireEvent) => string | number | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of events) {
    const k = key(e);
    if (k !== undefined) out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** impressionMetrics expected from events: each metric counts the events that got at least that far. */
export function impressionTotals(events: WireEvent[]): Record<string, number> {
  const matched = events.filter((e) => e.inventoryMatch !== false);
  const requested = matched.filter((e) => e.bidRequest !== false);
  const answered = requested.filter((e) => e.successfulResponse !== false);
  return {
    availableImpressions: events.length,
    inventoryMatches: matched.length,
    bidRequests: requested.length,
    successfulResponses: answered.length,
    responsesWithBids: answered.filter((e) => e.bid === true).length,
  };
}

const METRIC_OF: Array<[string, keyof WireEvent]> = [
  ['bids', 'bid'],
  ['bidsInAuction', 'inAuction'],
  ['impressionsWon', 'won'],
  ['billedImpressions', 'billed'],
  ['measurableImpressions', 'measurable'],
  ['viewableImpressions', 'viewable'],
];

/** Expected metrics, counted straight from events: {bids: n, ...} (zero metrics included as 0). */
export function totals(events: WireEvent[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [metric, flag] of METRIC_OF) out[metric] = events.filter((e) => e[flag] === true).length;
  return out;
}

/** A response row's metrics as numbers ({} counts as 0). */
export function rowTotals(row: Record<string, { value?: string; variance?: string }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [metric] of METRIC_OF) out[metric] = Number(row[metric]?.value ?? 0);
  return out;
}
