// Token roles (auth/token/roles/:name): stored settings that shape tokens created through create/:role.
import { badRequest } from '../contract.ts';
import { sanitizePolicyNames } from '../policy/policy.ts';
import { checkCidrs } from '../auth/cidr.ts';
import { boolField, durationField, intField, stringField, stringListField } from '../auth/fields.ts';

export interface TokenRole {
  name: string;
  allowedPolicies: string[];
  disallowedPolicies: string[];
  allowedPoliciesGlob: string[];
  disallowedPoliciesGlob: string[];
  boundCidrs: string[];
  orphan: boolean;
  renewable: boolean;
  pathSuffix: string;
  /** Seconds. */
  period: number;
  explicitMaxTtl: number;
  tokenType: string;
  noDefaultPolicy: boolean;
  numUses: number;
}

export const ROLE_NAME = /^[A-Za-z0-9_.@-]+$/;

const TOKEN_TYPES = new Set(['default', 'default-service', 'service', 'default-batch', 'batch']);

/** Applies the fields present in `data` to `existing` (or to the defaults when creating). */
export function applyRoleFields(name: string, data: Record<string, unknown>, existing?: TokenRole): TokenRole {
  const role: TokenRole = existing
    ? { ...existing }
    : {
        name,
        allowedPolicies: [],
        disallowedPolicies: [],
        allowedPoliciesGlob: [],
        disallowedPoliciesGlob: [],
        boundCidrs: [],
        orphan: false,
        renewable: true,
        pathSuffix: '',
        period: 0,
        explicitMaxTtl: 0,
        tokenType: 'default-service',
        noDefaultPolicy: false,
        numUses: 0,
      };
  const allowed = stringListField(data, 'allowed_policies');
  if (allowed) role.allowedPolicies = sanitizePolicyNames(allowed);
  const disallowed = stringListField(data, 'disallowed_policies');
  if (disallowed) role.disallowedPolicies = sanitizePolicyNames(disallowed);
  const allowedGlob = stringListField(data, 'allowed_policies_glob');
  if (allowedGlob) role.allowedPoliciesGlob = allowedGlob.map((g) => g.toLowerCase());
  const disallowedGlob = stringListField(data, 'disallowed_policies_glob');
  if (disallowedGlob) role.disallowedPoliciesGlob = disallowedGlob.map((g) => g.toLowerCase());
  const cidrs = stringListField(data, 'token_bound_cidrs') ?? stringListField(data, 'bound_cidrs');
  if (cidrs) role.boundCidrs = checkCidrs('token_bound_cidrs', cidrs);
  role.orphan = boolField(data, 'orphan') ?? role.orphan;
  role.renewable = boolField(data, 'renewable') ?? role.renewable;
  const suffix = stringField(data, 'path_suffix');
  if (suffix !== undefined) {
    if (suffix.includes('..')) throw badRequest('error registering path suffix: illegal ".."');
    role.pathSuffix = suffix.replace(/^\/+|\/+$/g, '');
  }
  const period = durationField(data, 'token_period') ?? durationField(data, 'period');
  if (period !== undefined) role.period = nonNegative('token_period', period);
  const maxTtl = durationField(data, 'token_explicit_max_ttl') ?? durationField(data, 'explicit_max_ttl');
  if (maxTtl !== undefined) role.explicitMaxTtl = nonNegative('token_explicit_max_ttl', maxTtl);
  const type = stringField(data, 'token_type');
  if (type !== undefined) {
    if (!TOKEN_TYPES.has(type)) throw badRequest("invalid 'token_type' value");
    role.tokenType = type === 'default' ? 'default-service' : type;
  }
  role.noDefaultPolicy = boolField(data, 'token_no_default_policy') ?? role.noDefaultPolicy;
  const uses = intField(data, 'token_num_uses');
  if (uses !== undefined) role.numUses = nonNegative('token_num_uses', uses);
  return role;
}

function nonNegative(name: string, v: number): number {
  if (v < 0) throw badRequest(`${name} cannot be negative`);
  return v;
}

export function roleData(role: TokenRole): Record<string, unknown> {
  return {
    allowed_entity_aliases: null,
    allowed_policies: role.allowedPolicies,
    allowed_policies_glob: role.allowedPoliciesGlob ?? [],
    disallowed_policies: role.disallowedPolicies,
    disallowed_policies_glob: role.disallowedPoliciesGlob ?? [],
    explicit_max_ttl: role.explicitMaxTtl,
    name: role.name,
    orphan: role.orphan,
    path_suffix: role.pathSuffix,
    period: role.period,
    renewable: role.renewable,
    token_bound_cidrs: role.boundCidrs ?? [],
    token_explicit_max_ttl: role.explicitMaxTtl,
    token_no_default_policy: role.noDefaultPolicy,
    token_num_uses: role.numUses,
    token_period: role.period,
    token_type: role.tokenType,
  };
}
