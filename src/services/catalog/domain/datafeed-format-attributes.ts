// The product data attributes a feed may carry, by their documented feed names, and how each text value becomes
// the Content API product field: plain text, numbers, yes/no, prices ("12.00 USD"), measures ("3 kg") and the
// grouped attributes shipping and tax ("US:CA:Overnight:16.00 USD").
import type { content_v2_1 } from 'googleapis';
import { currenciesOf } from './product-rules-countries.ts';

/** A value as a feed gives it: text, or for grouped attributes in XML a record of sub-attributes. */
export type RawValue = string | Record<string, string>;

export type Converted = { value: unknown } | { error: string };

export interface ConvertContext {
  targetCountry?: string;
  /** Sub-attribute order declared in a TSV header like `shipping(country:price)`. */
  subAttributes?: string[];
}

type Converter = (raw: RawValue, ctx: ConvertContext) => Converted;

interface AttributeSpec {
  field: keyof content_v2_1.Schema$Product;
  convert: Converter;
  /** Repeated attributes collect every value (and TSV splits a cell on commas) into an array. */
  repeated?: 'column' | 'comma';
}

const text = (raw: RawValue): string => (typeof raw === 'string' ? raw.trim() : '');

const plain: Converter = (raw) => ({ value: text(raw) });

const bool: Converter = (raw) => {
  const v = text(raw).toLowerCase();
  if (['yes', 'y', 'true', '1'].includes(v)) return { value: true };
  if (['no', 'n', 'false', '0'].includes(v)) return { value: false };
  return { error: `Invalid boolean "${text(raw)}" (use yes or no)` };
};

const integer: Converter = (raw) => (/^\d+$/.test(text(raw)) ? { value: text(raw) } : { error: `Invalid integer "${text(raw)}"` });

const decimal: Converter = (raw) => (/^\d+(\.\d+)?$/.test(text(raw)) ? { value: Number(text(raw)) } : { error: `Invalid number "${text(raw)}"` });

/** "12.00 USD", "USD 12.00" or "12.00" (then in the currency of the target country); a decimal comma is accepted. */
export const price: Converter = (raw, ctx) => {
  const v = text(raw);
  const after = /^(\d+(?:[.,]\d+)?)\s*([A-Za-z]{3})?$/.exec(v);
  const before = /^([A-Za-z]{3})\s*(\d+(?:[.,]\d+)?)$/.exec(v);
  const amount = after ? after[1] : before?.[2];
  let currency = after ? after[2] : before?.[1];
  if (amount === undefined) return { error: `Invalid price "${v}" (use an amount and an ISO 4217 currency, like 12.00 USD)` };
  currency ??= ctx.targetCountry ? currenciesOf(ctx.targetCountry)?.[0] : undefined;
  if (!currency) return { error: `Price "${v}" has no currency` };
  return { value: { value: amount.replace(',', '.'), currency: currency.toUpperCase() } };
};

function measure(units: readonly string[]): Converter {
  return (raw) => {
    const m = /^(\d+(?:\.\d+)?)\s*([A-Za-z]+)$/.exec(text(raw));
    if (!m || !units.includes(m[2].toLowerCase())) return { error: `Invalid measure "${text(raw)}" (use a number and one of ${units.join(', ')})` };
    return { value: { value: Number(m[1]), unit: m[2].toLowerCase() } };
  };
}

const WEIGHT = measure(['lb', 'oz', 'g', 'kg']);
const LENGTH = measure(['in', 'cm']);

/** Grouped attribute: from XML sub-elements, or from a colon-separated TSV cell in the declared (or default) order. */
function grouped(defaultOrder: string[], build: (parts: Record<string, string>, ctx: ConvertContext) => Converted): Converter {
  return (raw, ctx) => {
    if (typeof raw !== 'string') return build(raw, ctx);
    const order = ctx.subAttributes ?? defaultOrder;
    const cells = raw.split(':');
    if (cells.length !== order.length) return { error: `Invalid value "${raw}" (expected ${order.join(':')})` };
    return build(Object.fromEntries(order.map((name, i) => [name, cells[i].trim()])), ctx);
  };
}

const shipping = grouped(['country', 'region', 'service', 'price'], (parts, ctx) => {
  const out: content_v2_1.Schema$ProductShipping = {};
  if (parts.country) out.country = parts.country.toUpperCase();
  if (parts.region) out.region = parts.region;
  if (parts.postal_code) out.postalCode = parts.postal_code;
  if (parts.service) out.service = parts.service;
  for (const key of ['min_handling_time', 'max_handling_time', 'min_transit_time', 'max_transit_time'] as const) {
    if (!parts[key]) continue;
    if (!/^\d+$/.test(parts[key])) return { error: `Invalid ${key} "${parts[key]}"` };
    out[key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as 'minHandlingTime'] = parts[key];
  }
  if (parts.price) {
    const converted = price(parts.price, { targetCountry: parts.country || ctx.targetCountry });
    if ('error' in converted) return converted;
    out.price = converted.value as content_v2_1.Schema$Price;
  }
  return { value: out };
});

const tax = grouped(['country', 'region', 'rate', 'tax_ship'], (parts) => {
  if (parts.rate && !/^\d+(\.\d+)?$/.test(parts.rate)) return { error: `Invalid tax rate "${parts.rate}"` };
  const out: content_v2_1.Schema$ProductTax = {};
  if (parts.country) out.country = parts.country.toUpperCase();
  if (parts.region) out.region = parts.region;
  if (parts.postal_code) out.postalCode = parts.postal_code;
  if (parts.rate) out.rate = Number(parts.rate);
  if (parts.tax_ship) {
    const ship = bool(parts.tax_ship, {});
    if ('error' in ship) return ship;
    out.taxShip = ship.value as boolean;
  }
  return { value: out };
});

const field = (name: keyof content_v2_1.Schema$Product, convert: Converter = plain, repeated?: AttributeSpec['repeated']): AttributeSpec => ({ field: name, convert, repeated });

export const ATTRIBUTES: Record<string, AttributeSpec> = {
  id: field('offerId'),
  title: field('title'),
  description: field('description'),
  link: field('link'),
  mobile_link: field('mobileLink'),
  canonical_link: field('canonicalLink'),
  ads_redirect: field('adsRedirect'),
  image_link: field('imageLink'),
  additional_image_link: field('additionalImageLinks', plain, 'comma'),
  lifestyle_image_link: field('lifestyleImageLinks', plain, 'comma'),
  availability: field('availability', (raw) => ({ value: text(raw).toLowerCase().replace(/_/g, ' ') })),
  availability_date: field('availabilityDate'),
  expiration_date: field('expirationDate'),
  price: field('price', price),
  sale_price: field('salePrice', price),
  sale_price_effective_date: field('salePriceEffectiveDate'),
  cost_of_goods_sold: field('costOfGoodsSold', price),
  google_product_category: field('googleProductCategory'),
  product_type: field('productTypes', plain, 'column'),
  brand: field('brand'),
  gtin: field('gtin'),
  mpn: field('mpn'),
  identifier_exists: field('identifierExists', bool),
  condition: field('condition', (raw) => ({ value: text(raw).toLowerCase() })),
  adult: field('adult', bool),
  multipack: field('multipack', integer),
  is_bundle: field('isBundle', bool),
  age_group: field('ageGroup', (raw) => ({ value: text(raw).toLowerCase() })),
  color: field('color'),
  gender: field('gender', (raw) => ({ value: text(raw).toLowerCase() })),
  material: field('material'),
  pattern: field('pattern'),
  size: field('sizes', plain, 'column'),
  size_type: field('sizeType'),
  size_system: field('sizeSystem'),
  item_group_id: field('itemGroupId'),
  product_length: field('productLength', LENGTH),
  product_width: field('productWidth', LENGTH),
  product_height: field('productHeight', LENGTH),
  product_weight: field('productWeight', WEIGHT),
  product_highlight: field('productHighlights', plain, 'column'),
  shipping: field('shipping', shipping, 'column'),
  shipping_label: field('shippingLabel'),
  shipping_weight: field('shippingWeight', WEIGHT),
  shipping_length: field('shippingLength', LENGTH),
  shipping_width: field('shippingWidth', LENGTH),
  shipping_height: field('shippingHeight', LENGTH),
  transit_time_label: field('transitTimeLabel'),
  min_handling_time: field('minHandlingTime', integer),
  max_handling_time: field('maxHandlingTime', integer),
  tax: field('taxes', tax, 'column'),
  tax_category: field('taxCategory'),
  energy_efficiency_class: field('energyEfficiencyClass'),
  min_energy_efficiency_class: field('minEnergyEfficiencyClass'),
  max_energy_efficiency_class: field('maxEnergyEfficiencyClass'),
  excluded_destination: field('excludedDestinations', plain, 'comma'),
  included_destination: field('includedDestinations', plain, 'comma'),
  shopping_ads_excluded_country: field('shoppingAdsExcludedCountries', plain, 'comma'),
  promotion_id: field('promotionIds', plain, 'comma'),
  pause: field('pause'),
  external_seller_id: field('externalSellerId'),
  display_ads_id: field('displayAdsId'),
  display_ads_title: field('displayAdsTitle'),
  display_ads_link: field('displayAdsLink'),
  display_ads_value: field('displayAdsValue', decimal),
  custom_label_0: field('customLabel0'),
  custom_label_1: field('customLabel1'),
  custom_label_2: field('customLabel2'),
  custom_label_3: field('customLabel3'),
  custom_label_4: field('customLabel4'),
};

/** Feed names are matched without case, with spaces or underscores, and without an XML `g:` prefix. */
export const normaliseAttributeName = (name: string): string => name.trim().toLowerCase().replace(/^g:/, '').replace(/[\s-]+/g, '_');
