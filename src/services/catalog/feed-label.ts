// Feed labels and the deprecated country they replace, for products and datafeed targets. Content API requires one of
// the two; when both are given they must be equal. A product's label is always returned (the country when only that
// was sent), and a label that is a CLDR territory code fills in the country for older clients.
import { isCountryCode } from './domain/product-rules-countries.ts';
import { badRequest } from './wire/rules.ts';

/** Up to 20 upper-case letters, digits and dashes. */
export const FEED_LABEL_PATTERN = '^[A-Z0-9-]{1,20}$';
const FEED_LABEL = new RegExp(FEED_LABEL_PATTERN);

export function feedLabelRule(value: unknown, path: string): void {
  if (value !== undefined && !FEED_LABEL.test(String(value))) {
    throw badRequest(`Invalid value for ${path}: ${JSON.stringify(value)} (at most 20 upper-case letters, digits and dashes).`);
  }
}

/** Refuses a label and a country that differ; `labelPath` and `countryPath` name the fields in the error. */
export function sameLabelAndCountry(feedLabel: string | undefined, country: string | undefined, labelPath: string, countryPath: string): void {
  if (feedLabel !== undefined && country !== undefined && feedLabel !== country) {
    throw badRequest(`${labelPath} (${JSON.stringify(feedLabel)}) and ${countryPath} (${JSON.stringify(country)}) must have the same value when both are set.`);
  }
}

/** The label and country a product is stored with: each filled from the other where Content API fills it. */
export function labelAndCountry(feedLabel: string | undefined, country: string | undefined): { feedLabel: string | undefined; country: string | undefined } {
  const label = feedLabel ?? country;
  return { feedLabel: label, country: country ?? (label !== undefined && isCountryCode(label) ? label : undefined) };
}
