// Resources kept under one account without a merchant in the path: labels, return carriers, uploaded credentials.
import type { Catalog } from '../catalog.ts';
import type { Operation } from '../layer/operation.ts';
import { defineResource } from '../layer/resource.ts';
import { badRequest, oneOf } from '../wire/rules.ts';
import { WIRE_TYPES } from '../wire/types.ts';
import { readBody } from '../wire/validate.ts';
import { wireBody } from '../schemas/wire.ts';

const LABEL_TYPES = ['MANUAL', 'AUTOMATIC'];
const CARRIER_CODES = ['FEDEX', 'UPS'];
const CREDENTIAL_PURPOSES = ['SHOPIFY_ORDER_MANAGEMENT', 'SHOPIFY_INTEGRATION'];
import type { CatalogStore } from '../store.ts';

/** Removes a deleted label from every account and CSS domain the owner manages. */
async function unassignLabel(store: CatalogStore, ownerId: string, labelId: string, now: number): Promise<void> {
  /** The document without the label (and without `labelIds` once none is left); undefined when it had none. */
  const drop = (doc: Record<string, any>) => {
    if (!Array.isArray(doc.labelIds) || !doc.labelIds.includes(labelId)) return undefined;
    const { labelIds, ...rest } = doc;
    const kept = (labelIds as string[]).filter((id) => id !== labelId);
    return kept.length > 0 ? { ...rest, labelIds: kept } : rest;
  };
  for (const id of [ownerId, ...(await store.allSubAccountIds(ownerId))]) {
    const a = await store.account(id);
    const doc = a && drop(a.doc);
    if (a && doc) await store.saveAccount({ ...a, doc, updatedAt: now });
  }
  for (const css of (await store.resources(ownerId, 'csses', { limit: 100_000 })).items) {
    const doc = drop(css.doc);
    if (doc) await store.putResource(ownerId, 'csses', css.id, doc, now);
  }
}

export function accountExtraOperations(): Operation[] {
  const labels = defineResource(
    {
      name: 'accounts.labels',
      base: '/accounts/{accountId}/labels',
      scope: 'account',
      idParam: 'labelId',
      idField: 'labelId',
      wire: 'AccountLabel',
      methods: ['create', 'list', 'patch', 'delete'],
      id: { from: 'generated' },
      required: ['name'],
      maxLengths: { name: 50, description: 500 },
      list: { field: 'accountLabels', paging: 'pageSize' },
      docs: { rules: { name: { description: 'Name of the label, unique in the account.' }, labelType: { enum: LABEL_TYPES, description: 'MANUAL unless given.' }, accountId: { description: 'Output only: the owning account.' } } },
      async derive(doc, w) {
        doc.accountId = w.merchantId;
        doc.labelType ??= 'MANUAL';
        oneOf(doc.labelType, LABEL_TYPES, 'accountLabel.labelType');
        const others = (await w.store.resources(w.merchantId, 'accounts.labels', { limit: 100_000 })).items;
        if (others.some((l) => l.id !== doc.labelId && l.doc.name === doc.name)) throw badRequest(`A label named ${JSON.stringify(doc.name)} already exists in account ${w.merchantId}.`, 'duplicate');
      },
      async remove(existing, w) {
        await w.store.deleteResource(w.merchantId, 'accounts.labels', existing.labelId);
        await unassignLabel(w.store, w.merchantId, existing.labelId, w.now);
        return undefined;
      },
    },
    WIRE_TYPES,
  );

  const carriers = defineResource(
    {
      name: 'accounts.returncarrier',
      base: '/accounts/{accountId}/returncarrier',
      scope: 'account',
      idParam: 'carrierAccountId',
      idField: 'carrierAccountId',
      wire: 'AccountReturnCarrier',
      methods: ['create', 'list', 'patch', 'delete'],
      id: { from: 'generated' },
      required: ['carrierCode', 'carrierAccountName', 'carrierAccountNumber'],
      maxLengths: { carrierAccountName: 100, carrierAccountNumber: 64 },
      list: { field: 'accountReturnCarriers', paging: 'none' },
      docs: { rules: { carrierCode: { enum: CARRIER_CODES, description: 'The carrier.' } } },
      validate(doc) {
        oneOf(doc.carrierCode, CARRIER_CODES, 'accountReturnCarrier.carrierCode');
      },
    },
    WIRE_TYPES,
  );

  const credentials: Operation = {
    method: 'accounts.credentials.create',
    verb: 'POST',
    path: '/accounts/{accountId}/credentials',
    scope: 'account',
    request: {
      body: wireBody('AccountCredentials', {
        rules: {
          accessToken: { description: 'The token; stored encrypted and never returned.' },
          purpose: { enum: CREDENTIAL_PURPOSES, description: 'What the credentials are for.' },
          expiresIn: { description: 'Seconds until the token expires (a positive integer).' },
        },
        required: ['accessToken', 'purpose'],
      }),
    },
    async run(cat: Catalog, call) {
      const body = readBody(call.body, 'AccountCredentials', 'accountCredentials', ['accessToken', 'purpose'], 'accountCredentials.');
      oneOf(body.purpose, CREDENTIAL_PURPOSES, 'accountCredentials.purpose');
      const expiresIn = body.expiresIn === undefined ? undefined : Number(body.expiresIn);
      if (expiresIn !== undefined && (!Number.isSafeInteger(expiresIn) || expiresIn <= 0)) throw badRequest('accountCredentials.expiresIn must be a positive number of seconds.');
      const now = cat.now();
      // The token is a credential: only its sealed form is stored.
      const sealed = cat.ctx.vault.encrypt(body.accessToken, `catalog-credentials:${call.account.id}:${body.purpose}`);
      const doc = { purpose: body.purpose, expiresAt: expiresIn === undefined ? null : now + expiresIn * 1000, sealed };
      await cat.write((s) => s.putResource(call.account.id, 'credentials', body.purpose, doc, now));
      const out: Record<string, unknown> = { purpose: body.purpose };
      if (body.expiresIn !== undefined) out.expiresIn = String(body.expiresIn);
      return out;
    },
  };

  return [...labels, ...carriers, credentials];
}
