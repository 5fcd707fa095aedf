// The policies every namespace has from the start. `default` is seeded once and may then be edited (never deleted);
// `root` has no rules: holding it grants everything, and it cannot be read back as text or changed;
// `response-wrapping` is held by wrapping tokens alone, is never stored and cannot be assigned.
import type { PathRule } from './policy.ts';

export const DEFAULT_POLICY_TEXT = `# Granted to every token unless it was created without the default policy.

# A token may inspect, renew and revoke itself.
path "auth/token/lookup-self" {
    capabilities = ["read"]
}
path "auth/token/renew-self" {
    capabilities = ["update"]
}
path "auth/token/revoke-self" {
    capabilities = ["update"]
}

# A token may ask what it can do on a path.
path "sys/capabilities-self" {
    capabilities = ["update"]
}

# Resultant ACL view for user interfaces.
path "sys/internal/ui/resultant-acl" {
    capabilities = ["read"]
}

# Lease renewal and lookup by lease id (both the old and the current path).
path "sys/renew" {
    capabilities = ["update"]
}
path "sys/leases/renew" {
    capabilities = ["update"]
}
path "sys/leases/lookup" {
    capabilities = ["update"]
}

# Each token's private cubbyhole.
path "cubbyhole/*" {
    capabilities = ["create", "read", "update", "delete", "list"]
}

# Response wrapping.
path "sys/wrapping/wrap" {
    capabilities = ["update"]
}
path "sys/wrapping/lookup" {
    capabilities = ["update"]
}
path "sys/wrapping/unwrap" {
    capabilities = ["update"]
}

# General-purpose hashing.
path "sys/tools/hash" {
    capabilities = ["update"]
}
path "sys/tools/hash/*" {
    capabilities = ["update"]
}
`;

/**
 * The default policy's rules, as parsing DEFAULT_POLICY_TEXT gives them (a test holds the two together). Seeding a
 * namespace's default policy then needs no HCL parser: loading it costs a first start about half a second.
 */
export const DEFAULT_POLICY_RULES: readonly PathRule[] = [
  { pattern: 'auth/token/lookup-self', capabilities: ['read'] },
  { pattern: 'auth/token/renew-self', capabilities: ['update'] },
  { pattern: 'auth/token/revoke-self', capabilities: ['update'] },
  { pattern: 'cubbyhole/*', capabilities: ['create', 'read', 'update', 'delete', 'list'] },
  { pattern: 'sys/capabilities-self', capabilities: ['update'] },
  { pattern: 'sys/internal/ui/resultant-acl', capabilities: ['read'] },
  { pattern: 'sys/leases/lookup', capabilities: ['update'] },
  { pattern: 'sys/leases/renew', capabilities: ['update'] },
  { pattern: 'sys/renew', capabilities: ['update'] },
  { pattern: 'sys/tools/hash', capabilities: ['update'] },
  { pattern: 'sys/tools/hash/*', capabilities: ['update'] },
  { pattern: 'sys/wrapping/lookup', capabilities: ['update'] },
  { pattern: 'sys/wrapping/unwrap', capabilities: ['update'] },
  { pattern: 'sys/wrapping/wrap', capabilities: ['update'] },
];

export const RESPONSE_WRAPPING_POLICY_TEXT = `path "cubbyhole/response" {
    capabilities = ["create", "read"]
}

path "sys/wrapping/unwrap" {
    capabilities = ["update"]
}
`;

/** RESPONSE_WRAPPING_POLICY_TEXT's rules: a wrapping token may unwrap itself and nothing else. */
export const RESPONSE_WRAPPING_POLICY_RULES: readonly PathRule[] = [
  { pattern: 'cubbyhole/response', capabilities: ['create', 'read'] },
  { pattern: 'sys/wrapping/unwrap', capabilities: ['update'] },
];

/** The root policy's rules are never consulted (the evaluator short-circuits on the name); this is its stored form. */
export const ROOT_POLICY_RULES: PathRule[] = [];
