// The bidding browser's data: every filter set with its owner, whether it is transient and when it expires.
import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../../core/runtime.ts';
import { adminError } from '../errors.ts';

export function biddingRoutes(app: FastifyInstance, rt: Runtime): void {
  app.get('/console/api/bidding/filter-sets', async () => {
    if (!rt.services.has('bidding')) throw adminError(404, 'service bidding is not running');
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
