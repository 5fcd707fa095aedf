// The destinations a product can serve on. Statuses name them as Content API v2.1 reports them (Shopping,
// SurfacesAcrossGoogle, ...); uploads may also use the product data specification's names (Shopping_ads,
// Free_listings, ...), which name the same destinations. Case is ignored, as feed attributes ignore it. Cloud retail
// destinations are left out: Google documents them as not available through the Content API.

/** The specification's name of each destination, then the name statuses report. */
const DESTINATIONS: ReadonlyArray<readonly [specName: string, reported: string]> = [
  ['Shopping_ads', 'Shopping'],
  ['Buy_on_Google_listings', 'ShoppingActions'],
  ['Display_ads', 'DisplayAds'],
  ['Local_inventory_ads', 'LocalInventoryAds'],
  ['Free_listings', 'SurfacesAcrossGoogle'],
  ['Free_local_listings', 'LocalSurfacesAcrossGoogle'],
  ['YouTube_Shopping', 'YouTubeShopping'],
];

/** Every accepted name, the specification's first (for error messages). */
export const DESTINATION_NAMES: readonly string[] = [...DESTINATIONS.map(([spec]) => spec), ...DESTINATIONS.map(([, reported]) => reported)];

const REPORTED_BY_NAME = new Map(DESTINATIONS.flatMap(([spec, reported]) => [[spec.toLowerCase(), reported], [reported.toLowerCase(), reported]]));

/** The name statuses report for a destination named either way, or undefined for an unknown name. */
export function reportedDestination(name: string): string | undefined {
  return REPORTED_BY_NAME.get(name.toLowerCase());
}
