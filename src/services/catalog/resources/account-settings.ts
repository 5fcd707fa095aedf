// Settings kept once per account and reached as `{merchantId}/<name>/{accountId}`: get, update (PUT), list over the
// MCA's sub-accounts, and custombatch. An account that never stored its settings reads the defaults.
import { requireMca } from '../access.ts';
import type { Catalog } from '../catalog.ts';
import { batchOperation, batchWireOf, type BatchMethod } from '../layer/batch.ts';
import type { Call, Operation } from '../layer/operation.ts';
import { listAnswer, pageRequest } from '../layer/paging.ts';
import type { CatalogStore } from '../store.ts';
import { badRequest } from '../wire/rules.ts';
import { bodyObject, checkWire } from '../wire/validate.ts';
import { MAX_RESULTS_PAGING } from '../schemas/common.ts';
import { wireBody, type FieldRules } from '../schemas/wire.ts';

export interface AccountSettingSpec {
  name: string;
  wire: string;
  kind?: string;
  /** Entry field of batch requests and answers (e.g. `accountTax`). */
  field: string;
  defaults(accountId: string): Record<string, any>;
  validate(doc: Record<string, any>): void;
  /** Additional batch methods (liasettings has its actions). */
  extraBatch?: (ops: { get: Operation; update: Operation }) => Record<string, BatchMethod>;
  /** Rules `validate` enforces, for the OpenAPI document (by field path). */
  docs?: FieldRules;
}

export async function readSetting(store: CatalogStore, spec: Pick<AccountSettingSpec, 'name' | 'defaults'>, accountId: string): Promise<Record<string, any>> {
  const row = await store.resource(accountId, spec.name, accountId);
  return row ? row.doc : spec.defaults(accountId);
}

export async function writeSetting(cat: Catalog, spec: Pick<AccountSettingSpec, 'name' | 'defaults'>, accountId: string, change: (doc: Record<string, any>) => Record<string, any> | Promise<Record<string, any>>): Promise<Record<string, any>> {
  return cat.write(async (s) => {
    const next = await change(await readSetting(s, spec, accountId));
    await s.putResource(accountId, spec.name, accountId, next, cat.now());
    return next;
  });
}

export function defineAccountSetting(spec: AccountSettingSpec): Operation[] {
  const present = (doc: Record<string, any>, accountId: string) => ({ ...(spec.kind ? { kind: spec.kind } : {}), ...doc, accountId });
  const root = spec.field;
  const get: Operation = {
    method: `${spec.name}.get`,
    verb: 'GET',
    path: `/{merchantId}/${spec.name}/{accountId}`,
    scope: 'managed',
    run: async (cat, call) => present(await readSetting(cat.store, spec, call.account.id), call.account.id),
  };
  const update: Operation = {
    method: `${spec.name}.update`,
    verb: 'PUT',
    path: `/{merchantId}/${spec.name}/{accountId}`,
    scope: 'managed',
    request: { body: wireBody(spec.wire, { rules: { accountId: { description: 'Must equal the accountId parameter when present.' }, ...spec.docs } }) },
    async run(cat, call: Call) {
      const doc = checkWire<Record<string, any>>(bodyObject(call.body), spec.wire, root);
      delete doc.kind;
      if (doc.accountId !== undefined && String(doc.accountId) !== call.account.id) throw badRequest(`${root}.accountId does not match the accountId parameter.`);
      delete doc.accountId;
      spec.validate(doc);
      await cat.write((s) => s.putResource(call.account.id, spec.name, call.account.id, doc, cat.now()));
      return present(doc, call.account.id);
    },
  };
  const list: Operation = {
    method: `${spec.name}.list`,
    verb: 'GET',
    path: `/{merchantId}/${spec.name}`,
    scope: 'merchant',
    request: { query: MAX_RESULTS_PAGING },
    async run(cat, call) {
      requireMca(call.merchant);
      const req = pageRequest(call.query, 'maxResults', `${spec.name}:${call.merchant.id}`);
      const page = await cat.store.subAccounts(call.merchant.id, req.after, req.limit);
      const items = await Promise.all(page.items.map(async (a) => present(await readSetting(cat.store, spec, a.id), a.id)));
      return listAnswer('resources', items, req.token(page), `content#${spec.name}ListResponse`);
    },
  };
  const batch = batchOperation({
    path: `/${spec.name}/batch`,
    method: `${spec.name}.custombatch`,
    wire: batchWireOf(spec.name),
    kind: `content#${spec.name}CustomBatchResponse`,
    entryKind: `content#${spec.name}CustomBatchResponseEntry`,
    params: ['merchantId', 'accountId'],
    methods: { get: { op: get, result: spec.field }, update: { op: update, body: spec.field, result: spec.field }, ...(spec.extraBatch?.({ get, update }) ?? {}) },
  });
  return [get, update, list, batch];
}
