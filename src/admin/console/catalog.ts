// The catalog browser's data: products with their derived statuses per destination and their item-level issues.
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import type { Runtime } from '../../core/runtime.ts';
import { adminError } from '../errors.ts';

const Query = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) }, { additionalProperties: false });
const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, any>;

export function catalogRoutes(app: FastifyInstance, rt: Runtime): void {
  app.get('/console/api/catalog/products', { schema: { querystring: Query } }, async (req) => {
    if (!rt.services.has('catalog')) throw adminError(404, 'service catalog is not running');
    const { limit = 200 } = req.query as Static<typeof Query>;
    const rows = await rt.db.kysely
      .selectFrom('catalog_products')
      .select(['merchant_id', 'id', 'offer_id', 'channel', 'content_language', 'feed_label', 'doc', 'status', 'approved', 'updated_at'])
      .orderBy('updated_at', 'desc')
      .limit(limit)
      .execute();
    return {
      products: rows.map((r) => {
        const doc = parse(r.doc);
        const status = parse(r.status) ?? {};
        return {
          merchantId: r.merchant_id,
          id: r.id,
          offerId: r.offer_id,
          title: doc.title ?? null,
          channel: r.channel,
          language: r.content_language,
          feedLabel: r.feed_label,
          approved: !!Number(r.approved),
          destinations: ((status.destinationStatuses ?? []) as Array<Record<string, any>>).map((d) => ({ destination: d.destination, status: d.status ?? d.approvalStatus ?? null })),
          issues: ((status.itemLevelIssues ?? []) as Array<Record<string, any>>).map((i) => ({ code: i.code, severity: i.servability ?? i.severity ?? null, attribute: i.attributeName ?? null, description: i.description ?? i.detail ?? null })),
          updatedAt: new Date(Number(r.updated_at)).toISOString(),
        };
      }),
    };
  });
}
