// products.* and productstatuses.*: upsert by REST id, update with updateMask, paged lists, derived statuses.
import type { Catalog } from '../catalog.ts';
import type { Product } from '../domain/product-rules.ts';
import { batchOperation } from '../layer/batch.ts';
import type { Call, Operation } from '../layer/operation.ts';
import { listAnswer, pageRequest } from '../layer/paging.ts';
import { applyPatch } from '../layer/resource.ts';
import { datafeedOf, deleteProduct, itemNotFound, normaliseProduct, parseRestId, saveProduct, statusOf } from '../products.ts';
import { destinationsParameter } from '../rules/destinations.ts';
import { badRequest } from '../wire/rules.ts';
import { WIRE_TYPES } from '../wire/types.ts';
import { bodyObject, checkWire } from '../wire/validate.ts';
import { PRODUCT_DELETE_QUERY, PRODUCT_INSERT_BODY, PRODUCT_INSERT_QUERY, PRODUCT_LIST_QUERY, PRODUCT_STATUS_GET_QUERY, PRODUCT_STATUS_LIST_QUERY, PRODUCT_UPDATE_BODY, PRODUCT_UPDATE_QUERY } from '../schemas/products.ts';

const IDENTITY_FIELDS = ['offerId', 'channel', 'contentLanguage', 'targetCountry', 'feedLabel'] as const;

export function productIdOf(call: Call): string {
  const id = call.params.productId;
  if (!id) throw badRequest('Required parameter: productId', 'required');
  return id;
}

export function productOperations(): Operation[] {
  const get: Operation = {
    method: 'products.get',
    verb: 'GET',
    path: '/{merchantId}/products/{productId}',
    scope: 'merchant',
    async run(cat, call) {
      const row = await cat.store.product(call.merchant.id, productIdOf(call));
      if (!row) throw itemNotFound();
      return row.doc;
    },
  };

  const insert: Operation = {
    method: 'products.insert',
    verb: 'POST',
    path: '/{merchantId}/products',
    scope: 'merchant',
    request: { query: PRODUCT_INSERT_QUERY, body: PRODUCT_INSERT_BODY },
    async run(cat, call) {
      const product = normaliseProduct(checkWire<Product>(bodyObject(call.body), 'Product', 'product'));
      const now = cat.now();
      return cat.write(async (s, tx) => saveProduct(cat, s, tx, call.merchant.id, product, { feedId: await datafeedOf(s, call.merchant.id, call.query.feedId), now }));
    },
  };

  const update: Operation = {
    method: 'products.update',
    verb: 'PATCH',
    path: '/{merchantId}/products/{productId}',
    scope: 'merchant',
    request: { query: PRODUCT_UPDATE_QUERY, body: PRODUCT_UPDATE_BODY },
    async run(cat, call) {
      const id = productIdOf(call);
      if (!parseRestId(id)) throw itemNotFound();
      const patch = checkWire<Record<string, any>>(bodyObject(call.body), 'Product', 'product');
      const mask = call.query.updateMask;
      const masked = typeof mask === 'string' ? mask.split(',').map((f) => f.trim()) : [];
      for (const f of IDENTITY_FIELDS) {
        if (masked.includes(f)) throw badRequest(`${f} identifies the product and cannot be in updateMask.`);
      }
      if (masked.some((f) => f.includes('.'))) throw badRequest('Only top-level product attributes can be named in updateMask.');
      const now = cat.now();
      return cat.write(async (s, tx) => {
        const existing = await s.product(call.merchant.id, id);
        if (!existing) throw itemNotFound();
        for (const f of IDENTITY_FIELDS) {
          if (patch[f] !== undefined && patch[f] !== (existing.doc as Record<string, unknown>)[f]) throw badRequest(`product.${f} identifies the product and cannot be changed.`);
        }
        delete patch.kind;
        delete patch.id;
        const merged = applyPatch(existing.doc, patch, mask, 'product', WIRE_TYPES.Product) as Product;
        delete merged.kind;
        delete merged.id;
        return saveProduct(cat, s, tx, call.merchant.id, normaliseProduct(merged), { now, source: existing.doc.source });
      });
    },
  };

  const remove: Operation = {
    method: 'products.delete',
    verb: 'DELETE',
    path: '/{merchantId}/products/{productId}',
    scope: 'merchant',
    request: { query: PRODUCT_DELETE_QUERY },
    async run(cat, call) {
      const id = productIdOf(call);
      await cat.write(async (s, tx) => {
        await datafeedOf(s, call.merchant.id, call.query.feedId);
        await deleteProduct(cat, s, tx, call.merchant.id, id);
      });
      return undefined;
    },
  };

  const list: Operation = {
    method: 'products.list',
    verb: 'GET',
    path: '/{merchantId}/products',
    scope: 'merchant',
    request: { query: PRODUCT_LIST_QUERY },
    async run(cat, call) {
      const req = pageRequest(call.query, 'maxResults', `products:${call.merchant.id}`);
      const page = await cat.store.products(call.merchant.id, req.after, req.limit);
      return listAnswer('resources', page.items.map((r) => r.doc), req.token(page), 'content#productsListResponse');
    },
  };

  const statusGet: Operation = {
    method: 'productstatuses.get',
    verb: 'GET',
    path: '/{merchantId}/productstatuses/{productId}',
    scope: 'merchant',
    request: { query: PRODUCT_STATUS_GET_QUERY },
    async run(cat: Catalog, call) {
      const row = await cat.store.product(call.merchant.id, productIdOf(call));
      if (!row) throw itemNotFound();
      return statusOf(row, cat.now(), destinationsParameter(call.query));
    },
  };

  const statusList: Operation = {
    method: 'productstatuses.list',
    verb: 'GET',
    path: '/{merchantId}/productstatuses',
    scope: 'merchant',
    request: { query: PRODUCT_STATUS_LIST_QUERY },
    async run(cat, call) {
      const req = pageRequest(call.query, 'maxResults', `productstatuses:${call.merchant.id}`);
      const page = await cat.store.products(call.merchant.id, req.after, req.limit);
      const now = cat.now();
      const destinations = destinationsParameter(call.query);
      return listAnswer('resources', page.items.map((r) => statusOf(r, now, destinations)), req.token(page), 'content#productstatusesListResponse');
    },
  };

  const batch = batchOperation({
    path: '/products/batch',
    method: 'products.custombatch',
    wire: 'ProductsCustomBatchRequest',
    kind: 'content#productsCustomBatchResponse',
    entryKind: 'content#productsCustomBatchResponseEntry',
    params: ['merchantId', 'productId'],
    methods: {
      get: { op: get, result: 'product' },
      insert: { op: insert, body: 'product', result: 'product' },
      update: { op: update, body: 'product', result: 'product' },
      delete: { op: remove },
    },
  });

  const statusBatch = batchOperation({
    path: '/productstatuses/batch',
    method: 'productstatuses.custombatch',
    wire: 'ProductstatusesCustomBatchRequest',
    kind: 'content#productstatusesCustomBatchResponse',
    entryKind: 'content#productstatusesCustomBatchResponseEntry',
    params: ['merchantId', 'productId'],
    methods: { get: { op: statusGet, result: 'productStatus' } },
  });

  return [batch, statusBatch, get, insert, update, remove, list, statusGet, statusList];
}
