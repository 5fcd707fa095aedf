// Documented requests of local and regional inventory and of point-of-sale stores, inventory and sales. Prices here
// are checked (value and currency both required, a decimal and an ISO 4217 code), unlike a product's.
import type { TObject } from '@sinclair/typebox';
import { wireBody, type FieldRules } from './wire.ts';

export const AVAILABILITY = ['in stock', 'out of stock', 'limited availability', 'on display to order', 'preorder', 'backorder'];
export const PICKUP_METHODS = ['buy', 'reserve', 'ship to store', 'not supported'];
export const PICKUP_SLAS = ['same day', 'next day', '2-day', '3-day', '4-day', '5-day', '6-day', '7-day', 'multi-week'];
export const STORE_CODE_MAX = 64;
export const ITEM_ID_MAX = 50;

/** A checked price at `field`: its rules and the paths it requires. */
function checkedPrice(field: string): { rules: FieldRules; required: string[] } {
  return {
    rules: {
      [`${field}.value`]: { pattern: '^-?\\d+(\\.\\d+)?$', description: 'The amount as a decimal number, e.g. "9.99".' },
      [`${field}.currency`]: { pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code, e.g. "USD".' },
    },
    required: [`${field}.value`, `${field}.currency`],
  };
}

const price = checkedPrice('price');
const salePrice = checkedPrice('salePrice');

/** Pickup of local and POS inventory, as the service checks it. */
const PICKUP_RULES: FieldRules = {
  pickupMethod: { enum: PICKUP_METHODS, description: 'Needs pickupSla unless "not supported".' },
  pickupSla: { enum: PICKUP_SLAS, description: 'Needs pickupMethod.' },
};

function offer(type: string, own: FieldRules, required: string[]): TObject {
  return wireBody(type, {
    rules: {
      ...price.rules,
      ...salePrice.rules,
      availability: { enum: AVAILABILITY, description: 'Availability of the item there.' },
      salePriceEffectiveDate: { description: 'When the sale price applies; needs salePrice.' },
      ...own,
    },
    required: [...price.required, ...salePrice.required, ...required],
  });
}

export const LOCAL_INVENTORY_BODY = offer(
  'LocalInventory',
  {
    storeCode: { maxLength: STORE_CODE_MAX, description: 'The store the inventory is in; required.' },
    ...PICKUP_RULES,
    quantity: { minimum: 0, multipleOf: 1, description: 'Items in stock at the store (a whole number).' },
  },
  ['storeCode'],
);

export const REGIONAL_INVENTORY_BODY = offer('RegionalInventory', { regionId: { description: 'A region of the merchant eligible for regional inventory; required.' } }, ['regionId']);

export const POS_STORE_BODY = wireBody('PosStore', {
  rules: {
    storeCode: { maxLength: STORE_CODE_MAX, description: 'The merchant\'s own code of the store; required.' },
    storeName: { maxLength: 100 },
    storeAddress: { maxLength: 500, description: 'Street address of the store; required.' },
    matchingStatus: { description: 'Output only: the service sets it.' },
  },
  required: ['storeCode', 'storeAddress'],
});

/** Rules checkPosItem enforces on inventory and sales. */
const POS_ITEM_RULES: FieldRules = {
  ...price.rules,
  itemId: { maxLength: ITEM_ID_MAX, description: 'The offer id of the item.' },
  targetCountry: { pattern: '^[A-Z]{2}$' },
  contentLanguage: { pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$' },
  quantity: { pattern: '^-?\\d+$', description: 'A whole number.' },
  timestamp: { description: 'When it happened (RFC 3339).' },
};
const POS_ITEM_REQUIRED = ['storeCode', 'itemId', 'targetCountry', 'contentLanguage', 'price', 'quantity', 'timestamp', ...price.required];

export const POS_INVENTORY_BODY = wireBody('PosInventoryRequest', {
  rules: { ...POS_ITEM_RULES, ...PICKUP_RULES, quantity: { pattern: '^\\d+$', description: 'Items in stock (at least 0).' } },
  required: POS_ITEM_REQUIRED,
});

export const POS_SALE_BODY = wireBody('PosSaleRequest', {
  rules: { ...POS_ITEM_RULES, quantity: { pattern: '^-?\\d+$', description: 'Items sold (negative for a return).' } },
  required: POS_ITEM_REQUIRED,
});
