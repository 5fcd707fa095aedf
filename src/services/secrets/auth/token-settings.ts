// The token_* fields every auth method role or user carries (token_policies, token_ttl, ...), decoded leniently and
// shown back on read.
import { badRequest } from '../contract.ts';
import { sanitizePolicyNames } from '../policy/policy.ts';
import { checkCidrs } from './cidr.ts';
import { boolField, durationField, intField, stringField, stringListField } from './fields.ts';

export interface TokenSettings {
  policies: string[];
  /** Seconds. */
  ttl: number;
  maxTtl: number;
  period: number;
  explicitMaxTtl: number;
  numUses: number;
  noDefaultPolicy: boolean;
  boundCidrs: string[];
  type: string;
}

export const emptyTokenSettings = (): TokenSettings => ({
  policies: [],
  ttl: 0,
  maxTtl: 0,
  period: 0,
  explicitMaxTtl: 0,
  numUses: 0,
  noDefaultPolicy: false,
  boundCidrs: [],
  type: 'default',
});

/** Applies the fields present in `data` (deprecated names accepted: policies, ttl, max_ttl, period, bound_cidrs). */
export function applyTokenSettings(data: Record<string, unknown>, existing: TokenSettings): TokenSettings {
  const s = { ...existing };
  const policies = stringListField(data, 'token_policies') ?? stringListField(data, 'policies');
  if (policies) s.policies = sanitizePolicyNames(policies);
  const ttl = durationField(data, 'token_ttl') ?? durationField(data, 'ttl');
  if (ttl !== undefined) s.ttl = nonNegative('token_ttl', ttl);
  const maxTtl = durationField(data, 'token_max_ttl') ?? durationField(data, 'max_ttl');
  if (maxTtl !== undefined) s.maxTtl = nonNegative('token_max_ttl', maxTtl);
  const period = durationField(data, 'token_period') ?? durationField(data, 'period');
  if (period !== undefined) s.period = nonNegative('token_period', period);
  const explicitMax = durationField(data, 'token_explicit_max_ttl');
  if (explicitMax !== undefined) s.explicitMaxTtl = nonNegative('token_explicit_max_ttl', explicitMax);
  const uses = intField(data, 'token_num_uses');
  if (uses !== undefined) s.numUses = nonNegative('token_num_uses', uses);
  s.noDefaultPolicy = boolField(data, 'token_no_default_policy') ?? s.noDefaultPolicy;
  const cidrs = stringListField(data, 'token_bound_cidrs') ?? stringListField(data, 'bound_cidrs');
  if (cidrs) s.boundCidrs = checkCidrs('token_bound_cidrs', cidrs);
  const type = stringField(data, 'token_type');
  if (type !== undefined) {
    if (!['default', 'service', 'default-service', 'batch', 'default-batch'].includes(type)) throw badRequest(`invalid 'token_type' value "${type}"`);
    s.type = type;
  }
  if (s.maxTtl > 0 && s.ttl > s.maxTtl) throw badRequest('"token_ttl" value must be less than "token_max_ttl" value');
  return s;
}

function nonNegative(name: string, v: number): number {
  if (v < 0) throw badRequest(`"${name}" cannot be negative`);
  return v;
}

export function tokenSettingsData(s: TokenSettings): Record<string, unknown> {
  return {
    token_bound_cidrs: s.boundCidrs,
    token_explicit_max_ttl: s.explicitMaxTtl,
    token_max_ttl: s.maxTtl,
    token_no_default_policy: s.noDefaultPolicy,
    token_num_uses: s.numUses,
    token_period: s.period,
    token_policies: s.policies,
    policies: s.policies,
    token_ttl: s.ttl,
    token_type: s.type,
  };
}
