// bidMetrics.list: the filter set's filters over its time range, read from the hourly aggregates.
import type { FastifyRequest } from 'fastify';
import type { Bidding } from '../bidding.ts';
import { buildRows } from '../domain/metrics.ts';
import { metricsRequest } from './metrics-request.ts';

export async function listBidMetrics(req: FastifyRequest, b: Bidding, name: string): Promise<unknown> {
  const m = await metricsRequest(req, b, name, 'bidMetrics');
  const hours = await b.store.hourlySums(m.filter);
  return m.page('bidMetricsRows', buildRows(hours, m.range, m.filterSet.granularity, b.timeZone));
}
