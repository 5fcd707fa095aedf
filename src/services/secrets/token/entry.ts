// The token entry as stored (never holding the token itself, only its salted hash) and how it is shown:
// the lookup data and the `auth` block of logins and token creation.
import { randomBytes } from 'node:crypto';
import type { AuthBlock } from '../contract.ts';
import { formatGoTime } from '../http/fields.ts';
import { RESPONSE_WRAPPING_POLICY } from '../policy/policy.ts';

export interface TokenEntry {
  /** Salted hash of the token: the storage key. The clear token is never stored. */
  hash: string;
  accessor: string;
  namespaceId: string;
  /** Hash of the parent and the namespace it lives in; null for orphans. */
  parentHash: string | null;
  parentNamespaceId: string | null;
  policies: string[];
  meta: Record<string, string> | null;
  displayName: string;
  /** 0 = unlimited; -1 = the last use has been spent (refused from then on). */
  numUses: number;
  /** Milliseconds. */
  creationTime: number;
  /** Seconds; the TTL given at creation (0 = never expires). */
  creationTtl: number;
  /** Milliseconds; null = never expires. */
  expireTime: number | null;
  explicitMaxTtl: number;
  period: number;
  renewable: boolean;
  /** Creation path (`auth/token/create`, `auth/userpass/login/bob`). */
  path: string;
  role: string;
  entityId: string;
  lastRenewalTime: number | null;
  /** Max TTL (seconds) of the backend that issued it, caps renewals (0 = the mount's). */
  backendMaxTtl: number;
  /** Addresses the token may be used from (empty or absent = anywhere). */
  boundCidrs?: string[];
  /** Absent = service. Batch tokens are not stored, have no accessor, and cannot be renewed, revoked or parents. */
  type?: 'service' | 'batch';
}

export const isBatch = (e: Pick<TokenEntry, 'type'>): boolean => e.type === 'batch';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(length: number): string {
  // rejection sampling keeps every character equally likely
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

const nsSuffix = (namespaceId: string) => (namespaceId === 'root' ? '' : `.${namespaceId}`);

/** `hvs.` service tokens; tokens of other namespaces carry `.<namespace id>`. */
export const newTokenId = (namespaceId: string): string => `hvs.${base62(24)}${nsSuffix(namespaceId)}`;
export const newAccessor = (namespaceId: string): string => `${base62(24)}${nsSuffix(namespaceId)}`;

/** The namespace id a token or accessor names by its suffix (`root` when none). */
export function namespaceIdOf(tokenOrAccessor: string): string {
  // Asked for every request's token: found by the dots rather than by splitting the token.
  const first = tokenOrAccessor.indexOf('.');
  if (first < 0) return 'root';
  const last = tokenOrAccessor.lastIndexOf('.');
  // `hvs.X` has no suffix; `hvs.X.ns` or `accessor.ns` carry one
  if (TOKEN_PREFIXES.has(tokenOrAccessor.slice(0, first)) && last === first) return 'root';
  return tokenOrAccessor.slice(last + 1);
}

const TOKEN_PREFIXES = new Set(['hvs', 'hvb', 's', 'b']);

export const isRootToken = (e: TokenEntry): boolean => e.policies.includes('root');

/** A response-wrapping token holds that one policy and nothing else (Vault's test). */
export const isWrappingToken = (e: Pick<TokenEntry, 'policies'>): boolean => e.policies.length === 1 && e.policies[0] === RESPONSE_WRAPPING_POLICY;

/** Remaining seconds (0 for tokens that never expire). */
export const remainingTtl = (e: TokenEntry, now: number): number => (e.expireTime === null ? 0 : Math.max(0, Math.floor((e.expireTime - now) / 1000)));

export const isExpired = (e: TokenEntry, now: number): boolean => e.expireTime !== null && e.expireTime <= now;

const unix = (ms: number) => Math.floor(ms / 1000);

/** Data of lookup, lookup-self and lookup-accessor (`id` is `` when looked up by accessor). */
export function lookupData(e: TokenEntry, id: string, now: number, namespacePath: string): Record<string, unknown> {
  const data: Record<string, unknown> = {
    accessor: e.accessor,
    creation_time: unix(e.creationTime),
    creation_ttl: e.creationTtl,
    display_name: e.displayName,
    entity_id: e.entityId,
    expire_time: e.expireTime === null ? null : formatGoTime(e.expireTime),
    explicit_max_ttl: e.explicitMaxTtl,
    id,
    issue_time: formatGoTime(e.creationTime),
    meta: e.meta,
    num_uses: Math.max(0, e.numUses),
    orphan: e.parentHash === null,
    path: e.path,
    policies: e.policies,
    renewable: e.renewable && e.expireTime !== null,
    ttl: remainingTtl(e, now),
    type: e.type ?? 'service',
  };
  if (e.period) data.period = e.period;
  if (e.role) data.role = e.role;
  if (e.lastRenewalTime !== null) data.last_renewal_time = unix(e.lastRenewalTime);
  if (e.namespaceId !== 'root') data.namespace_path = namespacePath;
  if (e.boundCidrs?.length) data.bound_cidrs = e.boundCidrs;
  return data;
}

/** The `auth` block for a token just issued or renewed. */
export function authBlock(e: TokenEntry, clientToken: string, now: number): AuthBlock {
  return {
    client_token: clientToken,
    accessor: e.accessor,
    policies: e.policies,
    token_policies: e.policies,
    metadata: e.meta,
    lease_duration: remainingTtl(e, now),
    renewable: e.renewable && e.expireTime !== null,
    entity_id: e.entityId,
    token_type: e.type ?? 'service',
    orphan: e.parentHash === null,
    mfa_requirement: null,
    num_uses: Math.max(0, e.numUses),
  };
}
