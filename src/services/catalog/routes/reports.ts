// reports.search: the Merchant Center query language over the merchant's products and recorded performance.
import { decodePageToken, encodePageToken, GoogleError, pageSize } from '../../../core/google/index.ts';
import type { Product, ProductStatus } from '../domain/product-rules.ts';
import { evaluateReport, parseReportQuery, ReportQueryError } from '../domain/report-query.ts';
import type { Operation } from '../layer/operation.ts';
import { performanceBetween } from '../performance.ts';
import { statusOf } from '../products.ts';
import { readBody } from '../wire/validate.ts';
import { REPORT_PAGE_DEFAULT, REPORT_PAGE_MAX, SEARCH_BODY } from '../schemas/reports.ts';

export function reportOperations(): Operation[] {
  return [
    {
      method: 'reports.search',
      verb: 'POST',
      path: '/{merchantId}/reports/search',
      scope: 'merchant',
      request: { body: SEARCH_BODY },
      async run(cat, call) {
        const body = readBody<{ query?: string; pageSize?: number; pageToken?: string }>(call.body, 'SearchRequest', 'request', ['query']);
        const limit = pageSize(body.pageSize, REPORT_PAGE_DEFAULT, REPORT_PAGE_MAX);
        const now = cat.now();
        let query;
        try {
          query = parseReportQuery(body.query!, { today: new Date(now).toISOString().slice(0, 10) });
        } catch (err) {
          if (err instanceof ReportQueryError) throw new GoogleError(400, `Invalid query: ${err.message}`, { reason: 'invalid', location: 'query', locationType: 'parameter' });
          throw err;
        }
        const offset = body.pageToken ? decodePageToken<number>(body.pageToken, `report:${call.merchant.id}:${body.query}`) : 0;
        const rows = await cat.allProducts(call.merchant.id);
        const products = rows.map((r) => r.doc as Product);
        const statuses = query.table === 'product_view' ? rows.map((r) => statusOf(r, now) as ProductStatus) : undefined;
        const performance = query.dateWindow ? await performanceBetween(cat, call.merchant.id, query.dateWindow.start, query.dateWindow.end) : [];
        const all = evaluateReport(query, { products, statuses, performance });
        const results = all.slice(offset, offset + limit);
        const out: Record<string, unknown> = {};
        if (results.length) out.results = results;
        if (offset + limit < all.length) out.nextPageToken = encodePageToken(offset + limit, `report:${call.merchant.id}:${body.query}`);
        return out;
      },
    },
  ];
}
