// The countries a product is sold in and the currencies each of them prices in (ISO 3166-1 / ISO 4217, from countries-list).
import { countries } from 'countries-list';
import type { Product } from './product-rules-types.ts';

const COUNTRY_CODE = /^[A-Z]{2}$/;

/** Local currencies of a country, or undefined for a code we do not know (no currency rule applies then). */
export function currenciesOf(country: string): readonly string[] | undefined {
  const data = (countries as Record<string, { currency: string[] } | undefined>)[country];
  return data?.currency;
}

export const isCountryCode = (code: string): boolean => COUNTRY_CODE.test(code) && currenciesOf(code) !== undefined;

/**
 * The countries of sale: `targetCountry`, or a `feedLabel` that is itself a country code (newer products name the
 * country through the feed label only). A feed label that names no country does not target one: such a product is
 * sold in the countries its `shipping` entries name, as Content API documents for feed labels.
 */
export function targetCountries(product: Product): string[] {
  const country = product.targetCountry ?? (product.feedLabel && isCountryCode(product.feedLabel) ? product.feedLabel : undefined);
  if (country) return [country];
  const shipped = (product.shipping ?? []).map((s) => s.country).filter((c): c is string => typeof c === 'string' && isCountryCode(c));
  return [...new Set(shipped)].sort();
}
