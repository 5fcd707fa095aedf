// Who is calling: a bearer token with the buyer scope that belongs to a bidding account.
import type { FastifyRequest } from 'fastify';
import { GoogleError, authenticateGoogle } from '../../../core/google/index.ts';
import { BUYER_SCOPE, accountOf } from '../accounts.ts';
import type { Account } from '../domain/access.ts';
import type { Bidding } from '../bidding.ts';

export async function callerAccount(req: FastifyRequest, b: Bidding): Promise<Account> {
  const caller = await authenticateGoogle(req, b.ctx.identity, { scopes: [BUYER_SCOPE], apiKey: false });
  const account = accountOf(caller.principal);
  if (!account) {
    throw new GoogleError(403, 'The caller is not a bidding account: use the bearer token of a bidder, child or delegating account.', {
      reason: 'forbidden',
      rpcStatus: 'PERMISSION_DENIED',
    });
  }
  return account;
}
