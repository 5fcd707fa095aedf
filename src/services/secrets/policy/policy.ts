// The normalised form of an ACL policy: what the parser produces, the store keeps and the evaluator reads.

export const CAPABILITIES = ['create', 'read', 'update', 'patch', 'delete', 'list', 'sudo', 'deny'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** Parameter constraints: parameter name (lower-cased) -> allowed/denied values (empty = any value). */
export type ParameterMap = Record<string, unknown[]>;

export interface PathRule {
  /** The pattern as written, leading `/` removed (may end in `*`, may hold `+` segments). */
  pattern: string;
  /** Deny stands alone: a rule holding `deny` holds nothing else. */
  capabilities: Capability[];
  allowedParameters?: ParameterMap;
  deniedParameters?: ParameterMap;
  requiredParameters?: string[];
  /** Seconds. */
  minWrappingTtl?: number;
  maxWrappingTtl?: number;
}

export interface Policy {
  name: string;
  rules: PathRule[];
}

/** Names that always exist. `root` grants everything and cannot change; `default` can change but not go away. */
export const ROOT_POLICY = 'root';
export const DEFAULT_POLICY = 'default';
/** The fixed policy of wrapping tokens (Vault's name). */
export const RESPONSE_WRAPPING_POLICY = 'response-wrapping';

/** The legacy `policy = "..."` shorthand mapped to capabilities. */
export const LEGACY_POLICY_CAPABILITIES: Record<string, Capability[]> = {
  deny: ['deny'],
  read: ['read', 'list'],
  write: ['create', 'read', 'update', 'delete', 'list'],
  sudo: ['create', 'read', 'update', 'delete', 'list', 'sudo'],
};

/** Lower-cases, trims, removes empties and duplicates, sorts: the canonical form of every policy list. */
export function sanitizePolicyNames(names: readonly string[]): string[] {
  const out = new Set<string>();
  for (const n of names) {
    const v = n.trim().toLowerCase();
    if (v) out.add(v);
  }
  return [...out].sort();
}
