// Every item-level issue the validator can raise: its code, how it affects serving, the attribute (feed name) it is
// about, its short description and the product data specification page that explains the rule.
import type { Servability } from './product-rules-types.ts';

export interface IssueDefinition {
  servability: Servability;
  attributeName: string;
  description: string;
  /** support.google.com/merchants answer id of the attribute's specification. */
  answer: number;
}

const disapproved = (attributeName: string, description: string, answer: number): IssueDefinition => ({ servability: 'disapproved', attributeName, description, answer });
const demoted = (attributeName: string, description: string, answer: number): IssueDefinition => ({ servability: 'demoted', attributeName, description, answer });

export const ISSUES = {
  missing_title: disapproved('title', 'Missing value [title]', 6324415),
  title_too_long: disapproved('title', 'Text too long [title]', 6324415),
  missing_description: disapproved('description', 'Missing value [description]', 6324468),
  description_too_long: disapproved('description', 'Text too long [description]', 6324468),
  missing_link: disapproved('link', 'Missing value [link]', 6324416),
  invalid_link: disapproved('link', 'Invalid URL [link]', 6324416),
  missing_image_link: disapproved('image link', 'Missing value [image_link]', 6324350),
  invalid_image_link: disapproved('image link', 'Invalid URL [image_link]', 6324350),
  invalid_additional_image_link: demoted('additional image link', 'Invalid URL [additional_image_link]', 6324370),
  missing_price: disapproved('price', 'Missing value [price]', 6324371),
  invalid_price: disapproved('price', 'Invalid value [price]', 6324371),
  price_currency_mismatch: disapproved('price', 'Currency not supported in the country of sale [price]', 6324371),
  invalid_sale_price: disapproved('sale price', 'Invalid value [sale_price]', 6324471),
  sale_price_higher_than_price: disapproved('sale price', 'Sale price higher than price [sale_price]', 6324471),
  invalid_sale_price_effective_date: demoted('sale price effective date', 'Invalid date range [sale_price_effective_date]', 6324460),
  invalid_gtin: disapproved('gtin', 'Invalid value [gtin]', 6324461),
  missing_brand: disapproved('brand', 'Missing value [brand]', 6324351),
  missing_product_identifiers: demoted('gtin', 'Limited performance due to missing identifiers [gtin, mpn]', 6324478),
  missing_availability: disapproved('availability', 'Missing value [availability]', 6324448),
  invalid_availability: disapproved('availability', 'Invalid value [availability]', 6324448),
  missing_availability_date: disapproved('availability date', 'Missing value [availability_date]', 6324470),
  invalid_availability_date: disapproved('availability date', 'Invalid date [availability_date]', 6324470),
  invalid_condition: disapproved('condition', 'Invalid value [condition]', 6324469),
  item_expired: disapproved('expiration date', 'Expired item [expiration_date]', 6324499),
  invalid_expiration_date: demoted('expiration date', 'Invalid date [expiration_date]', 6324499),
  invalid_shipping_weight: disapproved('shipping weight', 'Invalid value [shipping_weight]', 6324503),
  invalid_shipping_dimension: disapproved('shipping dimension', 'Invalid value [shipping_length, shipping_width, shipping_height]', 6324498),
  invalid_product_dimension: demoted('product dimension', 'Invalid value [product_weight, product_length, product_width, product_height]', 11018531),
  invalid_adult: disapproved('adult', 'Invalid value [adult]', 6324508),
  invalid_age_group: disapproved('age group', 'Invalid value [age_group]', 6324463),
  invalid_gender: disapproved('gender', 'Invalid value [gender]', 6324479),
} satisfies Record<string, IssueDefinition>;

export type IssueCode = keyof typeof ISSUES;

export const documentationUrl = (answer: number): string => `https://support.google.com/merchants/answer/${answer}`;
