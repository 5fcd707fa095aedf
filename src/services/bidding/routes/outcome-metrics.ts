// The metrics collections counted from event outcomes (impressionMetrics, filteredBidRequests, bidResponseErrors,
// bidResponsesWithoutBids, filteredBids with its creatives and details, losingBids, nonBillableWinningBids).
import type { FastifyRequest } from 'fastify';
import { invalidArgument } from '../../../core/google/index.ts';
import type { Bidding } from '../bidding.ts';
import { FILTERED_BID_CREATIVES, FILTERED_BID_DETAILS, OUTCOME_COLLECTIONS, type OutcomeCollection } from '../domain/collections.ts';
import { foldByTime } from '../domain/metrics.ts';
import type { CreativeStatusBreakdown } from '../domain/names.ts';
import { DETAIL_TYPE_OF_STATUS } from '../domain/stages.ts';
import { metricsRequest } from './metrics-request.ts';

export type OutcomeCollectionName = keyof typeof OUTCOME_COLLECTIONS;

export const isOutcomeCollection = (name: string): name is OutcomeCollectionName => Object.hasOwn(OUTCOME_COLLECTIONS, name);

/** `<collection>.list` for one of OUTCOME_COLLECTIONS. */
export async function listOutcomeMetrics(req: FastifyRequest, b: Bidding, name: string, collection: OutcomeCollectionName): Promise<unknown> {
  return list(req, b, name, collection, OUTCOME_COLLECTIONS[collection]);
}

/** `filteredBids.creatives.list` and `filteredBids.details.list` for one creative status. */
export async function listCreativeStatusBreakdown(req: FastifyRequest, b: Bidding, name: string, breakdown: CreativeStatusBreakdown): Promise<unknown> {
  const text = breakdown.creativeStatusId;
  const status = Number(text);
  if (!/^-?\d{1,10}$/.test(text) || Math.abs(status) > 2_147_483_647) {
    throw invalidArgument(`Invalid value at 'creative_status_id' (TYPE_INT32), "${text}"`, 'creativeStatusId');
  }
  if (breakdown.by === 'creatives') return list(req, b, name, `filteredBids/${status}/creatives`, FILTERED_BID_CREATIVES, status);
  const detailType = DETAIL_TYPE_OF_STATUS.get(status);
  if (detailType === undefined) {
    throw invalidArgument(`Details are only available for creative statuses ${[...DETAIL_TYPE_OF_STATUS.keys()].join(', ')}; ${status} has none.`, 'creativeStatusId');
  }
  return { ...(await list(req, b, name, `filteredBids/${status}/details`, FILTERED_BID_DETAILS, status)), detailType };
}

async function list(req: FastifyRequest, b: Bidding, name: string, scope: string, c: OutcomeCollection, reason?: number): Promise<Record<string, unknown>> {
  const m = await metricsRequest(req, b, name, scope);
  // impressionMetrics has one row per interval with the funnel counters; the others a row per key with its count.
  const cells =
    c.by === 'stage'
      ? await b.store.funnelCounts(m.filter)
      : (await b.store.outcomeCounts(m.filter, { stages: c.stages, reason, by: c.by, hourly: m.filterSet.granularity !== undefined })).map(({ hour, key, n }) => ({ hour, key, values: [n] }));
  const rows = foldByTime<string | number>(cells, c.width, m.range, m.filterSet.granularity, b.timeZone).map(c.row);
  return m.page(c.rowsField, rows);
}
