// The metrics collections counted from event outcomes: which stages each counts, what it breaks them down by, and the
// real API's row shape for one bucket.
import { metricValue, rowDimensionsOf, type Bucket } from './metrics.ts';
import { NON_BILLABLE_STATUSES, NO_BID_STATUSES, STAGE, type OutcomeBreakdown, type Stage } from './stages.ts';

export interface OutcomeCollection {
  /** The response field holding the rows. */
  rowsField: string;
  stages: readonly Stage[];
  by: OutcomeBreakdown;
  /** How many values a bucket carries. */
  width: number;
  row(bucket: Bucket<string | number>): Record<string, unknown>;
}

const code = (key: string | number) => Number(key);
const countRow = (keyField: string, keyValue: (key: string | number) => unknown, metric: string) => (b: Bucket<string | number>) => ({
  ...rowDimensionsOf(b),
  [keyField]: keyValue(b.key),
  [metric]: metricValue(b.values[0]),
});
const single = (rowsField: string, stage: Stage, row: OutcomeCollection['row']): OutcomeCollection => ({ rowsField, stages: [stage], by: 'reason', width: 1, row });

/** ImpressionMetricsRow fields in funnel order: an event at stage s counts in every metric i with i <= s (the store's funnel counters). */
const IMPRESSION_METRICS = ['availableImpressions', 'inventoryMatches', 'bidRequests', 'successfulResponses', 'responsesWithBids'] as const;
const ALL_STAGES = Object.values(STAGE) as Stage[];

export const OUTCOME_COLLECTIONS = {
  impressionMetrics: {
    rowsField: 'impressionMetricsRows',
    stages: ALL_STAGES,
    by: 'stage',
    width: IMPRESSION_METRICS.length,
    row: (b) => ({ ...rowDimensionsOf(b), ...Object.fromEntries(IMPRESSION_METRICS.map((name, i) => [name, metricValue(b.values[i])])) }),
  },
  filteredBidRequests: single('calloutStatusRows', STAGE.requestFiltered, countRow('calloutStatusId', code, 'impressionCount')),
  bidResponseErrors: single('calloutStatusRows', STAGE.responseError, countRow('calloutStatusId', code, 'impressionCount')),
  bidResponsesWithoutBids: single('bidResponseWithoutBidsStatusRows', STAGE.noBid, countRow('status', (k) => NO_BID_STATUSES[code(k) - 1], 'impressionCount')),
  filteredBids: single('creativeStatusRows', STAGE.bidFiltered, countRow('creativeStatusId', code, 'bidCount')),
  losingBids: single('creativeStatusRows', STAGE.bidLost, countRow('creativeStatusId', code, 'bidCount')),
  nonBillableWinningBids: single('nonBillableWinningBidStatusRows', STAGE.wonNotBilled, countRow('status', (k) => NON_BILLABLE_STATUSES[code(k) - 1], 'bidCount')),
} satisfies Record<string, OutcomeCollection>;

/** filteredBids/{creativeStatusId}/creatives: filtered bids of one status per creative. */
export const FILTERED_BID_CREATIVES: OutcomeCollection = {
  rowsField: 'filteredBidCreativeRows',
  stages: [STAGE.bidFiltered],
  by: 'creative',
  width: 1,
  row: countRow('creativeId', String, 'bidCount'),
};

/** A detail id as the deprecated int32 `detailId` shows it: the number when the detail is one, else 0. */
export function detailIdOf(detail: string): number {
  const n = Number(detail);
  return /^-?\d+$/.test(detail) && Number.isSafeInteger(n) && Math.abs(n) <= 2_147_483_647 ? n : 0;
}

/** filteredBids/{creativeStatusId}/details: filtered bids of one status per detail. */
export const FILTERED_BID_DETAILS: OutcomeCollection = {
  rowsField: 'filteredBidDetailRows',
  stages: [STAGE.bidFiltered],
  by: 'detail',
  width: 1,
  row: (b) => ({ ...rowDimensionsOf(b), detail: String(b.key), detailId: detailIdOf(String(b.key)), bidCount: metricValue(b.values[0]) }),
};
