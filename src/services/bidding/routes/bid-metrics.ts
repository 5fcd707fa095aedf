// bidMetrics.list: the filter set's filters over its time range, read from the hourly aggregates.
import type { FastifyRequest } from 'fastify';
import { decodePageToken, encodePageToken, notFound, pageSize } from '../../../core/google/index.ts';
import type { Bidding } from '../bidding.ts';
import { parseFilterSet } from '../domain/filter-set.ts';
import { buildRows } from '../domain/metrics.ts';
import { resolveRange } from '../domain/time-range.ts';
import { queryOf } from './query.ts';

const DEFAULT_PAGE = 500;
const MAX_PAGE = 1000;

export async function listBidMetrics(req: FastifyRequest, b: Bidding, name: string): Promise<unknown> {
  const query = queryOf(req, ['pageSize', 'pageToken']);
  const size = pageSize(query.pageSize, DEFAULT_PAGE, MAX_PAGE);
  const offset = query.pageToken ? Number(decodePageToken<number>(query.pageToken, `bidMetrics:${name}`)) || 0 : 0;
  const now = b.ctx.clock.now();
  const stored = await b.store.getFilterSet(name, now);
  if (!stored) throw notFound();
  const fs = parseFilterSet(stored.body);
  const range = resolveRange(fs.range, now, b.timeZone);
  const hours = await b.store.hourlySums({
    // Bidder level: every account of the bidder; account level: the one account.
    bidder: fs.owner.bidderId,
    account: fs.owner.level === 'account' ? fs.owner.accountId : undefined,
    formats: fs.formats,
    environment: fs.environment,
    platforms: fs.platforms,
    creative: fs.creative,
    deal: fs.deal,
    start: range.start,
    end: range.end,
  });
  const rows = buildRows(hours, range, fs.granularity, b.timeZone);
  const out: { bidMetricsRows: unknown[]; nextPageToken?: string } = { bidMetricsRows: rows.slice(offset, offset + size) };
  if (offset + size < rows.length) out.nextPageToken = encodePageToken(offset + size, `bidMetrics:${name}`);
  return out;
}
