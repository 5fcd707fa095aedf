// Declarative plain resources: a name, its id, its wire type, its methods and rules become operations (and a
// custombatch when asked), stored in the generic (merchant, resource, id) table. Special behaviour goes in hooks.
import type { Kysely } from 'kysely';
import { GoogleError, notFound } from '../../../core/google/index.ts';
import { own } from '../../../core/own.ts';
import type { Catalog } from '../catalog.ts';
import type { CatalogStore } from '../store.ts';
import { randomNumericId } from '../ids.ts';
import { checkWire, bodyObject } from '../wire/validate.ts';
import { badRequest, maxLength, requireValue } from '../wire/rules.ts';
import { batchOperation, batchWireOf, type BatchSpec } from './batch.ts';
import type { Call, Operation, Verb } from './operation.ts';
import { resourceRequests, type ResourceDocs } from '../schemas/resource.ts';
import { listAnswer, pageRequest, type Paging } from './paging.ts';

export type MethodName = 'insert' | 'create' | 'get' | 'list' | 'update' | 'patch' | 'delete';

export interface WriteContext {
  cat: Catalog;
  call: Call;
  store: CatalogStore;
  tx: Kysely<any>;
  merchantId: string;
  now: number;
}

export interface ResourceSpec {
  /** Method prefix and stored resource name, e.g. `regions`. */
  name: string;
  /** URL segment after `{merchantId}/` (default: name). */
  collection?: string;
  /** Full collection path when it is not `/{merchantId}/<collection>` (e.g. `/accounts/{accountId}/labels`). */
  base?: string;
  /** Access rule (default `merchant`; `account` for paths keyed by `accountId` alone). */
  scope?: 'merchant' | 'account';
  /** Path parameter naming one resource. */
  idParam: string;
  /** Field of the document holding its id. */
  idField: string;
  /** Wire type the body must match. */
  wire: string;
  kind?: string;
  methods: MethodName[];
  /** Where a new resource's id comes from. */
  id: { from: 'body' } | { from: 'query'; param: string } | { from: 'generated' };
  /** For ids `from: 'body'` that are not a plain field: derives the id from the (required-checked) body. */
  computeId?(doc: Record<string, any>): string;
  /** Create refuses an id in use (409); otherwise insert replaces it. */
  unique?: boolean;
  list?: { field: string; kind?: string; paging?: Paging; filter?(doc: Record<string, any>, query: Record<string, unknown>): boolean };
  /** Longest value of string fields, by field path (`label`, `address.city`). */
  maxLengths?: Record<string, number>;
  /** Fields a new document must carry. */
  required?: string[];
  /** Semantic checks of a complete document (after defaults and merges). */
  validate?(doc: Record<string, any>, call: Call): void;
  /** Fills output-only fields when stored (defaults, derived state). */
  derive?(doc: Record<string, any>, w: WriteContext): Promise<void> | void;
  /** Extra work in the same unit after a write or delete (derived rows, jobs). */
  afterWrite?(doc: Record<string, any> | undefined, w: WriteContext): Promise<void>;
  /** Custom delete (archive instead of removing). Returns the answer; default removes the row. */
  remove?(existing: Record<string, any>, w: WriteContext): Promise<unknown>;
  /** Rows hidden from get and list unless `include(query)` says otherwise. */
  state?: { of(doc: Record<string, any>): string | null; visible(state: string | null, query: Record<string, unknown>, method: MethodName): boolean };
  /** Shapes the stored document for output. */
  present?(doc: Record<string, any>, cat: Catalog): Record<string, any>;
  /** A custombatch at `/<name>/batch`, with the wire and kind names Content API derives from the resource name. */
  batch?: { body: string; methods: MethodName[]; result?: string };
  /** What the OpenAPI document says beyond the wire type, required fields and lengths (documentation only). */
  docs?: ResourceDocs;
}

const VERBS: Record<MethodName, Verb> = { insert: 'POST', create: 'POST', get: 'GET', list: 'GET', update: 'PUT', patch: 'PATCH', delete: 'DELETE' };

/** The value at a dotted path, through own fields only: a path may come from a request's `updateMask`. */
function valueAt(doc: Record<string, any>, path: string): unknown {
  return path.split('.').reduce<any>((v, k) => (v !== null && typeof v === 'object' ? own(v, k) : undefined), doc);
}

export function checkLengths(doc: Record<string, any>, limits: Record<string, number> | undefined, root: string): void {
  for (const [path, max] of Object.entries(limits ?? {})) {
    const v = valueAt(doc, path);
    if (Array.isArray(v)) v.forEach((item, i) => maxLength(item, max, `${root}.${path}[${i}]`));
    else maxLength(v, max, `${root}.${path}`);
  }
}

export function checkRequired(doc: Record<string, any>, fields: string[] | undefined, root: string): void {
  for (const f of fields ?? []) requireValue(valueAt(doc, f), `${root}.${f}`);
}

/** Applies a PATCH body: fields named in `updateMask` are replaced or removed; without a mask, present fields win. */
export function applyPatch(existing: Record<string, any>, patch: Record<string, any>, mask: unknown, root: string, allowed: Record<string, string>): Record<string, any> {
  const merged = { ...existing };
  if (typeof mask === 'string' && mask.trim() !== '') {
    for (const raw of mask.split(',')) {
      const field = raw.trim();
      const top = field.split('.')[0];
      if (!Object.hasOwn(allowed, top)) throw badRequest(`Invalid field in updateMask: ${JSON.stringify(field)} is not a field of ${root}.`);
      if (field.includes('.')) {
        const [head, ...rest] = field.split('.');
        const sub = { ...(merged[head] ?? {}) };
        const v = valueAt(patch, field);
        if (v === undefined) delete sub[rest.join('.')];
        else sub[rest.join('.')] = v;
        merged[head] = sub;
      } else if (patch[top] === undefined) delete merged[top];
      else merged[top] = patch[top];
    }
    return merged;
  }
  return { ...merged, ...patch };
}

export function defineResource(spec: ResourceSpec, wireTypes: Record<string, Record<string, string>>): Operation[] {
  const collection = spec.collection ?? spec.name;
  const base = spec.base ?? `/{merchantId}/${collection}`;
  const one = `${base}/{${spec.idParam}}`;
  const root = spec.wire.charAt(0).toLowerCase() + spec.wire.slice(1);
  const present = (doc: Record<string, any>, cat: Catalog) => {
    const out = spec.kind ? { kind: spec.kind, ...doc } : { ...doc };
    return spec.present ? spec.present(out, cat) : out;
  };
  const idOf = (call: Call) => {
    const id = call.params[spec.idParam];
    if (id === undefined || id === '') throw new GoogleError(400, `Required parameter: ${spec.idParam}`, { reason: 'required', location: spec.idParam, locationType: 'parameter' });
    return id;
  };
  const visible = (state: string | null, query: Record<string, unknown>, method: MethodName) => !spec.state || spec.state.visible(state, query, method);
  const notFoundOf = (id: string) => notFound(`${spec.wire} ${id} not found in merchant.`);

  const store = async (w: WriteContext, doc: Record<string, any>) => {
    await spec.derive?.(doc, w);
    spec.validate?.(doc, w.call);
    const id = String(doc[spec.idField]);
    await w.store.putResource(w.merchantId, spec.name, id, doc, w.now, spec.state?.of(doc) ?? null);
    await spec.afterWrite?.(doc, w);
    return doc;
  };
  const inUnit = <T>(cat: Catalog, call: Call, fn: (w: WriteContext) => Promise<T>) =>
    cat.write((s, tx) => fn({ cat, call, store: s, tx, merchantId: call.merchant.id, now: cat.now() }));

  const ops: Partial<Record<MethodName, Operation>> = {};
  const requests = resourceRequests(spec);
  const op = (name: MethodName, path: string, run: Operation['run']): Operation => ({ method: `${spec.name}.${name}`, verb: VERBS[name], path, scope: spec.scope ?? 'merchant', request: requests[name], run });

  for (const m of spec.methods) {
    if (m === 'get') {
      ops.get = op('get', one, async (cat, call) => {
        const id = idOf(call);
        const row = await cat.store.resource(call.merchant.id, spec.name, id);
        if (!row || !visible(row.state, call.query, 'get')) throw notFoundOf(id);
        return present(row.doc, cat);
      });
    } else if (m === 'list') {
      const list = spec.list ?? { field: 'resources' };
      ops.list = op('list', base, async (cat, call) => {
        const req = pageRequest(call.query, list.paging ?? 'maxResults', `${spec.name}:${call.merchant.id}`);
        // Filters and hidden states are applied after paging by id, so a page may come back short (allowed).
        const page = await cat.store.resources(call.merchant.id, spec.name, { after: req.after, limit: req.limit });
        const items = page.items.filter((r) => visible(r.state, call.query, 'list') && (!list.filter || list.filter(r.doc, call.query))).map((r) => present(r.doc, cat));
        return listAnswer(list.field, items, req.token(page), list.kind);
      });
    } else if (m === 'insert' || m === 'create') {
      ops[m] = op(m, base, async (cat, call) => {
        const doc: Record<string, any> = checkWire(bodyObject(call.body), spec.wire, root);
        delete doc.kind;
        if (spec.id.from === 'generated') doc[spec.idField] = randomNumericId();
        else if (spec.id.from === 'query') {
          const id = call.query[spec.id.param];
          requireValue(id, spec.id.param);
          if (doc[spec.idField] !== undefined && doc[spec.idField] !== id) throw badRequest(`${spec.idField} in the body does not match the ${spec.id.param} parameter.`);
          doc[spec.idField] = String(id);
        }
        checkRequired(doc, spec.required, root);
        if (spec.id.from === 'body') {
          if (spec.computeId) doc[spec.idField] = spec.computeId(doc);
          requireValue(doc[spec.idField], `${root}.${spec.idField}`);
        }
        checkLengths(doc, spec.maxLengths, root);
        const saved = await inUnit(cat, call, async (w) => {
          const existing = await w.store.resource(w.merchantId, spec.name, String(doc[spec.idField]));
          if (existing && spec.unique) throw new GoogleError(409, `${spec.wire} ${doc[spec.idField]} already exists.`, { reason: 'duplicate', rpcStatus: 'ALREADY_EXISTS' });
          return store(w, doc);
        });
        return present(saved, cat);
      });
    } else if (m === 'update' || m === 'patch') {
      ops[m] = op(m, one, async (cat, call) => {
        const id = idOf(call);
        const body: Record<string, any> = checkWire(bodyObject(call.body), spec.wire, root);
        delete body.kind;
        if (body[spec.idField] !== undefined && String(body[spec.idField]) !== id) throw badRequest(`${spec.idField} cannot be changed.`);
        checkLengths(body, spec.maxLengths, root);
        const saved = await inUnit(cat, call, async (w) => {
          const existing = await w.store.resource(w.merchantId, spec.name, id);
          if (!existing || !visible(existing.state, call.query, m)) throw notFoundOf(id);
          const doc = m === 'patch' ? applyPatch(existing.doc, body, call.query.updateMask, root, wireTypes[spec.wire]) : { ...body };
          doc[spec.idField] = existing.doc[spec.idField];
          checkRequired(doc, spec.required, root);
          return store(w, doc);
        });
        return present(saved, cat);
      });
    } else if (m === 'delete') {
      ops.delete = op('delete', one, async (cat, call) => {
        const id = idOf(call);
        return inUnit(cat, call, async (w) => {
          const existing = await w.store.resource(w.merchantId, spec.name, id);
          if (!existing || !visible(existing.state, call.query, 'delete')) throw notFoundOf(id);
          if (spec.remove) return spec.remove(existing.doc, w);
          await w.store.deleteResource(w.merchantId, spec.name, id);
          await spec.afterWrite?.(undefined, w);
          return undefined;
        });
      });
    }
  }
  const all = Object.values(ops) as Operation[];
  if (spec.batch) {
    const b = spec.batch;
    const methods: BatchSpec['methods'] = {};
    for (const name of b.methods) {
      const target = ops[name];
      if (!target) throw new Error(`${spec.name}: batch method ${name} has no operation`);
      methods[name] = { op: target, body: name === 'insert' || name === 'update' || name === 'create' ? b.body : undefined, result: name === 'delete' ? undefined : (b.result ?? b.body) };
    }
    all.push(
      batchOperation({
        path: `/${spec.name}/batch`,
        wire: batchWireOf(spec.name),
        kind: `content#${spec.name}CustomBatchResponse`,
        entryKind: `content#${spec.name}CustomBatchResponseEntry`,
        method: `${spec.name}.custombatch`,
        params: ['merchantId', spec.idParam],
        methods,
      }),
    );
  }
  return all;
}
