// Where each bid opportunity ended, and the status ids and reasons that explain it. Every event ends at exactly one
// stage, so one hourly count per (stage, reason) is enough to serve impressionMetrics and every breakdown collection.

/** Final stages of an event, in funnel order: an event at stage s passed every stage before it. */
export const STAGE = {
  /** Available, but it did not match the buyer's pretargeting. */
  notMatched: 0,
  /** Matched, but the bid request was filtered before the callout (filteredBidRequests, by callout status). */
  requestFiltered: 1,
  /** Called out, but the response failed (bidResponseErrors, by callout status). */
  responseError: 2,
  /** A successful response without an applicable bid (bidResponsesWithoutBids, by status). */
  noBid: 3,
  /** A bid filtered before the auction (filteredBids, by creative status). */
  bidFiltered: 4,
  /** A bid that entered the auction and lost (losingBids, by creative status). */
  bidLost: 5,
  /** A winning bid that was not billed (nonBillableWinningBids, by status). */
  wonNotBilled: 6,
  /** A winning bid that was billed. */
  wonBilled: 7,
} as const;
export type Stage = (typeof STAGE)[keyof typeof STAGE];

/** What an outcome count is broken down by, besides the hour. */
export type OutcomeBreakdown = 'stage' | 'reason' | 'creative' | 'detail';

/** BidResponseWithoutBidsStatusRow.status values (stored as their 1-based position). */
export const NO_BID_STATUSES = ['RESPONSES_WITHOUT_BIDS', 'RESPONSES_WITHOUT_BIDS_FOR_ACCOUNT', 'RESPONSES_WITHOUT_BIDS_FOR_DEAL'] as const;
/** NonBillableWinningBidStatusRow.status values (stored as their 1-based position). */
export const NON_BILLABLE_STATUSES = ['AD_NOT_RENDERED', 'INVALID_IMPRESSION', 'FATAL_VAST_ERROR', 'LOST_IN_MEDIATION', 'OVERDELIVERED_IMPRESSION'] as const;

/**
 * The reason counted for an event of a stage when the event names none (events written before these facts existed,
 * or writers that do not know them). Stages without a reason use 0.
 */
export const DEFAULT_REASON: Record<Stage, number> = {
  [STAGE.notMatched]: 0,
  [STAGE.requestFiltered]: 1,
  [STAGE.responseError]: 2,
  [STAGE.noBid]: 1, // RESPONSES_WITHOUT_BIDS
  [STAGE.bidFiltered]: 3,
  [STAGE.bidLost]: 79,
  [STAGE.wonNotBilled]: 1, // AD_NOT_RENDERED
  [STAGE.wonBilled]: 0,
};

/**
 * The creative statuses that have a breakdown by detail (the real API's list), and which kind of id their details
 * are. The pairing of each status with its detail type is this service's table.
 */
export const DETAIL_TYPE_OF_STATUS: ReadonlyMap<number, string> = new Map([
  [10, 'DISAPPROVAL_REASON'],
  [14, 'CREATIVE_ATTRIBUTE'],
  [15, 'PRODUCT_CATEGORY'],
  [17, 'SENSITIVE_CATEGORY'],
  [18, 'VENDOR'],
  [19, 'VENDOR_DOMAIN'],
  [86, 'POLICY_TOPIC'],
  [87, 'ATP_VENDOR'],
]);

/** Status ids (callout and creative) are int32 in the API; events keep them positive. */
export const MAX_STATUS_ID = 2_147_483_647;
