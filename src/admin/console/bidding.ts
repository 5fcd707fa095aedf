// The bidding browser's data: every filter set with its owner, whether it is transient and when it expires; and
// daily bid metrics per bidder over recent days, summed from the hourly roll-ups, for a chart.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Runtime } from '../../core/runtime.ts';
import { adminError } from '../errors.ts';

const DAY_MS = 86_400_000;
const Metrics = Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90 })) }, { additionalProperties: false });
const COUNTERS = ['bids', 'in_auction', 'won', 'billed'] as const;

export function biddingRoutes(app: FastifyInstance, rt: Runtime): void {
  const running = () => {
    if (!rt.services.has('bidding')) throw adminError(404, 'service bidding is not running');
  };

  app.get('/console/api/bidding/metrics', { schema: { querystring: Metrics } }, async (req) => {
    running();
    const { days = 14 } = req.query as Static<typeof Metrics>;
    const lastDay = Math.floor(rt.clock.now() / DAY_MS);
    const from = (lastDay - days + 1) * DAY_MS;
    const rows = await rt.db.kysely
      .selectFrom('bidding_rollup')
      .select((eb) => ['bidder', 'hour', ...COUNTERS.map((c) => eb.fn.sum(c).as(c))])
      .where('hour', '>=', from)
      .where('hour', '<', (lastDay + 1) * DAY_MS)
      .groupBy(['bidder', 'hour'])
      .execute();
    const dates = Array.from({ length: days }, (_, i) => new Date(from + i * DAY_MS).toISOString().slice(0, 10));
    const bidders = new Map<string, Record<(typeof COUNTERS)[number], number[]>>();
    for (const r of rows as Array<Record<string, unknown>>) {
      const bidder = String(r.bidder);
      if (!bidders.has(bidder)) bidders.set(bidder, Object.fromEntries(COUNTERS.map((c) => [c, new Array(days).fill(0)])) as Record<(typeof COUNTERS)[number], number[]>);
      const day = Math.floor((Number(r.hour) - from) / DAY_MS);
      for (const c of COUNTERS) bidders.get(bidder)![c][day] += Number(r[c] ?? 0);
    }
    return {
      dates,
      bidders: [...bidders.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([bidder, s]) => ({ bidder, bids: s.bids, inAuction: s.in_auction, won: s.won, billed: s.billed })),
    };
  });

  app.get('/console/api/bidding/filter-sets', async () => {
    running();
    const rows = await rt.db.kysely
      .selectFrom('bidding_filter_sets')
      .select(['name', 'owner', 'body', 'transient', 'expires_at', 'created_at'])
      .orderBy('id')
      .limit(1000)
      .execute();
    return {
      filterSets: rows.map((r) => ({
        name: r.name,
        owner: r.owner,
        transient: !!Number(r.transient),
        createdAt: new Date(Number(r.created_at)).toISOString(),
        expiresAt: r.expires_at != null ? new Date(Number(r.expires_at)).toISOString() : null,
        filterSet: typeof r.body === 'string' ? JSON.parse(r.body) : r.body,
      })),
    };
  });
}
