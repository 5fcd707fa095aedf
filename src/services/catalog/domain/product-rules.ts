// Item-level validation of a product against the documented product data rules. Each rule looks at one attribute
// (or a pair) and names what is wrong; the issue catalogue turns that into the productstatuses issue shape.
import { ISSUES, documentationUrl, type IssueCode } from './product-rules-catalog.ts';
import { currenciesOf, targetCountries } from './product-rules-countries.ts';
import { gtinProblem } from './product-rules-gtin.ts';
import type { ItemLevelIssue, Price, Product } from './product-rules-types.ts';

export type { DestinationStatus, ItemLevelIssue, Price, Product, ProductStatus, Servability } from './product-rules-types.ts';
export { ISSUES, type IssueCode } from './product-rules-catalog.ts';
export { gtinCheckDigit, gtinProblem, isValidGtin } from './product-rules-gtin.ts';
export { currenciesOf, targetCountries } from './product-rules-countries.ts';
export { productStatus, defaultDestinations, type ProductStatusOptions } from './product-rules-status.ts';

export const TITLE_MAX = 150;
export const DESCRIPTION_MAX = 5000;
export const URL_MAX = 2000;
export const AVAILABILITIES = ['in stock', 'out of stock', 'preorder', 'backorder'] as const;
export const CONDITIONS = ['new', 'refurbished', 'used'] as const;
export const AGE_GROUPS = ['newborn', 'infant', 'toddler', 'kids', 'adult'] as const;
export const GENDERS = ['male', 'female', 'unisex'] as const;
export const WEIGHT_UNITS = ['lb', 'oz', 'g', 'kg'] as const;
export const LENGTH_UNITS = ['in', 'cm'] as const;
/** Upper bounds of shipping weight and dimensions, per unit, from the shipping attributes' specifications. */
const SHIPPING_WEIGHT_MAX: Record<string, number> = { lb: 2000, oz: 32000, g: 1_000_000, kg: 1000 };
const SHIPPING_DIMENSION_MAX: Record<string, number> = { in: 150, cm: 400 };

/** What one rule found: the issue and the specifics for its detail text. */
interface Finding {
  code: IssueCode;
  detail: string;
}

type Rule = (product: Product, now: number) => Finding | Finding[] | undefined;

const blank = (value: string | null | undefined): boolean => value == null || value.trim() === '';

/** A URL Merchant Center can crawl: absolute, http or https, within the length limit. */
function isCrawlableUrl(value: string): boolean {
  if (value.length > URL_MAX) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** `availability` accepts the feed spelling with underscores too (`in_stock`). */
export const normaliseAvailability = (value: string): string => value.trim().toLowerCase().replace(/_/g, ' ');

const PRICE_VALUE = /^\d+(\.\d+)?$/;

/** The amount of a price, or undefined when its value is not a non-negative decimal with a currency. */
export function priceAmount(price: Price | undefined): number | undefined {
  if (!price || typeof price.value !== 'string' || !PRICE_VALUE.test(price.value.trim()) || blank(price.currency)) return undefined;
  return Number(price.value);
}

/** ISO 8601 date or date-time, as the date attributes take them; undefined when unreadable. */
export function parseIsoDate(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())) return undefined;
  const ms = Date.parse(value.trim());
  return Number.isNaN(ms) ? undefined : ms;
}

const oneOf = (allowed: readonly string[], value: string | null | undefined): boolean => value == null || allowed.includes(value.trim().toLowerCase());

function urlRule(missing: IssueCode, invalid: IssueCode, pick: (p: Product) => string | null | undefined, required: (p: Product) => boolean): Rule {
  return (product) => {
    const value = pick(product);
    if (blank(value)) return required(product) ? { code: missing, detail: 'Add a URL' } : undefined;
    if (!isCrawlableUrl(value!.trim())) return { code: invalid, detail: `Use an absolute http:// or https:// URL of at most ${URL_MAX} characters` };
    return undefined;
  };
}

function priceRule(product: Product): Finding | undefined {
  if (!product.price) return { code: 'missing_price', detail: 'Add the price with its currency' };
  const amount = priceAmount(product.price);
  if (amount === undefined || amount <= 0) return { code: 'invalid_price', detail: 'Use a price greater than 0 with an ISO 4217 currency' };
  const currency = product.price.currency!.trim().toUpperCase();
  for (const country of targetCountries(product)) {
    const local = currenciesOf(country);
    if (local && !local.includes(currency)) return { code: 'price_currency_mismatch', detail: `Use the currency of ${country} (${local[0]})` };
  }
  return undefined;
}

function salePriceRule(product: Product): Finding | undefined {
  if (!product.salePrice) return undefined;
  const sale = priceAmount(product.salePrice);
  if (sale === undefined || sale <= 0) return { code: 'invalid_sale_price', detail: 'Use a sale price greater than 0 with an ISO 4217 currency' };
  const price = priceAmount(product.price);
  if (price === undefined) return undefined;
  if (product.salePrice.currency!.trim().toUpperCase() !== product.price!.currency!.trim().toUpperCase()) {
    return { code: 'invalid_sale_price', detail: 'Use the same currency for the sale price as for the price' };
  }
  if (sale > price) return { code: 'sale_price_higher_than_price', detail: 'Use a sale price lower than or equal to the price' };
  return undefined;
}

function salePriceEffectiveDateRule(product: Product): Finding | undefined {
  const range = product.salePriceEffectiveDate;
  if (blank(range)) return undefined;
  const [start, end, extra] = range!.split('/');
  const startMs = start ? parseIsoDate(start) : undefined;
  const endMs = end ? parseIsoDate(end) : undefined;
  if (extra !== undefined || startMs === undefined || endMs === undefined || endMs <= startMs) {
    return { code: 'invalid_sale_price_effective_date', detail: 'Use a start and an end date-time in ISO 8601 separated by "/", the end after the start' };
  }
  return undefined;
}

function identifierRule(product: Product): Finding | Finding[] | undefined {
  const gtin = product.gtin?.trim();
  if (gtin) {
    const problem = gtinProblem(gtin);
    if (problem === 'format') return { code: 'invalid_gtin', detail: 'Use digits only' };
    if (problem === 'length') return { code: 'invalid_gtin', detail: 'Use a GTIN of 8, 12, 13 or 14 digits' };
    if (problem === 'check_digit') return { code: 'invalid_gtin', detail: 'Check the GTIN: its check digit is wrong' };
    return undefined;
  }
  if (product.identifierExists === false) return undefined;
  const findings: Finding[] = [];
  if (blank(product.brand)) findings.push({ code: 'missing_brand', detail: 'Add the brand, or set identifier_exists to false if the product has no identifiers' });
  if (blank(product.mpn)) findings.push({ code: 'missing_product_identifiers', detail: 'Add the GTIN or the MPN the manufacturer assigned' });
  return findings;
}

function availabilityRule(product: Product): Finding | undefined {
  if (blank(product.availability)) return { code: 'missing_availability', detail: `Use one of: ${AVAILABILITIES.join(', ')}` };
  const availability = normaliseAvailability(product.availability!);
  if (!(AVAILABILITIES as readonly string[]).includes(availability)) return { code: 'invalid_availability', detail: `Use one of: ${AVAILABILITIES.join(', ')}` };
  if (availability !== 'preorder' && availability !== 'backorder') return undefined;
  if (blank(product.availabilityDate)) return { code: 'missing_availability_date', detail: `Add the date a ${availability} item becomes available` };
  if (parseIsoDate(product.availabilityDate!) === undefined) return { code: 'invalid_availability_date', detail: 'Use an ISO 8601 date' };
  return undefined;
}

function expirationRule(product: Product, now: number): Finding | undefined {
  if (blank(product.expirationDate)) return undefined;
  const expires = parseIsoDate(product.expirationDate!);
  if (expires === undefined) return { code: 'invalid_expiration_date', detail: 'Use an ISO 8601 date' };
  if (expires <= now) return { code: 'item_expired', detail: 'Update the expiration date or submit the item again' };
  return undefined;
}

type Measure = { unit?: string | null; value?: number | null } | undefined;

function measureValid(measure: Measure, maxima: Record<string, number>): boolean {
  if (!measure) return true;
  const max = typeof measure.unit === 'string' ? maxima[measure.unit.toLowerCase()] : undefined;
  return max !== undefined && typeof measure.value === 'number' && measure.value > 0 && measure.value <= max;
}

function shippingMeasureRule(product: Product): Finding[] {
  const findings: Finding[] = [];
  if (!measureValid(product.shippingWeight, SHIPPING_WEIGHT_MAX)) {
    findings.push({ code: 'invalid_shipping_weight', detail: `Use a positive weight in ${WEIGHT_UNITS.join(', ')} within the documented maximum` });
  }
  if (![product.shippingLength, product.shippingWidth, product.shippingHeight].every((d) => measureValid(d, SHIPPING_DIMENSION_MAX))) {
    findings.push({ code: 'invalid_shipping_dimension', detail: `Use positive dimensions in ${LENGTH_UNITS.join(', ')} within the documented maximum` });
  }
  return findings;
}

const PRODUCT_WEIGHT_MAX: Record<string, number> = { g: 2000, kg: 2000, oz: 2000, lb: 2000 };
const PRODUCT_DIMENSION_MAX: Record<string, number> = { in: 3000, cm: 3000 };

function productMeasureRule(product: Product): Finding | undefined {
  const ok = measureValid(product.productWeight, PRODUCT_WEIGHT_MAX)
    && [product.productLength, product.productWidth, product.productHeight].every((d) => measureValid(d, PRODUCT_DIMENSION_MAX));
  return ok ? undefined : { code: 'invalid_product_dimension', detail: 'Use a weight in g, kg, oz or lb up to 2000 and dimensions in in or cm up to 3000' };
}

function enumRule(code: IssueCode, allowed: readonly string[], pick: (p: Product) => string | null | undefined): Rule {
  return (product) => (oneOf(allowed, pick(product)) ? undefined : { code, detail: `Use one of: ${allowed.join(', ')}` });
}

const RULES: Rule[] = [
  (p) => (blank(p.title) ? { code: 'missing_title', detail: 'Add a title' } : undefined),
  (p) => (!blank(p.title) && p.title!.length > TITLE_MAX ? { code: 'title_too_long', detail: `Use at most ${TITLE_MAX} characters` } : undefined),
  (p) => (blank(p.description) ? { code: 'missing_description', detail: 'Add a description' } : undefined),
  (p) => (!blank(p.description) && p.description!.length > DESCRIPTION_MAX ? { code: 'description_too_long', detail: `Use at most ${DESCRIPTION_MAX} characters` } : undefined),
  // Local products may leave the landing page to the local storefront.
  urlRule('missing_link', 'invalid_link', (p) => p.link, (p) => p.channel !== 'local'),
  urlRule('missing_image_link', 'invalid_image_link', (p) => p.imageLink, () => true),
  (p) => ((p.additionalImageLinks ?? []).every((link) => typeof link === 'string' && isCrawlableUrl(link))
    ? undefined
    : { code: 'invalid_additional_image_link', detail: 'Use absolute http:// or https:// URLs' }),
  priceRule,
  salePriceRule,
  salePriceEffectiveDateRule,
  identifierRule,
  availabilityRule,
  enumRule('invalid_condition', CONDITIONS, (p) => p.condition),
  expirationRule,
  shippingMeasureRule,
  productMeasureRule,
  (p) => (p.adult == null || typeof p.adult === 'boolean' ? undefined : { code: 'invalid_adult', detail: 'Use true or false' }),
  enumRule('invalid_age_group', AGE_GROUPS, (p) => p.ageGroup),
  enumRule('invalid_gender', GENDERS, (p) => p.gender),
];

/** Every documented item-level issue of `product` at time `now` (epoch ms), in rule order. */
export function productIssues(product: Product, options: { now: number }): ItemLevelIssue[] {
  const countries = targetCountries(product);
  const issues: ItemLevelIssue[] = [];
  for (const rule of RULES) {
    const found = rule(product, options.now);
    for (const finding of found === undefined ? [] : Array.isArray(found) ? found : [found]) {
      const definition = ISSUES[finding.code];
      issues.push({
        code: finding.code,
        servability: definition.servability,
        resolution: 'merchant_action',
        attributeName: definition.attributeName,
        description: definition.description,
        detail: finding.detail,
        documentation: documentationUrl(definition.answer),
        applicableCountries: [...countries],
      });
    }
  }
  return issues;
}

export const isDisapproving = (issue: ItemLevelIssue): boolean => issue.servability === 'disapproved';
