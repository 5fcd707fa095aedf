// The rules of token creation as one pure function: which policies, orphan or child, TTL, period and uses a new
// token gets, given its parent, the caller's sudo right, an optional role and the mount's TTL limits.
import { wildcardMatch } from '../../../core/wildcard.ts';
import { badRequest } from '../contract.ts';
import { sanitizePolicyNames } from '../policy/policy.ts';
import { stringField } from '../auth/fields.ts';
import { durationSecondsOf, weakBool, weakInt, weakString, weakStringList, weakStringMap } from './create-fields.ts';
import type { TokenEntry } from './entry.ts';
import { calculateTtl, type TtlLimits } from './ttl.ts';
import type { TokenRole } from './role.ts';

export interface CreateTokenRequest {
  id?: string;
  policies?: string[];
  meta?: Record<string, string>;
  noParent: boolean;
  noDefaultPolicy: boolean;
  renewable?: boolean;
  ttl?: number;
  explicitMaxTtl?: number;
  displayName?: string;
  numUses: number;
  period?: number;
  type?: string;
  entityAlias?: string;
}

/** Seconds of a duration field; undefined when absent or empty. */
function durationOf(data: Record<string, unknown>, name: string): number | undefined {
  const text = weakString(data[name], name);
  return text === '' ? undefined : durationSecondsOf(text);
}

export function decodeCreateRequest(data: Record<string, unknown>): CreateTokenRequest {
  return {
    id: stringField(data, 'id') || undefined,
    policies: weakStringList(data.policies, 'policies'),
    meta: weakStringMap(data.meta, 'meta'),
    noParent: weakBool(data.no_parent, 'no_parent') ?? false,
    noDefaultPolicy: weakBool(data.no_default_policy, 'no_default_policy') ?? false,
    renewable: weakBool(data.renewable, 'renewable'),
    ttl: durationOf(data, 'ttl') ?? durationOf(data, 'lease'),
    explicitMaxTtl: durationOf(data, 'explicit_max_ttl'),
    displayName: stringField(data, 'display_name'),
    numUses: weakInt(data.num_uses, 'num_uses'),
    period: durationOf(data, 'period'),
    type: stringField(data, 'type'),
    entityAlias: weakString(data.entity_alias, 'entity_alias') || undefined,
  };
}

export interface CreateContext {
  parent: TokenEntry;
  /** The caller holds root or sudo on the creation path. */
  isSudo: boolean;
  /** Called through create-orphan. */
  orphanEndpoint: boolean;
  role?: TokenRole;
  now: number;
  limits: TtlLimits;
  /** Namespace the token is created in. */
  namespaceId: string;
  /** Path below the token mount (`create`, `create-orphan`, `create/<role>`). */
  relativePath: string;
}

export interface CreatePlan {
  entry: Omit<TokenEntry, 'hash' | 'accessor'>;
  /** A caller-chosen token id (root/sudo only). */
  id?: string;
  warnings: string[];
}

// one trailing hyphen goes, as in Vault: `a--` becomes `token-a-`
const sanitizeDisplayName = (name: string) => `token-${name}`.replace(/[^a-zA-Z0-9-]/g, '-').replace(/-$/, '');

/** Policies Vault keeps for its own tokens. */
const NON_ASSIGNABLE_POLICIES = ['response-wrapping', 'control-group'];

export function planTokenCreate(req: CreateTokenRequest, ctx: CreateContext): CreatePlan {
  const { parent, isSudo, role } = ctx;
  const warnings: string[] = [];
  if (parent.type === 'batch') throw badRequest('batch tokens cannot create more tokens');
  if (parent.numUses !== 0) throw badRequest('restricted use token cannot generate child tokens');
  const type = tokenTypeOf(req.type, role?.tokenType);
  if (type === 'batch') {
    const set = req.explicitMaxTtl ? 'explicit_max_ttl' : req.numUses ? 'num_uses' : req.period ? 'period' : undefined;
    if (set) throw badRequest(`batch tokens cannot have "${set}" set`);
  }
  if (req.numUses < 0) throw badRequest('number of uses cannot be negative');
  if (req.entityAlias !== undefined) {
    if (!role) throw badRequest("'entity_alias' is only allowed in combination with token role");
    // roles here carry no allowed entity aliases, so no alias can match
    throw badRequest("invalid 'entity_alias' value");
  }
  let renewable = type === 'batch' ? false : (req.renewable ?? true);
  let path = `auth/token/${ctx.relativePath}`;
  let numUses = req.numUses;
  if (role) {
    if (!role.renewable) renewable = false;
    // the role's use count is a ceiling (0 = unlimited on either side)
    if (role.numUses > 0 && (numUses === 0 || role.numUses < numUses)) numUses = role.numUses;
    if (role.pathSuffix) path = `${path}/${role.pathSuffix}`;
  }
  if (req.id !== undefined) {
    if (!isSudo) throw badRequest('root or sudo privileges required to specify token id');
    if (ctx.namespaceId !== 'root') throw badRequest('token IDs can only be manually specified in the root namespace');
    if (req.id.includes('.')) throw badRequest('token IDs can not contain a "."');
  }

  const intoChildNamespace = ctx.namespaceId !== parent.namespaceId;
  if (intoChildNamespace) {
    if (!isSudo) throw badRequest('root or sudo privileges required to directly generate a token in a child namespace');
    if (req.policies?.some((p) => p.trim().toLowerCase() === 'root')) throw badRequest('root tokens may not be created from a parent namespace');
  }
  const policies = choosePolicies(req, ctx);
  const reserved = policies.find((p) => NON_ASSIGNABLE_POLICIES.includes(p));
  if (reserved) throw badRequest(`cannot assign policy ${JSON.stringify(reserved)}`);
  if (policies.includes('root') && !parent.policies.includes('root')) {
    throw badRequest('root tokens may not be created without parent token being root');
  }
  if (policies.includes('root') && type === 'batch') throw badRequest('batch tokens cannot be root tokens');

  let orphan: boolean;
  if (role) orphan = role.orphan;
  else if (req.noParent) {
    if (!isSudo) throw badRequest('root or sudo privileges required to create orphan token');
    orphan = true;
  } else orphan = ctx.orphanEndpoint;

  if (req.explicitMaxTtl !== undefined && req.explicitMaxTtl < 0) throw badRequest('explicit_max_ttl must be positive');
  let explicitMaxTtl = req.explicitMaxTtl ?? 0;
  let period = 0;
  if (req.period !== undefined) {
    if (req.period < 0) throw badRequest('period must be positive');
    if (req.period > 0) {
      if (!isSudo) throw badRequest('root or sudo privileges required to create periodic token');
      period = req.period;
    }
  }
  if (req.ttl !== undefined && req.ttl < 0) throw badRequest('ttl must be positive');
  let ttl = req.ttl ?? 0;
  if (role) {
    if (role.explicitMaxTtl) {
      if (explicitMaxTtl) warnings.push(`Explicit max TTL specified both during creation call and in role; using the lesser value of ${Math.min(role.explicitMaxTtl, explicitMaxTtl)} seconds`);
      explicitMaxTtl = explicitMaxTtl ? Math.min(explicitMaxTtl, role.explicitMaxTtl) : role.explicitMaxTtl;
    }
    if (role.period) {
      if (period) warnings.push(`Period specified both during creation call and in role; using the lesser value of ${Math.min(role.period, period)} seconds`);
      period = period ? Math.min(period, role.period) : role.period;
    }
  }
  if (period > 0 || ttl > 0 || !policies.includes('root')) {
    const computed = calculateTtl({ limits: ctx.limits, now: ctx.now, issuedAt: ctx.now, requestedTtl: ttl, period, explicitMaxTtl });
    ttl = computed.ttl;
    warnings.push(...computed.warnings);
  }
  if (ttl === 0 && explicitMaxTtl > 0) ttl = explicitMaxTtl;
  if (ttl === 0) {
    if (parent.expireTime !== null) throw badRequest('expiring root tokens cannot create non-expiring root tokens');
    renewable = false;
  }
  if (req.id !== undefined) warnings.push('Supplying a custom ID for the token uses the weaker SHA1 hashing instead of the more secure SHA2-256 HMAC for token obfuscation. SHA1 hashed tokens on the wire leads to less secure lookups.');

  return {
    id: req.id,
    warnings,
    entry: {
      namespaceId: ctx.namespaceId,
      parentHash: orphan ? null : parent.hash,
      parentNamespaceId: orphan ? null : parent.namespaceId,
      policies,
      meta: req.meta && Object.keys(req.meta).length > 0 ? req.meta : null,
      displayName: req.displayName ? sanitizeDisplayName(req.displayName) : 'token',
      numUses,
      creationTime: ctx.now,
      creationTtl: ttl,
      expireTime: ttl === 0 ? null : ctx.now + ttl * 1000,
      explicitMaxTtl,
      period,
      renewable,
      path,
      role: role?.name ?? '',
      entityId: orphan ? '' : parent.entityId,
      lastRenewalTime: null,
      backendMaxTtl: 0,
      // a role's binding replaces the parent's; a child otherwise keeps its parent's
      boundCidrs: role ? (role.boundCidrs ?? []) : orphan ? [] : (parent.boundCidrs ?? []),
      type,
    },
  };
}

/** The token type a request gets: a role's fixed type wins, its `default-*` type yields to the request. */
function tokenTypeOf(requested: string | undefined, roleType: string | undefined): 'service' | 'batch' {
  let type = requested || '';
  if (roleType === 'service' || roleType === 'batch') type = roleType;
  else if (roleType === 'default-batch' && !type) type = 'batch';
  if (type === '' || type === 'service') return 'service';
  if (type === 'batch') return 'batch';
  throw badRequest("invalid 'token_type' value");
}

/** Role policy globs: `*` matches any run of characters. */
const globMatches = (glob: string, name: string): boolean => wildcardMatch(glob, name, '*');

function choosePolicies(req: CreateTokenRequest, ctx: CreateContext): string[] {
  const { parent, role, isSudo } = ctx;
  const requested = req.policies && req.policies.length > 0 ? sanitizePolicyNames(req.policies) : undefined;
  let chosen: string[];
  let addDefault = false;
  // roles stored before globs existed have none
  const allowedGlob = role?.allowedPoliciesGlob ?? [];
  const disallowedGlob = role?.disallowedPoliciesGlob ?? [];
  if (role && (role.allowedPolicies.length || role.disallowedPolicies.length || allowedGlob.length || disallowedGlob.length)) {
    const roleDefault = !req.noDefaultPolicy && !role.noDefaultPolicy && !role.disallowedPolicies.includes('default') && !disallowedGlob.some((g) => globMatches(g, 'default'));
    const withDefault = (list: string[]) => (roleDefault ? sanitizePolicyNames([...list, 'default']) : sanitizePolicyNames(list));
    chosen = requested ? withDefault(requested) : [];
    if (role.allowedPolicies.length > 0 || allowedGlob.length > 0) {
      const allowed = withDefault(role.allowedPolicies);
      const isAllowed = (p: string) => allowed.includes(p) || allowedGlob.some((g) => globMatches(g, p));
      if (chosen.length === 0) chosen = allowed;
      else if (!chosen.every(isAllowed)) {
        throw badRequest(`token policies (${goList(chosen)}) must be subset of the role's allowed policies (${goList(allowed)})`);
      }
    } else if (chosen.length === 0) chosen = withDefault(parent.policies);
    for (const p of chosen) {
      if (role.disallowedPolicies.includes(p) || disallowedGlob.some((g) => globMatches(g, p))) {
        throw badRequest(`token policy "${p}" is disallowed by this role`);
      }
    }
  } else if (ctx.namespaceId !== parent.namespaceId) {
    // a token made for a child namespace gets only what was asked: the parent's policies mean nothing there
    chosen = requested ?? [];
    addDefault = !req.noDefaultPolicy;
  } else if (!requested) {
    chosen = parent.policies;
  } else if (!isSudo) {
    if (!requested.every((p) => parent.policies.includes(p))) throw badRequest('child policies must be subset of parent');
    chosen = requested;
    addDefault = !req.noDefaultPolicy && parent.policies.includes('default');
  } else {
    chosen = requested;
    addDefault = !req.noDefaultPolicy;
  }
  let policies = sanitizePolicyNames(addDefault ? [...chosen, 'default'] : chosen);
  if (req.noDefaultPolicy) policies = policies.filter((p) => p !== 'default');
  // `root` in a list stands alone
  return policies.includes('root') ? ['root'] : policies;
}

const goList = (items: string[]) => `[${items.map((i) => JSON.stringify(i)).join(' ')}]`;
