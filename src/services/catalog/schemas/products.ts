// Documented requests of products.* and productstatuses.*. products.insert checks only the identifying attributes
// with a 400 (normaliseProduct); every other attribute is accepted as typed and judged by the item-level rules, which
// report issues in the product's status instead of refusing it.
import { Type, type TProperties } from '@sinclair/typebox';
import { AGE_GROUPS, AVAILABILITIES, CONDITIONS, DESCRIPTION_MAX, GENDERS, TITLE_MAX } from '../domain/product-rules.ts';
import { FEED_LABEL_PATTERN } from '../feed-label.ts';
import { OFFER_ID_MAX } from '../products.ts';
import { MAX_RESULTS_PAGING } from './common.ts';
import { wireBody, type FieldRules } from './wire.ts';

const LANGUAGE = '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$';

/** The attributes that make up the REST id, with the formats insert enforces. */
const IDENTITY_RULES: FieldRules = {
  offerId: { maxLength: OFFER_ID_MAX, description: `The merchant's own id of the offer; whitespace is collapsed, at most ${OFFER_ID_MAX} characters.` },
  channel: { enum: ['online', 'local'], description: 'Where the offer is sold: online or in local stores.' },
  contentLanguage: { pattern: LANGUAGE, description: 'ISO 639-1 language of the title and description, e.g. "en".' },
  targetCountry: { pattern: '^[A-Z]{2}$', description: 'CLDR territory code of the country sold to, e.g. "US" ("UK" is stored as "GB"); feedLabel stands in when it is absent, and must equal it when both are set.' },
  feedLabel: { pattern: FEED_LABEL_PATTERN, description: 'Feed label of the product (up to 20 of A-Z, 0-9 and -); required when targetCountry is absent; always returned (the target country when only that was sent).' },
};

const listed = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');

/** The main attributes, as the item-level rules read them (not refused when wrong: reported as status issues). */
const ATTRIBUTE_DOCS: FieldRules = {
  title: { description: `Title of the item (an issue beyond ${TITLE_MAX} characters).` },
  description: { description: `Description of the item (an issue beyond ${DESCRIPTION_MAX} characters).` },
  link: { description: 'URL of the product page on the merchant\'s site (http or https).' },
  imageLink: { description: 'URL of the main image of the item.' },
  additionalImageLinks: { description: 'URLs of further images of the item.' },
  availability: { description: `Availability: one of ${listed(AVAILABILITIES)}.` },
  availabilityDate: { description: 'When a pre-ordered or back-ordered item becomes available (ISO 8601).' },
  condition: { description: `Condition: one of ${listed(CONDITIONS)}.` },
  brand: { description: 'Brand of the item.' },
  gtin: { description: 'Global Trade Item Number (its check digit is verified).' },
  mpn: { description: 'Manufacturer part number.' },
  identifierExists: { description: 'False when the item has no GTIN or MPN and brand.' },
  price: { description: 'Price of the item; its currency must be the target country\'s.' },
  salePrice: { description: 'Advertised sale price; not above price.' },
  salePriceEffectiveDate: { description: 'Interval in which the sale price applies (ISO 8601 start/end).' },
  expirationDate: { description: 'Date after which the item no longer serves (ISO 8601).' },
  includedDestinations: { description: 'Destinations added to the channel\'s defaults, by the specification\'s name (e.g. "Free_listings") or the one statuses report (e.g. "SurfacesAcrossGoogle"), case ignored; others are refused.' },
  excludedDestinations: { description: 'Destinations removed from the channel\'s defaults, named as in includedDestinations.' },
  shipping: { description: 'Shipping rules of the item by country.' },
  adult: { description: 'True when the item targets adults.' },
  ageGroup: { description: `Target age group: one of ${listed(AGE_GROUPS)}.` },
  gender: { description: `Target gender: one of ${listed(GENDERS)}.` },
  googleProductCategory: { description: 'Google product category, by id or path.' },
  itemGroupId: { description: 'Shared id of the variants of one product.' },
  customAttributes: { description: 'Attributes without a field of their own, as name and value (or a group of them).' },
  kind: { description: 'Output only: "content#product" (ignored when sent).' },
  id: { description: 'Output only: the REST id (ignored when sent).' },
  source: { description: 'How the product came in: "api" unless the body names it; products from datafeeds carry "feed".' },
};

/** products.insert: identifying attributes required and checked, the rest accepted as typed. */
export const PRODUCT_INSERT_BODY = wireBody('Product', {
  rules: { ...ATTRIBUTE_DOCS, ...IDENTITY_RULES },
  required: ['offerId', 'channel', 'contentLanguage'],
  description: 'The product (an upsert by its REST id). targetCountry or feedLabel is required too.',
});

/** products.update: any attributes; identifying ones, when present, must equal the stored product's. */
export const PRODUCT_UPDATE_BODY = wireBody('Product', {
  rules: {
    ...ATTRIBUTE_DOCS,
    ...Object.fromEntries(Object.entries(IDENTITY_RULES).map(([name, rule]) => [name, { ...rule, description: `${rule.description} Cannot change.` }])),
  },
  description: 'Attributes to replace (see updateMask).',
});

export const PRODUCT_INSERT_QUERY: TProperties = {
  feedId: Type.Optional(Type.String({ description: 'The datafeed (primary or supplemental) the product is attributed to; it must be one of the merchant\'s datafeeds.' })),
};

export const PRODUCT_DELETE_QUERY: TProperties = {
  feedId: Type.Optional(Type.String({ description: 'A datafeed of the merchant; the whole product is deleted either way.' })),
};

export const PRODUCT_UPDATE_QUERY: TProperties = {
  updateMask: Type.Optional(Type.String({ description: 'Comma-separated top-level attributes to replace (removed when the body lacks them); identifying attributes and nested paths are refused. Without it, the attributes present in the body are replaced.' })),
};

export const PRODUCT_LIST_QUERY: TProperties = { ...MAX_RESULTS_PAGING };

const destinations = Type.Optional(Type.Array(Type.String(), { description: 'Only these destinations are reported (repeat the parameter for several); named as in a product\'s includedDestinations, others are refused.' }));

export const PRODUCT_STATUS_GET_QUERY: TProperties = { destinations };
export const PRODUCT_STATUS_LIST_QUERY: TProperties = { ...MAX_RESULTS_PAGING, destinations };
