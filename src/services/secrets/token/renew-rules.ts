// Renewal of a token as a pure rule: a new expiry from now, never past the max TTL measured from issue.
import { badRequest } from '../contract.ts';
import { isExpired, type TokenEntry } from './entry.ts';
import { calculateTtl, type TtlLimits } from './ttl.ts';

export interface RenewPlan {
  ttl: number;
  expireTime: number;
  warnings: string[];
}

export function planRenew(
  e: TokenEntry,
  opts: { now: number; increment: number; limits: TtlLimits; period?: number; explicitMaxTtl?: number },
): RenewPlan {
  if (e.expireTime === null) throw badRequest('lease is not renewable');
  if (isExpired(e, opts.now)) throw badRequest('lease expired');
  if (!e.renewable) throw badRequest('lease is not renewable');
  if (opts.increment < 0) throw badRequest('increment must be positive');
  const { ttl, warnings } = calculateTtl({
    limits: opts.limits,
    now: opts.now,
    issuedAt: e.creationTime,
    increment: opts.increment,
    requestedTtl: e.creationTtl,
    period: opts.period ?? e.period,
    explicitMaxTtl: opts.explicitMaxTtl ?? e.explicitMaxTtl,
    backendMaxTtl: e.backendMaxTtl,
  });
  return { ttl, expireTime: opts.now + ttl * 1000, warnings };
}
