// Read-only derived resources of collections, plus CSS domains (the sub-accounts of a CSS group) and their labels.
import { notFound } from '../../../core/google/index.ts';
import { requireAccount } from '../access.ts';
import type { Catalog } from '../catalog.ts';
import type { Call, Operation } from '../layer/operation.ts';
import { listAnswer, pageArray, pageRequest } from '../layer/paging.ts';
import { collectionStatus } from '../rules/collection-status.ts';
import type { ResourceRow } from '../store.ts';
import { badRequest, numericId } from '../wire/rules.ts';
import { bodyObject, checkWire } from '../wire/validate.ts';
import { PAGE_SIZE_PAGING } from '../schemas/common.ts';
import { wireBody } from '../schemas/wire.ts';

async function statusOfCollection(cat: Catalog, merchantId: string, row: ResourceRow) {
  const offerIds = (row.doc.featuredProduct ?? []).map((f: { offerId: string }) => f.offerId);
  const known = new Set((await cat.store.productsByOffer(merchantId, offerIds)).map((p) => p.offerId));
  return collectionStatus(row.doc, known, row);
}

async function presentCss(cat: Catalog, groupId: string, account: { id: string; name: string; doc: Record<string, any> }) {
  const stored = await cat.store.resource(groupId, 'csses', account.id);
  const css: Record<string, unknown> = { cssGroupId: groupId, cssDomainId: account.id, displayName: account.name, fullName: account.name };
  if (account.doc.websiteUrl) css.homepageUri = account.doc.websiteUrl;
  if (stored?.doc.labelIds?.length) css.labelIds = stored.doc.labelIds;
  return css;
}

/** csses.* take `cssGroupId` in place of a merchant: the caller must reach the group, and a domain must belong to it. */
async function cssDomain(cat: Catalog, call: Call) {
  const groupId = numericId(call.params.cssGroupId, 'cssGroupId');
  await requireAccount(cat.store, call.caller, groupId);
  const domainId = numericId(call.params.cssDomainId, 'cssDomainId');
  const domain = await cat.store.account(domainId);
  if (!domain || domain.aggregatorId !== groupId) throw notFound(`CSS domain ${domainId} not found in group ${groupId}.`);
  return { groupId, domain };
}

export function statusOperations(): Operation[] {
  return [
    {
      method: 'collectionstatuses.get',
      verb: 'GET',
      path: '/{merchantId}/collectionstatuses/{collectionId}',
      scope: 'merchant',
      async run(cat, call) {
        const row = await cat.store.resource(call.merchant.id, 'collections', call.params.collectionId);
        if (!row) throw notFound(`Collection ${call.params.collectionId} not found in merchant.`);
        return statusOfCollection(cat, call.merchant.id, row);
      },
    },
    {
      method: 'collectionstatuses.list',
      verb: 'GET',
      path: '/{merchantId}/collectionstatuses',
      scope: 'merchant',
      request: { query: PAGE_SIZE_PAGING },
      async run(cat, call) {
        const req = pageRequest(call.query, 'pageSize', `collectionstatuses:${call.merchant.id}`);
        const page = await cat.store.resources(call.merchant.id, 'collections', { after: req.after, limit: req.limit });
        const items = await Promise.all(page.items.map((r) => statusOfCollection(cat, call.merchant.id, r)));
        return listAnswer('resources', items, req.token(page));
      },
    },
    {
      method: 'csses.list',
      verb: 'GET',
      path: '/{cssGroupId}/csses',
      scope: 'caller',
      request: { query: PAGE_SIZE_PAGING },
      async run(cat, call) {
        const groupId = numericId(call.params.cssGroupId, 'cssGroupId');
        await requireAccount(cat.store, call.caller, groupId);
        const req = pageRequest(call.query, 'pageSize', `csses:${groupId}`);
        const ids = await cat.store.allSubAccountIds(groupId);
        const page = pageArray(ids, (id) => id, req);
        const items = [];
        for (const id of page.items) items.push(await presentCss(cat, groupId, (await cat.store.account(id))!));
        await cat.quota.charge(groupId, 'csses.list');
        return listAnswer('csses', items, req.token(page));
      },
    },
    {
      method: 'csses.get',
      verb: 'GET',
      path: '/{cssGroupId}/csses/{cssDomainId}',
      scope: 'caller',
      async run(cat, call) {
        const { groupId, domain } = await cssDomain(cat, call);
        await cat.quota.charge(groupId, 'csses.get');
        return presentCss(cat, groupId, domain);
      },
    },
    {
      method: 'csses.updatelabels',
      verb: 'POST',
      path: '/{cssGroupId}/csses/{cssDomainId}/updatelabels',
      scope: 'caller',
      request: { body: wireBody('LabelIds', { rules: { labelIds: { description: 'The labels the domain carries from now on; each must exist in the CSS group.' } } }) },
      async run(cat, call) {
        const { groupId, domain } = await cssDomain(cat, call);
        const body = checkWire<{ labelIds?: string[] }>(bodyObject(call.body), 'LabelIds', 'labelIds');
        const labelIds = [...new Set(body.labelIds ?? [])];
        await cat.quota.charge(groupId, 'csses.updatelabels');
        await cat.write(async (s) => {
          for (const id of labelIds) if (!(await s.resource(groupId, 'accounts.labels', id))) throw badRequest(`Label ${id} does not exist in CSS group ${groupId}.`);
          await s.putResource(groupId, 'csses', domain.id, { labelIds }, cat.now());
        });
        return presentCss(cat, groupId, (await cat.store.account(domain.id))!);
      },
    },
  ];
}
