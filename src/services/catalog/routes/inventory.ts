// Local and regional inventory of a product, and point-of-sale stores, inventory and sales. Inventory is kept per
// product and store (or region); a POS inventory or sale for an item of a local product updates that product's local
// inventory at the store. A local product serves on local destinations only while some store has it in stock, so
// local inventory changes the product's status.
import type { Kysely } from 'kysely';
import { notFound } from '../../../core/google/index.ts';
import { own } from '../../../core/own.ts';
import type { Catalog } from '../catalog.ts';
import { batchOperation } from '../layer/batch.ts';
import type { Call, Operation, RequestShape } from '../layer/operation.ts';
import { listAnswer } from '../layer/paging.ts';
import { itemNotFound, setLocalStores } from '../products.ts';
import type { CatalogStore } from '../store.ts';
import { badRequest, country, language, maxLength, oneOf, price, requireValue } from '../wire/rules.ts';
import { bodyObject, checkWire } from '../wire/validate.ts';
import { productIdOf } from './products.ts';
import {
  AVAILABILITY,
  ITEM_ID_MAX,
  LOCAL_INVENTORY_BODY,
  PICKUP_METHODS,
  PICKUP_SLAS,
  POS_INVENTORY_BODY,
  POS_SALE_BODY,
  POS_STORE_BODY,
  REGIONAL_INVENTORY_BODY,
  STORE_CODE_MAX,
} from '../schemas/inventory.ts';


function checkOffer(doc: Record<string, any>, root: string): void {
  price(doc.price, `${root}.price`);
  price(doc.salePrice, `${root}.salePrice`);
  // Google documents the sale price as mandatory once its effective date is given.
  if (doc.salePriceEffectiveDate !== undefined) requireValue(doc.salePrice, `${root}.salePrice`);
  if (doc.availability !== undefined) oneOf(doc.availability, AVAILABILITY, `${root}.availability`);
}

/** Pickup of local and POS inventory: a method other than "not supported" comes with an SLA, an SLA with a method. */
function checkPickup(doc: Record<string, any>, root: string): void {
  oneOf(doc.pickupMethod, PICKUP_METHODS, `${root}.pickupMethod`);
  oneOf(doc.pickupSla, PICKUP_SLAS, `${root}.pickupSla`);
  if (doc.pickupSla !== undefined) requireValue(doc.pickupMethod, `${root}.pickupMethod`);
  if (doc.pickupMethod !== undefined && doc.pickupMethod !== 'not supported') requireValue(doc.pickupSla, `${root}.pickupSla`);
}

/** Stores one store's (or region's) inventory of a product; returns all entries of the product. */
async function mergeInventory(store: CatalogStore, merchantId: string, resource: string, productId: string, key: string, entry: Record<string, unknown>, now: number) {
  const existing = await store.resource(merchantId, resource, productId);
  const entries: Record<string, Record<string, unknown>> = { ...(existing?.doc.entries ?? {}), [key]: entry };
  await store.putResource(merchantId, resource, productId, { entries }, now);
  return entries;
}

/** Stores that have the item: not marked out of stock, and a positive quantity when one is given. */
const inStock = (entries: Record<string, Record<string, unknown>>) =>
  Object.values(entries).filter((e) => e.availability !== 'out of stock' && (e.quantity === undefined || Number(e.quantity) > 0)).length;

async function mergeLocal(cat: Catalog, store: CatalogStore, tx: Kysely<any>, merchantId: string, productId: string, entry: Record<string, unknown>, now: number) {
  const entries = await mergeInventory(store, merchantId, 'localinventory', productId, String(entry.storeCode), entry, now);
  await setLocalStores(cat, store, tx, merchantId, productId, inStock(entries), now);
}

export function inventoryOperations(): Operation[] {
  const local: Operation = {
    method: 'localinventory.insert',
    verb: 'POST',
    path: '/{merchantId}/products/{productId}/localinventory',
    scope: 'merchant',
    request: { body: LOCAL_INVENTORY_BODY },
    async run(cat, call) {
      const doc = checkWire<Record<string, any>>(bodyObject(call.body), 'LocalInventory', 'localInventory');
      delete doc.kind;
      requireValue(doc.storeCode, 'localInventory.storeCode');
      maxLength(doc.storeCode, STORE_CODE_MAX, 'localInventory.storeCode');
      checkOffer(doc, 'localInventory');
      checkPickup(doc, 'localInventory');
      if (doc.quantity !== undefined && (!Number.isInteger(doc.quantity) || doc.quantity < 0)) throw badRequest('localInventory.quantity must be a whole number of at least 0.');
      const id = productIdOf(call);
      await cat.write(async (s, tx) => {
        if (!(await s.product(call.merchant.id, id))) throw itemNotFound();
        await mergeLocal(cat, s, tx, call.merchant.id, id, doc, cat.now());
      });
      return { kind: 'content#localInventory', ...doc };
    },
  };

  const regional: Operation = {
    method: 'regionalinventory.insert',
    verb: 'POST',
    path: '/{merchantId}/products/{productId}/regionalinventory',
    scope: 'merchant',
    request: { body: REGIONAL_INVENTORY_BODY },
    async run(cat, call) {
      const doc = checkWire<Record<string, any>>(bodyObject(call.body), 'RegionalInventory', 'regionalInventory');
      delete doc.kind;
      requireValue(doc.regionId, 'regionalInventory.regionId');
      checkOffer(doc, 'regionalInventory');
      const id = productIdOf(call);
      await cat.write(async (s) => {
        if (!(await s.product(call.merchant.id, id))) throw itemNotFound();
        const region = await s.resource(call.merchant.id, 'regions', doc.regionId);
        if (!region) throw badRequest(`Region ${doc.regionId} does not exist in merchant ${call.merchant.id}.`);
        if (region.doc.regionalInventoryEligible === false) throw badRequest(`Region ${doc.regionId} is not eligible for regional inventory.`);
        await mergeInventory(s, call.merchant.id, 'regionalinventory', id, doc.regionId, doc, cat.now());
      });
      return { kind: 'content#regionalInventory', ...doc };
    },
  };

  const localBatch = batchOperation({
    path: '/localinventory/batch',
    method: 'localinventory.custombatch',
    wire: 'LocalinventoryCustomBatchRequest',
    kind: 'content#localinventoryCustomBatchResponse',
    entryKind: 'content#localinventoryCustomBatchResponseEntry',
    params: ['merchantId', 'productId'],
    methods: { insert: { op: local, body: 'localInventory' } },
  });
  const regionalBatch = batchOperation({
    path: '/regionalinventory/batch',
    method: 'regionalinventory.custombatch',
    wire: 'RegionalinventoryCustomBatchRequest',
    kind: 'content#regionalinventoryCustomBatchResponse',
    entryKind: 'content#regionalinventoryCustomBatchResponseEntry',
    params: ['merchantId', 'productId'],
    methods: { insert: { op: regional, body: 'regionalInventory', result: 'regionalInventory' } },
  });

  return [local, regional, localBatch, regionalBatch, ...posOperations()];
}

// ---- point of sale

const storeCodeOf = (call: Call): string => {
  const code = call.params.storeCode;
  if (!code) throw badRequest('Required parameter: storeCode', 'required');
  return code;
};

const storeNotFound = (code: string) => notFound(`Store ${code} not found.`);

function checkPosItem(doc: Record<string, any>, root: string): void {
  for (const f of ['storeCode', 'itemId', 'targetCountry', 'contentLanguage', 'price', 'quantity', 'timestamp']) requireValue(doc[f], `${root}.${f}`);
  country(doc.targetCountry, `${root}.targetCountry`);
  language(doc.contentLanguage, `${root}.contentLanguage`);
  price(doc.price, `${root}.price`);
  checkPickup(doc, root);
  maxLength(doc.itemId, ITEM_ID_MAX, `${root}.itemId`);
  if (!/^-?\d+$/.test(String(doc.quantity))) throw badRequest(`${root}.quantity must be a whole number.`);
  if (Number.isNaN(Date.parse(doc.timestamp))) throw badRequest(`${root}.timestamp must be an RFC 3339 time.`);
}

/** Reflects a POS quantity on the matching local product's inventory at the store. */
async function syncLocalInventory(cat: Catalog, store: CatalogStore, tx: Kysely<any>, merchantId: string, doc: Record<string, any>, quantity: number, now: number): Promise<void> {
  const productId = `local:${doc.contentLanguage}:${doc.targetCountry}:${doc.itemId}`;
  if (!(await store.product(merchantId, productId))) return;
  const entries = (await store.resource(merchantId, 'localinventory', productId))?.doc.entries ?? {};
  // Store codes are the merchant's: `constructor` is a store here, not an inherited member.
  const existing = own(entries, String(doc.storeCode)) ?? {};
  const entry = { ...existing, storeCode: doc.storeCode, quantity, price: doc.price, availability: quantity > 0 ? 'in stock' : 'out of stock' };
  await mergeLocal(cat, store, tx, merchantId, productId, entry, now);
}

async function requireStore(store: CatalogStore, merchantId: string, code: string) {
  const row = await store.resource(merchantId, 'posstores', code);
  if (!row) throw badRequest(`Store ${code} is not a store of merchant ${merchantId}; insert it first.`);
  return row;
}

function posOperations(): Operation[] {
  const base = '/{merchantId}/pos/{targetMerchantId}';
  const pos = (name: string, verb: Operation['verb'], path: string, run: Operation['run'], request?: RequestShape): Operation => ({
    method: `pos.${name}`,
    verb,
    path: base + path,
    scope: 'managed',
    accountParam: 'targetMerchantId',
    request,
    run,
  });
  const target = (call: Call) => call.account.id;

  const insert = pos('insert', 'POST', '/store', async (cat, call) => {
    const doc = checkWire<Record<string, any>>(bodyObject(call.body), 'PosStore', 'store');
    delete doc.kind;
    requireValue(doc.storeCode, 'store.storeCode');
    requireValue(doc.storeAddress, 'store.storeAddress');
    maxLength(doc.storeCode, STORE_CODE_MAX, 'store.storeCode');
    maxLength(doc.storeName, 100, 'store.storeName');
    maxLength(doc.storeAddress, 500, 'store.storeAddress');
    // Matching against business profiles: a store with an address is matched.
    const stored = { ...doc, matchingStatus: 'matched' };
    await cat.write((s) => s.putResource(target(call), 'posstores', doc.storeCode, stored, cat.now()));
    return { kind: 'content#posStore', ...stored };
  }, { body: POS_STORE_BODY });
  const get = pos('get', 'GET', '/store/{storeCode}', async (cat, call) => {
    const row = await cat.store.resource(target(call), 'posstores', storeCodeOf(call));
    if (!row) throw storeNotFound(storeCodeOf(call));
    return { kind: 'content#posStore', ...row.doc };
  });
  const list = pos('list', 'GET', '/store', async (cat, call) => {
    const page = await cat.store.resources(target(call), 'posstores', { limit: 100_000 });
    return listAnswer('resources', page.items.map((r) => ({ kind: 'content#posStore', ...r.doc })), undefined, 'content#posListResponse');
  });
  const remove = pos('delete', 'DELETE', '/store/{storeCode}', async (cat, call) => {
    const code = storeCodeOf(call);
    await cat.write(async (s) => {
      if (!(await s.deleteResource(target(call), 'posstores', code))) throw storeNotFound(code);
    });
    return undefined;
  });
  const record = async (cat: Catalog, call: Call, kind: 'inventory' | 'sale', tx: (s: CatalogStore, doc: Record<string, any>, now: number, t: Kysely<any>) => Promise<void>) => {
    const raw = { ...bodyObject(call.body) };
    delete raw.kind;
    const doc = checkWire<Record<string, any>>(raw, kind === 'inventory' ? 'PosInventoryRequest' : 'PosSaleRequest', kind);
    checkPosItem(doc, kind);
    const now = cat.now();
    await cat.write(async (s, t) => {
      await requireStore(s, target(call), doc.storeCode);
      await tx(s, doc, now, t);
    });
    return { kind: `content#pos${kind === 'inventory' ? 'Inventory' : 'Sale'}Response`, ...doc };
  };
  const inventory = pos('inventory', 'POST', '/inventory', (cat, call) =>
    record(cat, call, 'inventory', async (s, doc, now, t) => {
      const quantity = Number(doc.quantity);
      if (quantity < 0) throw badRequest('inventory.quantity must be at least 0.');
      await s.putResource(target(call), 'posinventory', `${doc.storeCode}|${doc.itemId}`, { ...doc, quantity: String(quantity) }, now);
      await syncLocalInventory(cat, s, t, target(call), doc, quantity, now);
    }),
    { body: POS_INVENTORY_BODY },
  );
  const sale = pos('sale', 'POST', '/sale', (cat, call) =>
    record(cat, call, 'sale', async (s, doc, now, t) => {
      const key = `${doc.storeCode}|${doc.itemId}`;
      const saleId = doc.saleId ?? `${doc.storeCode}-${doc.itemId}-${now}`;
      await s.putResource(target(call), 'possales', String(saleId), { ...doc, saleId }, now);
      const stock = await s.resource(target(call), 'posinventory', key);
      if (stock) {
        // A sale takes its quantity out of stock (a return, with a negative quantity, puts it back).
        const remaining = Math.max(0, Number(stock.doc.quantity) - Number(doc.quantity));
        await s.putResource(target(call), 'posinventory', key, { ...stock.doc, quantity: String(remaining) }, now);
        await syncLocalInventory(cat, s, t, target(call), stock.doc, remaining, now);
      }
    }),
    { body: POS_SALE_BODY },
  );

  const batch = batchOperation({
    path: '/pos/batch',
    method: 'pos.custombatch',
    wire: 'PosCustomBatchRequest',
    kind: 'content#posCustomBatchResponse',
    entryKind: 'content#posCustomBatchResponseEntry',
    params: ['merchantId', 'targetMerchantId', 'storeCode'],
    methods: {
      insert: { op: insert, body: 'store', result: 'store' },
      get: { op: get, result: 'store' },
      delete: { op: remove },
      inventory: { op: inventory, body: 'inventory', result: 'inventory' },
      sale: { op: sale, body: 'sale', result: 'sale' },
    },
  });
  return [insert, get, list, remove, inventory, sale, batch];
}
