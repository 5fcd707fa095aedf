// A token entry with plain defaults (a one-hour child token of the root namespace), for pure tests.
import type { TokenEntry } from '../../src/services/secrets/token/entry.ts';

export function tokenEntry(now: number, over: Partial<TokenEntry> = {}): TokenEntry {
  return {
    hash: 'parent-hash',
    accessor: 'acc',
    namespaceId: 'root',
    parentHash: null,
    parentNamespaceId: null,
    policies: ['default', 'dev'],
    meta: null,
    displayName: 'token',
    numUses: 0,
    creationTime: now,
    creationTtl: 3600,
    expireTime: now + 3600 * 1000,
    explicitMaxTtl: 0,
    period: 0,
    renewable: true,
    path: 'auth/token/create',
    role: '',
    entityId: '',
    lastRenewalTime: null,
    backendMaxTtl: 0,
    ...over,
  };
}
