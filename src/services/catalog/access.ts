// Who is calling and which accounts they may act on. A principal reaches an account when its e-mail address is among
// the account's users, or when config lists the account in its `merchantIds` attribute; reaching an MCA reaches every
// sub-account of it. Anything else is refused the way Content API refuses it: 401 "User cannot access account".
import type { FastifyRequest } from 'fastify';
import { GoogleError, authenticateGoogle } from '../../core/google/index.ts';
import type { ServiceContext } from '../../core/service.ts';
import type { AccountRow, CatalogStore } from './store.ts';

export const CONTENT_SCOPE = 'https://www.googleapis.com/auth/content';

export interface Caller {
  principalId: string;
  email: string | undefined;
  /** Accounts granted to the principal by config or the admin API, besides those naming its e-mail. */
  granted: Set<string>;
}

export async function authenticate(req: FastifyRequest, ctx: ServiceContext): Promise<Caller> {
  const found = await authenticateGoogle(req, ctx.identity, { scopes: [CONTENT_SCOPE], apiKey: false });
  const attrs = found.principal.attrs as { email?: unknown; merchantIds?: unknown };
  const granted = new Set(Array.isArray(attrs.merchantIds) ? attrs.merchantIds.map(String) : []);
  return { principalId: found.principal.id, email: typeof attrs.email === 'string' ? attrs.email : undefined, granted };
}

export const cannotAccess = (accountId: string) =>
  new GoogleError(401, `User cannot access account ${accountId}`, { reason: 'auth/account_access_denied', rpcStatus: 'UNAUTHENTICATED' });

export const notSubAccount = (accountId: string, merchantId: string) =>
  new GoogleError(403, `Account ${accountId} is not a sub-account of ${merchantId}, and a merchant may act only on itself and the sub-accounts of its multi-client account.`, {
    reason: 'forbidden',
  });

/** The account `accountId` when the caller may act on it; 401 otherwise (also when it does not exist). */
export async function requireAccount(store: CatalogStore, caller: Caller, accountId: string): Promise<AccountRow> {
  const found = await store.accountForUser(accountId, caller.email);
  if (!found) throw cannotAccess(accountId);
  const { account, reachable } = found;
  if (reachable || caller.granted.has(accountId) || (account.aggregatorId !== null && caller.granted.has(account.aggregatorId))) return account;
  throw cannotAccess(accountId);
}

/**
 * For `{merchantId}/.../{accountId}` paths: the caller must reach `merchantId`, and `accountId` must be the merchant
 * itself or one of its sub-accounts.
 */
export async function requireManaged(store: CatalogStore, caller: Caller, merchantId: string, accountId: string): Promise<{ merchant: AccountRow; account: AccountRow }> {
  const merchant = await requireAccount(store, caller, merchantId);
  if (accountId === merchantId) return { merchant, account: merchant };
  const account = await store.account(accountId);
  if (!account || account.aggregatorId !== merchantId) throw notSubAccount(accountId, merchantId);
  return { merchant, account };
}

/** The MCA itself: listing and creating sub-accounts needs a multi-client account. */
export function requireMca(merchant: AccountRow): void {
  if (!merchant.isMca) {
    throw new GoogleError(403, `Merchant ${merchant.id} is not a multi-client account.`, { reason: 'forbidden' });
  }
}

/**
 * Methods on data a multi-client account cannot hold itself (products and what hangs on them, feeds, collections):
 * its sub-accounts hold them.
 */
const SUB_ACCOUNT_DATA = /^(products|productstatuses|localinventory|regionalinventory|datafeeds|datafeedstatuses|collections|collectionstatuses|productdeliverytime)\./;

/** Refuses `method` on an MCA when the method acts on data only a sub-account or standalone account holds. */
export function refuseMcaData(merchant: AccountRow, method: string): void {
  if (merchant.isMca && SUB_ACCOUNT_DATA.test(method)) {
    throw new GoogleError(403, `Merchant ${merchant.id} is a multi-client account, which holds no products, datafeeds or collections: call ${method} for one of its sub-accounts.`, {
      reason: 'forbidden',
    });
  }
}
