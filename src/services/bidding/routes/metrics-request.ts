// What every metrics list call shares: the filter set it names resolved to a store filter and an hour interval, and
// offset pages bound to the call (a token from another collection, filter set or status is refused).
import type { FastifyRequest } from 'fastify';
import { decodePageToken, encodePageToken, failedPrecondition, notFound, pageSize } from '../../../core/google/index.ts';
import type { Bidding } from '../bidding.ts';
import { parseFilterSet, type FilterSetQuery } from '../domain/filter-set.ts';
import { WINDOW_DAYS, absoluteRangeTooOld, resolveRange, type Interval } from '../domain/time-range.ts';
import type { MetricsFilter } from '../store.ts';
import { queryOf } from './query.ts';

const DEFAULT_PAGE = 500;
const MAX_PAGE = 1000;

export interface MetricsRequest {
  filterSet: FilterSetQuery;
  range: Interval;
  filter: MetricsFilter;
  /** Puts one page of `rows` under `field`, with a token for the next page when more remain. */
  page(field: string, rows: unknown[]): Record<string, unknown>;
}

/** Reads the call's paging parameters and the live filter set `name` (404 when it is gone); `scope` names the call. */
export async function metricsRequest(req: FastifyRequest, b: Bidding, name: string, scope: string): Promise<MetricsRequest> {
  const query = queryOf(req, ['pageSize', 'pageToken']);
  const size = pageSize(query.pageSize, DEFAULT_PAGE, MAX_PAGE);
  const now = b.ctx.clock.now();
  const stored = await b.store.getFilterSet(name, now);
  if (!stored) throw notFound();
  // Bound to this filter set, not its name: a set deleted and made again under the name starts its pages anew.
  const tokenKey = `${scope}:${name}:${stored.id}`;
  const offset = query.pageToken ? Number(decodePageToken<number>(query.pageToken, tokenKey)) || 0 : 0;
  const filterSet = parseFilterSet(stored.body);
  if (absoluteRangeTooOld(filterSet.range, now, b.timeZone)) {
    throw failedPrecondition(`The filter set's absoluteDateRange starts more than ${WINDOW_DAYS} days before today; metrics cover only the last ${WINDOW_DAYS} days.`);
  }
  const range = resolveRange(filterSet.range, now, b.timeZone);
  const filter: MetricsFilter = {
    // Bidder level: every account of the bidder; account level: the one account.
    bidder: filterSet.owner.bidderId,
    account: filterSet.owner.level === 'account' ? filterSet.owner.accountId : undefined,
    formats: filterSet.formats,
    environment: filterSet.environment,
    platforms: filterSet.platforms,
    creative: filterSet.creative,
    deal: filterSet.deal,
    start: range.start,
    end: range.end,
  };
  return {
    filterSet,
    range,
    filter,
    page(field, rows) {
      const out: Record<string, unknown> = { [field]: rows.slice(offset, offset + size) };
      if (offset + size < rows.length) out.nextPageToken = encodePageToken(offset + size, tokenKey);
      return out;
    },
  };
}
