// Bidding accounts are core principals of kind `bidding_account`; each bearer token belongs to one of them.
import { ApiError } from '../../core/errors.ts';
import type { Principal } from '../../core/identity.ts';
import type { ServiceContext } from '../../core/service.ts';
import { roleOf, type Account } from './domain/access.ts';
import type { AccountInput } from './schemas.ts';

export const ACCOUNT_KIND = 'bidding_account';
export const BUYER_SCOPE = 'https://www.googleapis.com/auth/adexchange.buyer';

export const principalIdOf = (accountId: string): string => `bidding:${accountId}`;

/** The account a principal stands for; undefined for principals of other kinds. */
export function accountOf(p: Principal): Account | undefined {
  if (p.kind !== ACCOUNT_KIND) return undefined;
  const a = p.attrs as Partial<Account>;
  if (typeof a.accountId !== 'string') return undefined;
  return { accountId: a.accountId, name: p.name, parentBidderId: a.parentBidderId, delegatesTo: a.delegatesTo };
}

export const describeAccount = (a: Account) => ({ ...a, role: roleOf(a) });

export class Accounts {
  readonly #ctx: ServiceContext;

  constructor(ctx: ServiceContext) {
    this.#ctx = ctx;
  }

  async get(accountId: string): Promise<Account | undefined> {
    const p = await this.#ctx.identity.getPrincipal(principalIdOf(accountId));
    return p ? accountOf(p) : undefined;
  }

  async list(): Promise<Account[]> {
    return (await this.#ctx.identity.listPrincipals(ACCOUNT_KIND)).map(accountOf).filter((a): a is Account => a !== undefined);
  }

  /**
   * Creates an account (or, with `upsert`, updates one from config) and issues its bearer token.
   * Returns the token value when one was issued now.
   */
  async save(input: AccountInput, options: { upsert: boolean }): Promise<{ account: Account; token?: string }> {
    if (input.parentBidderId && input.delegatesTo) throw new ApiError(400, 'an account is either a child of a bidder (parentBidderId) or delegates its bidding (delegatesTo), not both');
    const parent = input.parentBidderId ?? input.delegatesTo;
    if (parent !== undefined) {
      if (parent === input.accountId) throw new ApiError(400, 'an account cannot belong to itself');
      const bidder = await this.get(parent);
      if (!bidder) throw new ApiError(400, `bidder account ${parent} does not exist`);
      if (roleOf(bidder) !== 'bidder') throw new ApiError(400, `account ${parent} is not a bidder account`);
    }
    const existing = await this.get(input.accountId);
    if (existing && !options.upsert) throw new ApiError(409, `account ${input.accountId} already exists`);
    if (existing && roleOf(existing) === 'bidder' && parent !== undefined && (await this.list()).some((a) => a.parentBidderId === input.accountId || a.delegatesTo === input.accountId)) {
      throw new ApiError(409, `account ${input.accountId} has accounts under it and must stay a bidder`);
    }
    const attrs: Record<string, unknown> = { accountId: input.accountId };
    if (input.parentBidderId) attrs.parentBidderId = input.parentBidderId;
    if (input.delegatesTo) attrs.delegatesTo = input.delegatesTo;
    const principal = await this.#ctx.identity.upsertPrincipal({
      id: principalIdOf(input.accountId),
      kind: ACCOUNT_KIND,
      name: input.name ?? `Account ${input.accountId}`,
      attrs,
    });
    const account = accountOf(principal)!;
    if (input.token !== undefined) {
      await this.#ctx.identity.ensureCredential({ principalId: principal.id, type: 'bearer', value: input.token, scopes: [BUYER_SCOPE], label: 'bidding account token' });
      return { account, token: input.token };
    }
    if (existing) return { account };
    return { account, token: await this.issueToken(input.accountId) };
  }

  async issueToken(accountId: string, value?: string): Promise<string> {
    const issued = await this.#ctx.identity.issueCredential({ principalId: principalIdOf(accountId), type: 'bearer', value, scopes: [BUYER_SCOPE], label: 'bidding account token' });
    return issued.value;
  }

  async remove(accountId: string): Promise<boolean> {
    if ((await this.list()).some((a) => a.parentBidderId === accountId || a.delegatesTo === accountId)) {
      throw new ApiError(409, `account ${accountId} has accounts under it; remove them first`);
    }
    return this.#ctx.identity.deletePrincipal(principalIdOf(accountId));
  }
}
