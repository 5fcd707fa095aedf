// The productstatuses resource derived from a product and its item-level issues: one destination status per
// destination the product takes part in, countries split by whether a disapproving issue applies there.
import { reportedDestination } from './product-destinations.ts';
import { targetCountries } from './product-rules-countries.ts';
import type { DestinationStatus, ItemLevelIssue, Product, ProductStatus } from './product-rules-types.ts';

const DAY_MS = 24 * 3600_000;
/** Products submitted through the API expire 30 days after their last update unless refreshed. */
export const EXPIRATION_MS = 30 * DAY_MS;

const ONLINE_DESTINATIONS = ['Shopping', 'SurfacesAcrossGoogle', 'DisplayAds'];
const LOCAL_DESTINATIONS = ['LocalInventoryAds', 'LocalSurfacesAcrossGoogle'];

/** A destination by the name statuses report; a name we do not know (stored before names were checked) is kept. */
const reported = (name: string) => reportedDestination(name) ?? name;

/** The destinations a product serves on: the channel's defaults plus `includedDestinations`, minus `excludedDestinations`. */
export function defaultDestinations(product: Product): string[] {
  const base = product.channel === 'local' ? LOCAL_DESTINATIONS : ONLINE_DESTINATIONS;
  const excluded = new Set((product.excludedDestinations ?? []).map(reported));
  const included = (product.includedDestinations ?? []).map(reported).filter((d) => !base.includes(d));
  return [...new Set([...base, ...included])].filter((d) => !excluded.has(d));
}

export interface ProductStatusOptions {
  now: number;
  /** When the product was first inserted (epoch ms); `now` if not given. */
  createdAt?: number;
  /** When the product last changed (epoch ms); `now` if not given. */
  updatedAt?: number;
  /** Restrict the report to these destinations (the `destinations` query parameter). */
  destinations?: string[];
}

function countriesFor(product: Product, destination: string): string[] {
  const countries = targetCountries(product);
  if (destination !== 'Shopping') return countries;
  const excluded = new Set(product.shoppingAdsExcludedCountries ?? []);
  return countries.filter((c) => !excluded.has(c));
}

function destinationStatus(destination: string, countries: string[], issues: ItemLevelIssue[]): DestinationStatus {
  const disapproved = new Set(issues.filter((i) => i.servability === 'disapproved').flatMap((i) => i.applicableCountries));
  const disapprovedCountries = countries.filter((c) => disapproved.has(c));
  const approvedCountries = countries.filter((c) => !disapproved.has(c));
  return {
    destination,
    status: disapprovedCountries.length > 0 && approvedCountries.length === 0 ? 'disapproved' : 'approved',
    approvedCountries,
    pendingCountries: [],
    disapprovedCountries,
  };
}

/** The product's status resource; each issue is reported once per destination the status covers. */
export function productStatus(product: Product, issues: ItemLevelIssue[], options: ProductStatusOptions): ProductStatus {
  const createdAt = options.createdAt ?? options.now;
  const updatedAt = options.updatedAt ?? options.now;
  const wanted = options.destinations && options.destinations.length > 0 ? new Set(options.destinations) : undefined;
  const destinations = defaultDestinations(product).filter((d) => !wanted || wanted.has(d));
  const requestedExpiry = product.expirationDate ? Date.parse(product.expirationDate) : NaN;
  const expiresAt = Math.min(updatedAt + EXPIRATION_MS, Number.isNaN(requestedExpiry) ? Infinity : requestedExpiry);
  return {
    kind: 'content#productStatus',
    productId: product.id ?? undefined,
    title: product.title ?? undefined,
    link: product.link ?? undefined,
    destinationStatuses: destinations.map((d) => destinationStatus(d, countriesFor(product, d), issues)),
    itemLevelIssues: destinations.flatMap((destination) => issues.map((issue) => ({ ...issue, destination }))),
    creationDate: new Date(createdAt).toISOString(),
    lastUpdateDate: new Date(updatedAt).toISOString(),
    googleExpirationDate: new Date(expiresAt).toISOString(),
  };
}
