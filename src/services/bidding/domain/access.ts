// Accounts and the access matrix of the bidding troubleshooting API.
//  - A bidder account owns bidder-level resources (`bidders/<itself>`); nobody else may use them.
//  - Account-level resources (`bidders/B/accounts/A`) are shared by bidder B and account A: the bidder reaches those of
//    itself and of every account under it, a child or delegating account only its own.
//  - Accounts that delegate their bidding are not bidders and may not use the bidder-only metrics collections.
import { GoogleError } from '../../../core/google/errors.ts';
import { BIDDER_ONLY_ACCOUNT_METRICS, ownerName, type Owner } from './names.ts';

export interface Account {
  accountId: string;
  name: string;
  /** Set for a child account: the bidder it belongs to. */
  parentBidderId?: string;
  /** Set for an account that delegates its bidding: the bidder that bids for it. */
  delegatesTo?: string;
}

export type AccountRole = 'bidder' | 'child' | 'delegate';

export const roleOf = (a: Account): AccountRole => (a.parentBidderId ? 'child' : a.delegatesTo ? 'delegate' : 'bidder');

/** The bidder whose traffic the account's events belong to. */
export const bidderOf = (a: Account): string => a.parentBidderId ?? a.delegatesTo ?? a.accountId;

const denied = (message: string) => new GoogleError(403, message, { reason: 'forbidden', rpcStatus: 'PERMISSION_DENIED' });

/**
 * Throws PERMISSION_DENIED unless `caller` may use resources of `owner`. `owned` is the account named by an
 * account-level owner (undefined when no such account exists). `collection` is the metrics collection, if any.
 */
export function authorize(caller: Account, owner: Owner, owned: Account | undefined, collection?: string): void {
  const role = roleOf(caller);
  if (owner.level === 'bidder') {
    if (role !== 'bidder') {
      throw denied(`Account ${caller.accountId} is not a bidder account: bidder-level resources (${ownerName(owner)}) are available only to the bidder itself.`);
    }
    if (owner.bidderId !== caller.accountId) throw denied(`The caller does not have permission to access ${ownerName(owner)}.`);
    return;
  }
  const reachable =
    role === 'bidder'
      ? owner.bidderId === caller.accountId && owned !== undefined && (owned.accountId === caller.accountId || bidderOf(owned) === caller.accountId)
      : owner.bidderId === bidderOf(caller) && owner.accountId === caller.accountId;
  if (!reachable) throw denied(`The caller does not have permission to access ${ownerName(owner)}.`);
  if (collection && role === 'delegate' && BIDDER_ONLY_ACCOUNT_METRICS.has(collection)) {
    throw denied(`Account ${caller.accountId} delegates its bidding and is not a bidder account: ${collection} is not available to it.`);
  }
}
