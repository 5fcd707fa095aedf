// product_view attributes of one product: read from the product itself, from its derived status (aggregated
// destination status, item issues) and from its click share among the merchant's products (click potential).
import type { content_v2_1 } from 'googleapis';
import type { Product, ProductStatus } from './product-rules-types.ts';

export interface ProductViewContext {
  statuses: Map<string | null | undefined, ProductStatus>;
  /** 1-based rank of each product by clicks in the performance data, absent when there is none. */
  clickRank: Map<Product, number>;
}

const taxonomyLevel = (path: string | null | undefined, level: number): string | undefined =>
  path ? path.split('>').map((s) => s.trim())[level - 1] || undefined : undefined;

export const categoryLevel = (product: Product | undefined, level: number) => taxonomyLevel(product?.googleProductCategory, level);
export const productTypeLevel = (product: Product | undefined, level: number) => taxonomyLevel(product?.productTypes?.[0], level);

export function aggregatedDestinationStatus(status: ProductStatus | undefined): string | undefined {
  if (!status) return undefined;
  const destinations = status.destinationStatuses ?? [];
  if (destinations.length === 0 || destinations.every((d) => (d.approvedCountries ?? []).length === 0 && (d.pendingCountries ?? []).length === 0)) {
    return 'NOT_ELIGIBLE_OR_DISAPPROVED';
  }
  if (destinations.some((d) => (d.pendingCountries ?? []).length > 0)) return 'PENDING';
  if ((status.itemLevelIssues ?? []).some((i) => i.servability === 'disapproved' || i.servability === 'demoted')) return 'ELIGIBLE_LIMITED';
  return 'ELIGIBLE';
}

/** Item issues grouped by code, with the countries each destination disapproves or demotes. */
export function itemIssues(status: ProductStatus | undefined): content_v2_1.Schema$ProductViewItemIssue[] {
  const byCode = new Map<string, content_v2_1.Schema$ProductViewItemIssue>();
  for (const issue of status?.itemLevelIssues ?? []) {
    const code = issue.code ?? '';
    let entry = byCode.get(code);
    if (!entry) {
      entry = {
        issueType: { code, canonicalAttribute: issue.attributeName ?? undefined },
        resolution: issue.resolution === 'pending_processing' ? 'PENDING_PROCESSING' : 'MERCHANT_ACTION',
        severity: { aggregatedSeverity: 'DEMOTED', severityPerDestination: [] },
      };
      byCode.set(code, entry);
    }
    const disapproves = issue.servability === 'disapproved';
    if (disapproves) entry.severity!.aggregatedSeverity = 'DISAPPROVED';
    entry.severity!.severityPerDestination!.push({
      destination: issue.destination ?? undefined,
      disapprovedCountries: disapproves ? issue.applicableCountries ?? [] : [],
      demotedCountries: issue.servability === 'demoted' ? issue.applicableCountries ?? [] : [],
    });
  }
  return [...byCode.values()];
}

function clickPotential(rank: number | undefined, total: number): string {
  if (rank === undefined) return 'UNKNOWN';
  if (rank <= Math.ceil(total / 3)) return 'HIGH';
  return rank <= Math.ceil((2 * total) / 3) ? 'MEDIUM' : 'LOW';
}

const micros = (value: string | null | undefined): number | undefined =>
  value && /^\d+(\.\d+)?$/.test(value) ? Math.round(Number(value) * 1_000_000) : undefined;

export function productViewValue(property: string, product: Product, context: ProductViewContext): unknown {
  const level = /L(\d)$/.exec(property);
  if (level && property.startsWith('category')) return categoryLevel(product, Number(level[1]));
  if (level && property.startsWith('productType')) return productTypeLevel(product, Number(level[1]));
  const status = context.statuses.get(product.id);
  const created = status?.creationDate ? Date.parse(status.creationDate) : NaN;
  switch (property) {
    case 'id': return product.id ?? undefined;
    case 'offerId': return product.offerId ?? undefined;
    case 'title': return product.title ?? undefined;
    case 'brand': return product.brand ?? undefined;
    case 'currencyCode': return product.price?.currency ?? undefined;
    case 'priceMicros': return micros(product.price?.value);
    case 'languageCode': return product.contentLanguage ?? undefined;
    case 'condition': return product.condition ?? undefined;
    case 'channel': return product.channel ?? undefined;
    case 'availability': return product.availability ?? undefined;
    case 'shippingLabel': return product.shippingLabel ?? undefined;
    case 'gtin': return product.gtin ? [product.gtin] : [];
    case 'itemGroupId': return product.itemGroupId ?? undefined;
    case 'creationTime': return Number.isNaN(created) ? undefined : Math.floor(created / 1000);
    case 'expirationDate': return product.expirationDate ? product.expirationDate.slice(0, 10) : undefined;
    case 'aggregatedDestinationStatus': return aggregatedDestinationStatus(status);
    case 'itemIssues': return itemIssues(status);
    case 'clickPotential': return clickPotential(context.clickRank.get(product), context.clickRank.size);
    case 'clickPotentialRank': return context.clickRank.get(product);
    default: return undefined;
  }
}
