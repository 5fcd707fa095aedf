// Documented request of reports.search: a Merchant Center query over product_view or product_performance_view.
import { wireBody } from './wire.ts';

export const REPORT_PAGE_DEFAULT = 1000;
export const REPORT_PAGE_MAX = 5000;

export const SEARCH_BODY = wireBody('SearchRequest', {
  rules: {
    query: { description: 'The query, e.g. SELECT offer_id, title FROM product_view WHERE brand = \'Acme\'; performance queries bound segments.date.' },
    pageSize: { minimum: 0, multipleOf: 1, description: `Most rows on one page: ${REPORT_PAGE_DEFAULT} unless given; at most ${REPORT_PAGE_MAX} are returned.` },
    pageToken: { description: 'The nextPageToken of the previous page of the same query.' },
  },
  required: ['query'],
});
