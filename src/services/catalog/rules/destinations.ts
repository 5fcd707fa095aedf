// Destination names where requests take them (included and excluded destinations of products and datafeed targets,
// the `destinations` filters of statuses, promotion destinations): an unknown name is a 400, as the lists are fixed.
import { invalidArgument } from '../../../core/google/index.ts';
import { DESTINATION_NAMES, reportedDestination } from '../domain/product-destinations.ts';
import { badRequest } from '../wire/rules.ts';

const unknownDestination = (path: string, value: string, names: readonly string[] = DESTINATION_NAMES) =>
  `Invalid value for ${path}: ${JSON.stringify(value)}; expected one of ${names.join(', ')}.`;

/** The destinations a promotion can name (`promotionDestinationIds`), as the promotion data specification lists them. */
const PROMOTION_DESTINATIONS = ['Shopping_ads', 'Free_listings', 'Local_inventory_ads'];
const PROMOTION_DESTINATION_KEYS = new Set(PROMOTION_DESTINATIONS.map((d) => d.toLowerCase()));

function checkNames(values: readonly string[] | null | undefined, path: string, known: (name: string) => boolean, names: readonly string[]): void {
  (values ?? []).forEach((value, i) => {
    if (!known(value)) throw badRequest(unknownDestination(`${path}[${i}]`, value, names));
  });
}

/** Checks a body's list of product destinations (`product.includedDestinations`, a datafeed target's, ...). */
export function checkDestinations(values: readonly string[] | null | undefined, path: string): void {
  checkNames(values, path, (name) => reportedDestination(name) !== undefined, DESTINATION_NAMES);
}

/** Checks `promotion.promotionDestinationIds` (case ignored, as for products). */
export function checkPromotionDestinations(values: readonly string[] | null | undefined, path: string): void {
  checkNames(values, path, (name) => PROMOTION_DESTINATION_KEYS.has(name.toLowerCase()), PROMOTION_DESTINATIONS);
}

/** The `destinations` query parameter (repeated) as the names statuses report, or undefined when absent. */
export function destinationsParameter(query: Record<string, unknown>): string[] | undefined {
  const raw = query.destinations;
  if (raw === undefined) return undefined;
  return (Array.isArray(raw) ? raw : [raw]).map((value) => {
    const reported = reportedDestination(String(value));
    if (reported === undefined) throw invalidArgument(unknownDestination('destinations', String(value)), 'destinations');
    return reported;
  });
}
