// TTL arithmetic shared by token creation, login and renewal: the requested TTL (or increment) capped by the
// effective maximum, measured from the time the token was issued. Periodic tokens get `period` each time, bounded
// only by an explicit max TTL.
import { formatDuration as formatGoDuration } from '../http/fields.ts';
import { badRequest } from '../contract.ts';

/** 768h: the system default and maximum lease TTL. */
export const SYSTEM_MAX_TTL = 768 * 3600;

export interface TtlLimits {
  /** Seconds; used when nothing was requested. */
  defaultTtl: number;
  /** Seconds; the mount's max (or the system max). */
  maxTtl: number;
}

/** A mount's configured TTLs (0 = system value) as effective limits. */
export function limitsOf(config?: { default_lease_ttl?: number; max_lease_ttl?: number }): TtlLimits {
  const maxTtl = config?.max_lease_ttl || SYSTEM_MAX_TTL;
  const defaultTtl = Math.min(config?.default_lease_ttl || SYSTEM_MAX_TTL, maxTtl);
  return { defaultTtl, maxTtl };
}

export interface TtlInput {
  limits: TtlLimits;
  /** Milliseconds: now, and when the token was issued (caps are measured from issue). */
  now: number;
  issuedAt: number;
  /** Seconds; 0 = not given. */
  increment?: number;
  requestedTtl?: number;
  period?: number;
  /** A backend's own max (a role's token_max_ttl); applies when lower than the mount's. */
  backendMaxTtl?: number;
  explicitMaxTtl?: number;
}

export function calculateTtl(input: TtlInput): { ttl: number; warnings: string[] } {
  const warnings: string[] = [];
  let maxTtl = input.limits.maxTtl;
  if (input.backendMaxTtl && input.backendMaxTtl > 0 && input.backendMaxTtl < maxTtl) maxTtl = input.backendMaxTtl;
  let ttl = input.limits.defaultTtl;
  let maxValidAt: number | undefined;
  const explicitMax = input.explicitMaxTtl ?? 0;
  if (input.period && input.period > 0) {
    let period = input.period;
    if (period > maxTtl) {
      warnings.push(`period of "${formatGoDuration(period)}" exceeded the effective max_ttl of "${formatGoDuration(maxTtl)}"; period value is capped accordingly`);
      period = maxTtl;
    }
    ttl = period;
    if (explicitMax > 0) maxValidAt = input.issuedAt + explicitMax * 1000;
  } else {
    if (input.increment && input.increment > 0) ttl = input.increment;
    else if (input.requestedTtl && input.requestedTtl > 0) ttl = input.requestedTtl;
    maxValidAt = input.issuedAt + maxTtl * 1000;
  }
  if (maxValidAt !== undefined) {
    if (explicitMax > 0) maxValidAt = Math.min(maxValidAt, input.issuedAt + explicitMax * 1000);
    const remaining = Math.floor((maxValidAt - input.now) / 1000);
    if (remaining <= 0) throw badRequest('past the max TTL, cannot renew');
    if (remaining < ttl) {
      warnings.push(`TTL of "${formatGoDuration(ttl)}" exceeded the effective max_ttl of "${formatGoDuration(remaining)}"; TTL value is capped accordingly`);
      ttl = remaining;
    }
  }
  return { ttl, warnings };
}
