// Product writes shared by the API and feed ingestion: the REST id, normalisation, the derived status stored beside
// the product, and the status-change notification when a merchant registered for it.
import type { Kysely } from 'kysely';
import { GoogleError, notFound } from '../../core/google/index.ts';
import type { Catalog } from './catalog.ts';
import { productIssues, productStatus, type Product } from './domain/product-rules.ts';
import { feedLabelRule, labelAndCountry, sameLabelAndCountry } from './feed-label.ts';
import { notifyStatusChange } from './notifications.ts';
import { checkDestinations } from './rules/destinations.ts';
import type { CatalogStore, ProductRow } from './store.ts';
import { badRequest, language, maxLength, oneOf, requireValue } from './wire/rules.ts';

export const PRODUCT_KIND = 'content#product';
export const OFFER_ID_MAX = 50;

/** `channel:contentLanguage:feedLabel:offerId` (the label equals the target country when both are set); the offer id may itself contain colons. */
export function restIdOf(p: Product): string {
  return `${p.channel}:${p.contentLanguage}:${p.feedLabel ?? p.targetCountry}:${p.offerId}`;
}

export function parseRestId(id: string): { channel: string; contentLanguage: string; label: string; offerId: string } | undefined {
  const m = /^(online|local):([^:]+):([^:]+):(.+)$/.exec(id);
  return m ? { channel: m[1], contentLanguage: m[2], label: m[3], offerId: m[4] } : undefined;
}

/** Unknown product ids answer Content API's own 404. */
export const itemNotFound = () => notFound('item not found');

/** Checks the identifying attributes of an uploaded product and normalises them (whitespace in offerId). */
export function normaliseProduct(input: Product): Product {
  const p: Product = { ...input };
  delete p.kind;
  delete p.id;
  if (typeof p.offerId === 'string') p.offerId = p.offerId.trim().replace(/\s+/g, ' ');
  requireValue(p.offerId, 'product.offerId');
  maxLength(p.offerId, OFFER_ID_MAX, 'product.offerId');
  requireValue(p.channel, 'product.channel');
  oneOf(p.channel, ['online', 'local'], 'product.channel');
  language(p.contentLanguage, 'product.contentLanguage', true);
  if (p.targetCountry === undefined && p.feedLabel === undefined) throw badRequest('Required field missing: product.feedLabel (or product.targetCountry)', 'required');
  if (p.targetCountry !== undefined && !/^[A-Z]{2}$/.test(p.targetCountry ?? '')) throw badRequest(`Invalid country code for product.targetCountry: ${JSON.stringify(p.targetCountry)}.`);
  feedLabelRule(p.feedLabel, 'product.feedLabel');
  checkDestinations(p.includedDestinations, 'product.includedDestinations');
  checkDestinations(p.excludedDestinations, 'product.excludedDestinations');
  // Compared as sent: a feed label "UK" goes with a target country "UK".
  sameLabelAndCountry(p.feedLabel ?? undefined, p.targetCountry ?? undefined, 'product.feedLabel', 'product.targetCountry');
  // Content API takes UK as a target country and stores it as GB, the CLDR code; a feed label is kept as sent.
  if (p.targetCountry === 'UK') p.targetCountry = 'GB';
  const { feedLabel, country } = labelAndCountry(p.feedLabel ?? undefined, p.targetCountry ?? undefined);
  p.feedLabel = feedLabel;
  if (country !== undefined) p.targetCountry = country;
  return p;
}

/**
 * The `feedId` a product write names, or null without one. It must be a datafeed (primary or supplemental) of the
 * merchant: the request is then invalid, not the product missing, so the answer is 400 naming the parameter.
 */
export async function datafeedOf(store: CatalogStore, merchantId: string, feedId: unknown): Promise<string | null> {
  if (feedId === undefined) return null;
  const id = String(feedId);
  if (await store.resource(merchantId, 'datafeeds', id)) return id;
  throw new GoogleError(400, `Invalid value for feedId: ${JSON.stringify(id)} (merchant ${merchantId} has no datafeed with this id).`, { reason: 'invalid', location: 'feedId', locationType: 'parameter' });
}

export interface SaveOptions {
  feedId?: string | null;
  source?: string;
  now: number;
}

/** Stores a product (insert is an upsert keyed by the REST id) and its freshly derived status. */
export async function saveProduct(cat: Catalog, store: CatalogStore, tx: Kysely<any>, merchantId: string, input: Product, options: SaveOptions): Promise<Product> {
  const id = restIdOf(input);
  const existing = await store.product(merchantId, id);
  const doc: Product = { kind: PRODUCT_KIND, id, ...input, source: options.source ?? input.source ?? 'api' };
  const createdAt = existing?.createdAt ?? options.now;
  const localStores = existing?.localStores ?? 0;
  const status = withInventory(derivedStatus(doc, createdAt, options.now, options.now), doc, localStores);
  const row: ProductRow = {
    merchantId,
    id,
    offerId: doc.offerId!,
    channel: doc.channel!,
    contentLanguage: doc.contentLanguage!,
    feedLabel: doc.feedLabel ?? doc.targetCountry!,
    feedId: options.feedId ?? existing?.feedId ?? null,
    doc: doc as Record<string, unknown>,
    status,
    approved: !(status.destinationStatuses ?? []).some((d: { status?: string }) => d.status === 'disapproved'),
    localStores,
    createdAt,
    updatedAt: options.now,
  };
  await store.saveProduct(row);
  await notifyStatusChange(cat, store, tx, merchantId, id, existing?.status, status);
  return doc;
}

export async function deleteProduct(cat: Catalog, store: CatalogStore, tx: Kysely<any>, merchantId: string, id: string): Promise<void> {
  const existing = await store.product(merchantId, id);
  if (!existing) throw itemNotFound();
  await store.deleteProduct(merchantId, id);
  await store.deleteResource(merchantId, 'localinventory', id);
  await store.deleteResource(merchantId, 'regionalinventory', id);
  await notifyStatusChange(cat, store, tx, merchantId, id, existing.status, undefined);
}

export function derivedStatus(product: Product, createdAt: number, updatedAt: number, now: number, destinations?: string[]): Record<string, any> {
  const issues = productIssues(product, { now });
  return productStatus(product, issues, { now, createdAt, updatedAt, destinations }) as Record<string, any>;
}

/** The status as read now (time-dependent rules re-run, `destinations` applied, local inventory considered). */
export function statusOf(row: ProductRow, now: number, destinations?: string[]): Record<string, any> {
  return withInventory(derivedStatus(row.doc as Product, row.createdAt, row.updatedAt, now, destinations), row.doc as Product, row.localStores);
}

const LOCAL_DESTINATIONS = new Set(['LocalInventoryAds', 'LocalSurfacesAcrossGoogle']);

/**
 * A local product serves on local destinations only where a store has it in stock: until local inventory (or POS
 * data) says so, the countries it would be approved in are pending, with an issue saying why.
 */
export function withInventory(status: Record<string, any>, product: Product, localStores: number): Record<string, any> {
  if (product.channel !== 'local' || localStores > 0) return status;
  let affected = false;
  const destinationStatuses = (status.destinationStatuses ?? []).map((d: Record<string, any>) => {
    if (!LOCAL_DESTINATIONS.has(d.destination) || d.approvedCountries.length === 0) return d;
    affected = true;
    return { ...d, status: d.disapprovedCountries.length > 0 ? d.status : 'pending', approvedCountries: [], pendingCountries: [...d.pendingCountries, ...d.approvedCountries] };
  });
  if (!affected) return status;
  const countries = [...new Set(destinationStatuses.filter((d: Record<string, any>) => LOCAL_DESTINATIONS.has(d.destination)).flatMap((d: Record<string, any>) => d.pendingCountries))];
  const issues = destinationStatuses
    .filter((d: Record<string, any>) => LOCAL_DESTINATIONS.has(d.destination) && d.status === 'pending')
    .map((d: Record<string, any>) => ({
      code: 'missing_local_inventory',
      servability: 'unaffected',
      resolution: 'merchant_action',
      attributeName: 'local inventory',
      description: 'Missing local inventory data',
      detail: 'Submit local inventory (or POS inventory) for at least one store that has the item in stock',
      documentation: 'https://support.google.com/merchants/answer/3061342',
      applicableCountries: countries,
      destination: d.destination,
    }));
  return { ...status, destinationStatuses, itemLevelIssues: [...(status.itemLevelIssues ?? []), ...issues] };
}

/** Records how many stores have the product in stock and re-derives its stored status (notifying a change). */
export async function setLocalStores(cat: Catalog, store: CatalogStore, tx: Kysely<any>, merchantId: string, id: string, localStores: number, now: number): Promise<void> {
  const row = await store.product(merchantId, id);
  if (!row || row.localStores === localStores) return;
  const status = withInventory(derivedStatus(row.doc as Product, row.createdAt, row.updatedAt, now), row.doc as Product, localStores);
  await store.saveProduct({ ...row, localStores, status });
  await notifyStatusChange(cat, store, tx, merchantId, id, row.status, status);
}
