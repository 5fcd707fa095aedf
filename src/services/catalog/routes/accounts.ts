// accounts.*: sub-accounts of a multi-client account, authinfo, links seen from both sides, website claims, phone
// verification through an SMS code, and labels assigned by the managing account.
import { GoogleError, notFound } from '../../../core/google/index.ts';
import { requireMca } from '../access.ts';
import type { Catalog } from '../catalog.ts';
import { randomNumericId, verificationCode } from '../ids.ts';
import { batchOperation } from '../layer/batch.ts';
import type { Call, Operation } from '../layer/operation.ts';
import { listAnswer, pageFiltered, pageRequest, type PageRequest } from '../layer/paging.ts';
import type { AccountRow, CatalogStore, Page } from '../store.ts';
import { badRequest, email, httpUrl, maxLength, oneOf, requireValue } from '../wire/rules.ts';
import { bodyObject, checkWire, readBody } from '../wire/validate.ts';
import {
  ACCOUNT_BODY,
  ACCOUNT_DELETE_QUERY,
  ACCOUNT_LIST_QUERY,
  ACCOUNT_NAME_MAX,
  CLAIM_WEBSITE_QUERY,
  LINK_ACTIONS,
  LINK_BODY,
  LINK_TYPES,
  LIST_LINKS_MIN_RESULTS,
  LIST_LINKS_QUERY,
  PHONE_VERIFICATION_METHODS,
  REQUEST_PHONE_VERIFICATION_BODY,
  UPDATE_LABELS_BODY,
  VERIFY_PHONE_NUMBER_BODY,
} from '../schemas/accounts.ts';

const ACCOUNT_KIND = 'content#account';

export function presentAccount(a: AccountRow): Record<string, unknown> {
  return { kind: ACCOUNT_KIND, id: a.id, ...a.doc, name: a.name };
}

/** Validates an Account body; returns the document kept (without id and kind). */
function accountDoc(body: unknown): Record<string, any> {
  const doc: Record<string, any> = checkWire(bodyObject(body), 'Account', 'account');
  delete doc.kind;
  delete doc.id;
  requireValue(doc.name, 'account.name');
  maxLength(doc.name, ACCOUNT_NAME_MAX, 'account.name');
  httpUrl(doc.websiteUrl, 'account.websiteUrl');
  (doc.users ?? []).forEach((u: Record<string, unknown>, i: number) => email(u.emailAddress, `account.users[${i}].emailAddress`, true));
  return doc;
}

function checkBodyId(body: unknown, accountId: string): void {
  const id = (body as { id?: unknown } | undefined)?.id;
  if (id !== undefined && id !== null && String(id) !== accountId) throw badRequest(`account.id ${JSON.stringify(id)} does not match the accountId parameter ${accountId}.`);
}


interface LinkDoc {
  linkedAccountId: string;
  linkType: string;
  /** `outgoing` on the side that asked, `incoming` on the other. */
  direction: 'outgoing' | 'incoming';
  services: Array<{ service: string; status: 'pending' | 'active' }>;
}

async function saveLinkPair(store: CatalogStore, from: string, to: string, doc: Omit<LinkDoc, 'linkedAccountId' | 'direction'>, fromDirection: LinkDoc['direction'], now: number) {
  const mirror: LinkDoc['direction'] = fromDirection === 'outgoing' ? 'incoming' : 'outgoing';
  await store.putResource(from, 'links', to, { ...doc, linkedAccountId: to, direction: fromDirection }, now);
  await store.putResource(to, 'links', from, { ...doc, linkedAccountId: from, direction: mirror }, now);
}

export function accountOperations(): Operation[] {
  const get: Operation = {
    method: 'accounts.get',
    verb: 'GET',
    path: '/{merchantId}/accounts/{accountId}',
    scope: 'managed',
    run: async (_cat, call) => presentAccount(call.account),
  };

  const insert: Operation = {
    method: 'accounts.insert',
    verb: 'POST',
    path: '/{merchantId}/accounts',
    scope: 'merchant',
    request: { body: ACCOUNT_BODY },
    async run(cat, call) {
      requireMca(call.merchant);
      const doc = accountDoc(call.body);
      const now = cat.now();
      const row: AccountRow = { id: randomNumericId(), aggregatorId: call.merchant.id, isMca: false, name: doc.name, doc, createdAt: now, updatedAt: now };
      await cat.write((s) => s.saveAccount(row));
      return presentAccount(row);
    },
  };

  const update: Operation = {
    method: 'accounts.update',
    verb: 'PUT',
    path: '/{merchantId}/accounts/{accountId}',
    scope: 'managed',
    request: { body: ACCOUNT_BODY },
    async run(cat, call) {
      checkBodyId(call.body, call.account.id);
      const doc = accountDoc(call.body);
      // Labels are assigned through updatelabels; a PUT keeps them.
      doc.labelIds = call.account.doc.labelIds;
      if (doc.labelIds === undefined) delete doc.labelIds;
      const row: AccountRow = { ...call.account, name: doc.name, doc, updatedAt: cat.now() };
      await cat.write(async (s) => {
        if (!(await s.account(row.id))) throw notFound(`Account ${row.id} not found.`);
        await s.saveAccount(row);
      });
      return presentAccount(row);
    },
  };

  const remove: Operation = {
    method: 'accounts.delete',
    verb: 'DELETE',
    path: '/{merchantId}/accounts/{accountId}',
    scope: 'managed',
    request: { query: ACCOUNT_DELETE_QUERY },
    async run(cat, call) {
      if (call.account.id === call.merchant.id) throw badRequest('An account cannot delete itself; delete sub-accounts through their multi-client account.');
      const force = call.query.force === true || call.query.force === 'true';
      await cat.write(async (s) => {
        const products = await s.products(call.account.id, undefined, 1);
        if (products.items.length > 0 && !force) {
          throw new GoogleError(400, `Account ${call.account.id} still has products; pass force=true to delete it with them.`, { reason: 'failedPrecondition', rpcStatus: 'FAILED_PRECONDITION' });
        }
        await s.deleteAccount(call.account.id);
      });
      return undefined;
    },
  };

  const list: Operation = {
    method: 'accounts.list',
    verb: 'GET',
    path: '/{merchantId}/accounts',
    scope: 'merchant',
    request: { query: ACCOUNT_LIST_QUERY },
    async run(cat, call) {
      requireMca(call.merchant);
      const req = pageRequest(call.query, 'maxResults', `accounts:${call.merchant.id}`);
      const page = await pageSubAccounts(cat, call.merchant.id, call.query, req);
      return listAnswer('resources', page.items.map(presentAccount), req.token(page), 'content#accountsListResponse');
    },
  };

  const claim: Operation = {
    method: 'accounts.claimwebsite',
    verb: 'POST',
    path: '/{merchantId}/accounts/{accountId}/claimwebsite',
    scope: 'managed',
    request: { query: CLAIM_WEBSITE_QUERY },
    async run(cat, call) {
      await claimWebsite(cat, call.account, call.query.overwrite === true || call.query.overwrite === 'true');
      return { kind: 'content#accountsClaimWebsiteResponse' };
    },
  };

  const link: Operation = {
    method: 'accounts.link',
    verb: 'POST',
    path: '/{merchantId}/accounts/{accountId}/link',
    scope: 'managed',
    request: { body: LINK_BODY },
    async run(cat, call) {
      const body = readBody(call.body, 'AccountsLinkRequest', 'linkRequest', ['action', 'linkedAccountId', 'linkType'], 'linkRequest.');
      oneOf(body.action, LINK_ACTIONS, 'linkRequest.action');
      oneOf(body.linkType, LINK_TYPES, 'linkRequest.linkType');
      const self = call.account.id;
      const other = String(body.linkedAccountId);
      if (other === self) throw badRequest('An account cannot link to itself.');
      const services: string[] = body.services ?? [];
      const now = cat.now();
      await cat.write(async (s) => {
        if (!(await s.account(other))) throw notFound(`Linked account ${other} not found.`);
        const existing = (await s.resource(self, 'links', other))?.doc as LinkDoc | undefined;
        if (body.action === 'request') {
          if (existing) throw new GoogleError(409, `A link between ${self} and ${other} already exists.`, { reason: 'duplicate', rpcStatus: 'ALREADY_EXISTS' });
          await saveLinkPair(s, self, other, { linkType: body.linkType, services: (services.length ? services : ['shoppingAdsProductManagement']).map((service) => ({ service, status: 'pending' })) }, 'outgoing', now);
        } else if (body.action === 'approve') {
          if (!existing || existing.direction !== 'incoming') throw new GoogleError(400, `No link request from ${other} is waiting for ${self}.`, { reason: 'failedPrecondition', rpcStatus: 'FAILED_PRECONDITION' });
          const approved = existing.services.map((sv) => (services.length === 0 || services.includes(sv.service) ? { ...sv, status: 'active' as const } : sv));
          await saveLinkPair(s, self, other, { linkType: existing.linkType, services: approved }, 'incoming', now);
        } else {
          if (!existing) throw notFound(`No link between ${self} and ${other}.`);
          const kept = services.length === 0 ? [] : existing.services.filter((sv) => !services.includes(sv.service));
          if (kept.length === 0) {
            await s.deleteResource(self, 'links', other);
            await s.deleteResource(other, 'links', self);
          } else await saveLinkPair(s, self, other, { linkType: existing.linkType, services: kept }, existing.direction, now);
        }
      });
      return { kind: 'content#accountsLinkResponse' };
    },
  };

  const listLinks: Operation = {
    method: 'accounts.listlinks',
    verb: 'GET',
    path: '/{merchantId}/accounts/{accountId}/listlinks',
    scope: 'managed',
    request: { query: LIST_LINKS_QUERY },
    async run(cat, call) {
      const req = pageRequest(call.query, 'maxResults', `links:${call.account.id}`);
      req.limit = Math.max(req.limit, LIST_LINKS_MIN_RESULTS);
      const page = await cat.store.resources(call.account.id, 'links', { after: req.after, limit: req.limit });
      const links = page.items.map((r) => ({ linkedAccountId: r.doc.linkedAccountId, services: r.doc.services }));
      return listAnswer('links', links, req.token(page), 'content#accountsListLinksResponse');
    },
  };

  const requestPhone: Operation = {
    method: 'accounts.requestphoneverification',
    verb: 'POST',
    path: '/{merchantId}/accounts/{accountId}/requestphoneverification',
    scope: 'managed',
    request: { body: REQUEST_PHONE_VERIFICATION_BODY },
    async run(cat, call) {
      const body = readBody(call.body, 'RequestPhoneVerificationRequest', 'request', ['phoneRegionCode', 'phoneNumber', 'phoneVerificationMethod']);
      oneOf(body.phoneVerificationMethod, PHONE_VERIFICATION_METHODS, 'phoneVerificationMethod');
      if (!/^[A-Z]{2}$/.test(body.phoneRegionCode)) throw badRequest(`Invalid phoneRegionCode: ${JSON.stringify(body.phoneRegionCode)}.`);
      const digits = String(body.phoneNumber).replace(/[\s().-]/g, '');
      if (!/^\+?\d{6,15}$/.test(digits)) throw badRequest(`Invalid phoneNumber: ${JSON.stringify(body.phoneNumber)}.`);
      const verificationId = randomNumericId();
      const code = verificationCode();
      const now = cat.now();
      await cat.write(async (s, tx) => {
        await s.putResource(call.account.id, 'phoneverification', verificationId, { phoneNumber: digits, code, method: body.phoneVerificationMethod, expiresAt: now + 10 * 60_000, attempts: 0 }, now);
        await cat.ctx.outbox.enqueue(
          {
            service: 'catalog',
            channel: 'sms',
            recipient: digits,
            body: `Your Merchant Center verification code is ${code}`,
            correlation: `phoneverification:${verificationId}`,
          },
          tx,
        );
      });
      return { verificationId };
    },
  };

  const verifyPhone: Operation = {
    method: 'accounts.verifyphonenumber',
    verb: 'POST',
    path: '/{merchantId}/accounts/{accountId}/verifyphonenumber',
    scope: 'managed',
    request: { body: VERIFY_PHONE_NUMBER_BODY },
    async run(cat, call) {
      const body = readBody(call.body, 'VerifyPhoneNumberRequest', 'request', ['verificationId', 'verificationCode']);
      const now = cat.now();
      const outcome = await cat.write(async (s) => {
        const row = await s.resource(call.account.id, 'phoneverification', String(body.verificationId));
        if (!row || row.doc.expiresAt < now) return { error: 'notFound' as const };
        if (row.doc.code !== String(body.verificationCode)) {
          const attempts = row.doc.attempts + 1;
          if (attempts >= 5) await s.deleteResource(call.account.id, 'phoneverification', row.id);
          else await s.putResource(call.account.id, 'phoneverification', row.id, { ...row.doc, attempts }, now);
          return { error: 'wrong' as const };
        }
        await s.deleteResource(call.account.id, 'phoneverification', row.id);
        const account = (await s.account(call.account.id))!;
        const info = { ...(account.doc.businessInformation ?? {}), phoneNumber: row.doc.phoneNumber, phoneVerificationStatus: 'VERIFIED' };
        await s.saveAccount({ ...account, doc: { ...account.doc, businessInformation: info }, updatedAt: now });
        return { phone: row.doc.phoneNumber as string };
      });
      if (outcome.error === 'notFound') throw notFound('The verification request was not found or has expired; request a new code.');
      if (outcome.error === 'wrong') throw badRequest('The verification code is not correct.');
      return { verifiedPhoneNumber: outcome.phone };
    },
  };

  const updateLabels: Operation = {
    method: 'accounts.updatelabels',
    verb: 'POST',
    path: '/{merchantId}/accounts/{accountId}/updatelabels',
    scope: 'managed',
    request: { body: UPDATE_LABELS_BODY },
    async run(cat, call) {
      const body = checkWire<{ labelIds?: string[] }>(bodyObject(call.body), 'AccountsUpdateLabelsRequest', 'request');
      const labelIds = [...new Set(body.labelIds ?? [])];
      await cat.write(async (s) => {
        for (const id of labelIds) {
          if (!(await s.resource(call.merchant.id, 'accounts.labels', id))) throw badRequest(`Label ${id} does not exist in account ${call.merchant.id}.`);
        }
        const account = (await s.account(call.account.id))!;
        const doc: Record<string, any> = { ...account.doc, labelIds };
        if (labelIds.length === 0) delete doc.labelIds;
        await s.saveAccount({ ...account, doc, updatedAt: cat.now() });
      });
      return { kind: 'content#accountsUpdateLabelsResponse' };
    },
  };

  const authinfo: Operation = {
    method: 'accounts.authinfo',
    verb: 'GET',
    path: '/accounts/authinfo',
    scope: 'caller',
    async run(cat, call) {
      const seen = new Map<string, Record<string, string>>();
      const rows = call.caller.email ? await cat.store.accountsOfUser(call.caller.email) : [];
      for (const id of call.caller.granted) {
        const a = await cat.store.account(id);
        if (a) rows.push({ id: a.id, aggregatorId: a.aggregatorId, isMca: a.isMca });
      }
      for (const a of rows) {
        const ident: Record<string, string> = a.isMca ? { aggregatorId: a.id } : { merchantId: a.id };
        if (!a.isMca && a.aggregatorId) ident.aggregatorId = a.aggregatorId;
        seen.set(a.id, ident);
      }
      const out: Record<string, unknown> = { kind: 'content#accountsAuthInfoResponse' };
      if (seen.size > 0) out.accountIdentifiers = [...seen.values()];
      return out;
    },
  };

  const batch = batchOperation({
    path: '/accounts/batch',
    method: 'accounts.custombatch',
    wire: 'AccountsCustomBatchRequest',
    kind: 'content#accountsCustomBatchResponse',
    entryKind: 'content#accountsCustomBatchResponseEntry',
    params: ['merchantId', 'accountId'],
    methods: {
      get: { op: get, result: 'account' },
      insert: { op: insert, body: 'account', result: 'account' },
      update: { op: update, body: 'account', result: 'account' },
      delete: { op: remove },
      claimWebsite: { op: claim },
      link: { op: link, body: 'linkRequest' },
    },
  });

  return [authinfo, batch, get, insert, update, remove, list, claim, link, listLinks, requestPhone, verifyPhone, updateLabels];
}

/**
 * A page of an MCA's sub-accounts that the list filters select: `name` (contained, case ignored) and `label`. The
 * filters apply before paging, so a page is short only when it is the last.
 */
export function pageSubAccounts(cat: Catalog, mcaId: string, query: Record<string, unknown>, req: PageRequest): Promise<Page<AccountRow>> {
  const label = query.label === undefined ? undefined : String(query.label);
  const name = query.name === undefined ? undefined : String(query.name).toLowerCase();
  const keep = (a: AccountRow) => (label === undefined || (a.doc.labelIds ?? []).includes(label)) && (name === undefined || a.name.toLowerCase().includes(name));
  return pageFiltered((after, limit) => cat.store.subAccounts(mcaId, after, limit), keep, req);
}

/** Claims the account's website host; another account's claim is taken over only with `overwrite`. */
export async function claimWebsite(cat: Catalog, account: AccountRow, overwrite: boolean): Promise<void> {
  const url = account.doc.websiteUrl;
  if (!url) throw new GoogleError(403, 'The account has no website URL to claim; set websiteUrl first.', { reason: 'forbidden' });
  const host = new URL(url).host;
  await cat.write(async (s) => {
    const holder = await s.resource('_sites', 'websiteclaims', host);
    if (holder && holder.doc.accountId !== account.id && !overwrite) {
      throw new GoogleError(403, `The website ${host} is claimed by another account; pass overwrite=true to take it over.`, { reason: 'forbidden' });
    }
    if (holder && holder.doc.accountId !== account.id) await s.deleteResource(holder.doc.accountId, 'websiteclaim', 'claim');
    await s.putResource('_sites', 'websiteclaims', host, { accountId: account.id }, cat.now());
    await s.putResource(account.id, 'websiteclaim', 'claim', { host }, cat.now());
  });
}

/** True when the account's website is claimed (read by accountstatuses). */
export async function websiteClaimed(store: CatalogStore, accountId: string): Promise<boolean> {
  return (await store.resource(accountId, 'websiteclaim', 'claim')) !== undefined;
}

export type { Call };
