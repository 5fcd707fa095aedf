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
