// Recommendations derived from the merchant's own catalogue: what blocks products (disapproving issues), what
// limits them (missing identifiers, weak titles, shown but never clicked) and the opportunities the data suggests
// (a collection for the largest brand, an email campaign for products on sale). Each carries a numerical impact
// (products or impressions concerned) and the call to action that resolves it.
import type { content_v2_1 } from 'googleapis';
import type { Product, ProductStatus } from './product-rules-types.ts';

export type Recommendation = content_v2_1.Schema$Recommendation;

/** Daily performance as the simulator and reports record it; only the totals per offer matter here. */
export interface OfferPerformance {
  offerId: string;
  clicks: number;
  impressions: number;
}

export interface RecommendationOptions {
  /** Only these recommendation types (`allowedTag` of recommendations.generate); all when empty. */
  allowedTypes?: string[];
  /** Base address of the call-to-action links; without it they are empty, as the API leaves links it has none for. */
  consoleUrl?: string;
}

export const RECOMMENDATION_TYPES = [
  'FIX_DISAPPROVED_PRODUCTS',
  'ADD_PRODUCT_IDENTIFIERS',
  'IMPROVE_PRODUCT_TITLES',
  'IMPROVE_UNCLICKED_PRODUCTS',
  'OPPORTUNITY_CREATE_NEW_COLLECTION',
  'OPPORTUNITY_CREATE_EMAIL_CAMPAIGN',
] as const;

/** Titles shorter than this rarely carry brand, product type and a distinguishing attribute. */
export const SHORT_TITLE = 25;
/** Impressions after which a product that was never clicked deserves attention. */
export const UNCLICKED_IMPRESSIONS = 100;
/** Products of one brand that make a collection worth suggesting. */
export const COLLECTION_MIN_PRODUCTS = 3;
const MAX_ISSUE_RECOMMENDATIONS = 5;
const MAX_CREATIVES = 3;

interface Draft {
  type: (typeof RECOMMENDATION_TYPES)[number];
  subType?: string;
  name: string;
  title: string;
  description: string;
  impact: number;
  intent: string;
  action: string;
  path: string;
  products: Product[];
}

function weakTitle(product: Product): boolean {
  const title = product.title?.trim() ?? '';
  if (title === '') return false;
  const brandMissing = !!product.brand && !title.toLowerCase().includes(product.brand.toLowerCase());
  const shouting = title.length > 3 && title === title.toUpperCase() && /[A-Z]/.test(title);
  return title.length < SHORT_TITLE || brandMissing || shouting;
}

function disapprovedDrafts(statuses: ProductStatus[], byId: Map<string, Product>): Draft[] {
  const byCode = new Map<string, { description: string; products: Set<string> }>();
  for (const status of statuses) {
    for (const issue of status.itemLevelIssues ?? []) {
      if (issue.servability !== 'disapproved' || !issue.code || !status.productId) continue;
      let entry = byCode.get(issue.code);
      if (!entry) byCode.set(issue.code, (entry = { description: issue.description ?? issue.code, products: new Set() }));
      entry.products.add(status.productId);
    }
  }
  return [...byCode.entries()]
    .sort((a, b) => b[1].products.size - a[1].products.size || a[0].localeCompare(b[0]))
    .slice(0, MAX_ISSUE_RECOMMENDATIONS)
    .map(([code, { description, products }]) => ({
      type: 'FIX_DISAPPROVED_PRODUCTS',
      subType: code,
      name: 'Fix disapproved products',
      title: `${products.size} product${products.size === 1 ? '' : 's'} disapproved: ${description}`,
      description: `Products with "${description}" do not show on Google. Correct the attribute in your data and submit the products again.`,
      impact: products.size,
      intent: 'OPEN_PRODUCT_DIAGNOSTICS',
      action: 'Fix products',
      path: `diagnostics?issue=${encodeURIComponent(code)}`,
      products: [...products].map((id) => byId.get(id)).filter((p): p is Product => !!p),
    }));
}

function totalsByOffer(performance: OfferPerformance[]): Map<string, { clicks: number; impressions: number }> {
  const totals = new Map<string, { clicks: number; impressions: number }>();
  for (const r of performance) {
    const t = totals.get(r.offerId) ?? { clicks: 0, impressions: 0 };
    t.clicks += r.clicks;
    t.impressions += r.impressions;
    totals.set(r.offerId, t);
  }
  return totals;
}

function largestBrand(products: Product[]): [string, Product[]] | undefined {
  const byBrand = new Map<string, Product[]>();
  for (const p of products) if (p.brand?.trim()) byBrand.set(p.brand.trim(), [...(byBrand.get(p.brand.trim()) ?? []), p]);
  const [best] = [...byBrand.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  return best && best[1].length >= COLLECTION_MIN_PRODUCTS ? best : undefined;
}

function toResource(draft: Draft, consoleUrl: string): Recommendation {
  const images = draft.products.map((p) => p.imageLink).filter((u): u is string => !!u).slice(0, MAX_CREATIVES);
  return {
    type: draft.type,
    ...(draft.subType ? { subType: draft.subType } : {}),
    recommendationName: draft.name,
    title: draft.title,
    defaultDescription: draft.description,
    additionalDescriptions: [{ type: 'SHORT', text: draft.title }, { type: 'LONG', text: draft.description }],
    numericalImpact: draft.impact,
    paid: false,
    defaultCallToAction: { intent: draft.intent, localizedText: draft.action, uri: consoleUrl ? `${consoleUrl}/${draft.path}` : '' },
    creative: images.map((uri) => ({ type: 'IMAGE', uri })),
  };
}

/** Recommendations for the merchant, largest impact first. */
export function generateRecommendations(
  products: Product[],
  statuses: ProductStatus[],
  performance: OfferPerformance[] = [],
  options: RecommendationOptions = {},
): Recommendation[] {
  const byId = new Map(products.filter((p) => p.id).map((p) => [p.id!, p]));
  const drafts: Draft[] = disapprovedDrafts(statuses, byId);

  const unidentified = products.filter((p) => !p.gtin?.trim() && p.identifierExists !== false);
  if (unidentified.length > 0) {
    drafts.push({
      type: 'ADD_PRODUCT_IDENTIFIERS', name: 'Add product identifiers', impact: unidentified.length, products: unidentified,
      title: `Add GTINs to ${unidentified.length} product${unidentified.length === 1 ? '' : 's'}`,
      description: 'Products with a GTIN are matched to what shoppers search for. Add the GTIN the manufacturer assigned, or set identifier_exists to false for products that have none.',
      intent: 'OPEN_EDIT_PRODUCTS', action: 'Add identifiers', path: 'products?missing=gtin',
    });
  }

  const weak = products.filter(weakTitle);
  if (weak.length > 0) {
    drafts.push({
      type: 'IMPROVE_PRODUCT_TITLES', name: 'Improve product titles', impact: weak.length, products: weak,
      title: `Improve the titles of ${weak.length} product${weak.length === 1 ? '' : 's'}`,
      description: `Titles under ${SHORT_TITLE} characters, without the brand or in capitals match fewer searches. Name the brand, the product type and what sets the item apart.`,
      intent: 'OPEN_EDIT_PRODUCTS', action: 'Edit titles', path: 'products?attribute=title',
    });
  }

  const totals = totalsByOffer(performance);
  const unclicked = products.filter((p) => {
    const t = totals.get(p.offerId ?? '');
    return t !== undefined && t.clicks === 0 && t.impressions >= UNCLICKED_IMPRESSIONS;
  });
  if (unclicked.length > 0) {
    const impressions = unclicked.reduce((sum, p) => sum + totals.get(p.offerId!)!.impressions, 0);
    drafts.push({
      type: 'IMPROVE_UNCLICKED_PRODUCTS', name: 'Make shown products clickable', impact: impressions, products: unclicked,
      title: `${unclicked.length} product${unclicked.length === 1 ? ' was' : 's were'} shown ${impressions} times without a click`,
      description: 'Shoppers see these products but do not click. Check their price, main image and title against similar offers.',
      intent: 'OPEN_PERFORMANCE_REPORT', action: 'Review products', path: 'reports/products?clicks=0',
    });
  }

  const brand = largestBrand(products);
  if (brand) {
    drafts.push({
      type: 'OPPORTUNITY_CREATE_NEW_COLLECTION', subType: brand[0], name: 'Create a collection', impact: brand[1].length, products: brand[1],
      title: `Create a collection of your ${brand[1].length} ${brand[0]} products`,
      description: `Group your ${brand[0]} products in a collection so they can be shown together.`,
      intent: 'OPEN_CREATE_COLLECTION_TAB', action: 'Create collection', path: 'collections/new',
    });
  }

  const onSale = products.filter((p) => p.salePrice?.value);
  if (onSale.length > 0) {
    drafts.push({
      type: 'OPPORTUNITY_CREATE_EMAIL_CAMPAIGN', name: 'Announce your sale', impact: onSale.length, products: onSale,
      title: `Tell your customers about ${onSale.length} product${onSale.length === 1 ? '' : 's'} on sale`,
      description: 'An email campaign brings returning customers to the products you have reduced.',
      intent: 'OPEN_CREATE_EMAIL_CAMPAIGN_FLOW', action: 'Create campaign', path: 'marketing/email/new',
    });
  }

  const allowed = options.allowedTypes && options.allowedTypes.length > 0 ? new Set(options.allowedTypes) : undefined;
  const consoleUrl = options.consoleUrl ?? '';
  return drafts
    .filter((d) => !allowed || allowed.has(d.type))
    .sort((a, b) => b.impact - a.impact || RECOMMENDATION_TYPES.indexOf(a.type) - RECOMMENDATION_TYPES.indexOf(b.type))
    .map((d) => toResource(d, consoleUrl));
}
