// The ACL evaluator: the rules of a token's policies merged by pattern, then one decision per request.
// The rule of the single highest-priority matching pattern applies; rules for the same pattern in several policies
// are merged (capabilities united, deny sticky).
import { isDeepStrictEqual } from 'node:util';
import { dictionary, own } from '../../../core/own.ts';
import { comparePriority, compilePattern, patternMatches, type PathPattern } from './path-pattern.ts';
import { CAPABILITIES, ROOT_POLICY, type Capability, type ParameterMap, type PathRule, type Policy } from './policy.ts';

export type AclOperation = 'create' | 'read' | 'update' | 'patch' | 'delete' | 'list' | 'help';

export interface MergedRule {
  pattern: PathPattern;
  capabilities: Set<Capability>;
  allowedParameters?: ParameterMap;
  deniedParameters?: ParameterMap;
  requiredParameters?: string[];
}

export interface AclDecision {
  allowed: boolean;
  /** The matched rule grants sudo (or the token is root). */
  sudo: boolean;
  root: boolean;
  /** Capabilities of the matched rule (empty when nothing matched). */
  capabilities: Set<Capability>;
}

/** Operations whose parameters policies may constrain. */
const PARAMETER_CHECKED: ReadonlySet<AclOperation> = new Set(['read', 'create', 'update', 'patch']);

export class Acl {
  readonly root: boolean;
  readonly #exact = new Map<string, MergedRule>();
  /** Wildcard rules, highest priority first: the first match is the one that applies. */
  readonly #wildcards: MergedRule[] = [];

  constructor(policies: readonly Policy[]) {
    this.root = policies.some((p) => p.name === ROOT_POLICY);
    const byPattern = new Map<string, MergedRule>();
    for (const policy of policies) {
      for (const rule of policy.rules) {
        const existing = byPattern.get(rule.pattern);
        byPattern.set(rule.pattern, existing ? mergeRule(existing, rule) : fromRule(rule));
      }
    }
    for (const rule of byPattern.values()) {
      if (rule.pattern.firstWildcard === Infinity) this.#exact.set(rule.pattern.raw, rule);
      else this.#wildcards.push(rule);
    }
    this.#wildcards.sort((a, b) => comparePriority(b.pattern, a.pattern));
  }

  /** The rule that governs `path`, if any. */
  ruleFor(path: string): MergedRule | undefined {
    const exact = this.#exact.get(path);
    if (exact) return exact;
    return this.#wildcards.find((r) => patternMatches(r.pattern, path));
  }

  /**
   * For LIST (paths end in `/`), a rule written without the trailing slash also counts, as in Vault 1.15 and later:
   * exact rules first (with, then without the slash), then wildcard rules without, then with the slash. The
   * wildcard order is Vault's: `+/teams` must win over `+/*` for a LIST of `ns/teams/`, which only the path
   * without its slash lets it match.
   */
  #ruleForList(path: string): MergedRule | undefined {
    const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
    return (
      this.#exact.get(path) ??
      this.#exact.get(trimmed) ??
      this.#wildcards.find((r) => patternMatches(r.pattern, trimmed)) ??
      this.#wildcards.find((r) => patternMatches(r.pattern, path))
    );
  }

  /**
   * Decides one request. `path` is relative to the policy's namespace; lists end in `/`.
   * `rootProtected`: the path needs sudo as well as the operation's capability.
   */
  evaluate(path: string, operation: AclOperation, opts: { rootProtected?: boolean; data?: Record<string, unknown> } = {}): AclDecision {
    if (this.root) return { allowed: true, sudo: true, root: true, capabilities: new Set(CAPABILITIES.filter((c) => c !== 'deny')) };
    const rule = operation === 'list' ? this.#ruleForList(path) : this.ruleFor(path);
    const capabilities = rule?.capabilities ?? new Set<Capability>();
    const sudo = capabilities.has('sudo');
    const denied = { allowed: false, sudo, root: false, capabilities };
    if (!rule || capabilities.has('deny')) return denied;
    const granted = operation === 'help' ? capabilities.size > 0 : capabilities.has(operation);
    if (!granted) return denied;
    if (opts.rootProtected && !sudo) return denied;
    if (PARAMETER_CHECKED.has(operation) && !parametersAllowed(rule, opts.data ?? {})) return denied;
    return { allowed: true, sudo, root: false, capabilities };
  }

  /**
   * True when some path at or below `prefix` is granted anything (deny aside): the "any capability on the mount"
   * rule of sys/internal/ui/mounts/:path.
   */
  hasAccessUnder(prefix: string): boolean {
    if (this.root) return true;
    const grants = (r: MergedRule) => r.capabilities.size > 0 && !r.capabilities.has('deny');
    for (const rule of this.#exact.values()) if (grants(rule) && rule.pattern.raw.startsWith(prefix)) return true;
    return this.#wildcards.some((r) => grants(r) && patternReaches(r.pattern, prefix));
  }

  /**
   * What sys/capabilities-self reports for a path: sorted names, `["root"]` for root, `["deny"]` for nothing. The
   * rule is found as for a LIST (Vault models it so), so `secret/metadata/app/` reports a `secret/metadata/app` rule.
   */
  capabilities(path: string): string[] {
    if (this.root) return ['root'];
    const caps = this.#ruleForList(path)?.capabilities;
    if (!caps || caps.size === 0 || caps.has('deny')) return ['deny'];
    return [...caps].sort();
  }
}

/** Can a wildcard pattern match some path that starts with `prefix`? */
function patternReaches(p: PathPattern, prefix: string): boolean {
  if (!p.segments) return p.body.startsWith(prefix) || prefix.startsWith(p.body);
  const want = p.segments;
  const have = prefix.split('/');
  // compare the segments both define; the prefix's last segment may be partial
  for (let i = 0; i < Math.min(want.length, have.length); i++) {
    const last = i === have.length - 1;
    const lastOfGlob = p.prefix && i === want.length - 1;
    if (want[i] === '+') continue;
    if (last ? !(want[i].startsWith(have[i]) || (lastOfGlob && have[i].startsWith(want[i]))) : lastOfGlob ? !have[i].startsWith(want[i]) : want[i] !== have[i]) return false;
    if (lastOfGlob) return true;
  }
  return p.prefix || have.length <= want.length;
}

function fromRule(rule: PathRule): MergedRule {
  return {
    pattern: compilePattern(rule.pattern),
    capabilities: new Set(rule.capabilities),
    allowedParameters: rule.allowedParameters,
    deniedParameters: rule.deniedParameters,
    requiredParameters: rule.requiredParameters,
  };
}

function mergeRule(into: MergedRule, rule: PathRule): MergedRule {
  const capabilities = new Set([...into.capabilities, ...rule.capabilities]);
  return {
    pattern: into.pattern,
    capabilities: capabilities.has('deny') ? new Set<Capability>(['deny']) : capabilities,
    allowedParameters: mergeParameters(into.allowedParameters, rule.allowedParameters),
    deniedParameters: mergeParameters(into.deniedParameters, rule.deniedParameters),
    requiredParameters:
      into.requiredParameters || rule.requiredParameters
        ? [...new Set([...(into.requiredParameters ?? []), ...(rule.requiredParameters ?? [])])]
        : undefined,
  };
}

/** Values are united; an empty list (any value) absorbs a non-empty one. */
function mergeParameters(a?: ParameterMap, b?: ParameterMap): ParameterMap | undefined {
  if (!a) return b;
  if (!b) return a;
  const out: ParameterMap = Object.assign(dictionary<unknown[]>(), a);
  for (const [key, values] of Object.entries(b)) {
    const have = own(out, key);
    out[key] = have === undefined ? values : have.length === 0 || values.length === 0 ? [] : [...have, ...values];
  }
  return out;
}

function parametersAllowed(rule: MergedRule, data: Record<string, unknown>): boolean {
  const lowered = new Map(Object.entries(data).map(([k, v]) => [k.toLowerCase(), v]));
  for (const required of rule.requiredParameters ?? []) if (!lowered.has(required)) return false;
  if (lowered.size === 0) return true;
  const denied = rule.deniedParameters;
  if (denied && Object.keys(denied).length > 0) {
    if (Object.hasOwn(denied, '*')) return false;
    for (const [name, value] of lowered) {
      const list = own(denied, name);
      if (list && valueInList(value, list)) return false;
    }
  }
  const allowed = rule.allowedParameters;
  if (!allowed || Object.keys(allowed).length === 0) return true;
  const allowAll = Object.hasOwn(allowed, '*');
  if (allowAll && Object.keys(allowed).length === 1) return true;
  for (const [name, value] of lowered) {
    const list = own(allowed, name);
    if (list === undefined) {
      if (!allowAll) return false;
    } else if (!valueInList(value, list)) return false;
  }
  return true;
}

/** An empty list holds every value; a list value must have each item held; strings may match `*` globs. */
function valueInList(value: unknown, list: unknown[]): boolean {
  if (list.length === 0) return true;
  if (Array.isArray(value)) return value.every((v) => valueInList(v, list));
  return list.some((item) => (typeof item === 'string' && typeof value === 'string' ? globMatch(item, value) : isDeepStrictEqual(item, value)));
}

function globMatch(pattern: string, value: string): boolean {
  if (pattern === '*') return true;
  const starts = pattern.startsWith('*');
  const ends = pattern.endsWith('*') && pattern.length > 1;
  if (starts && ends) return value.includes(pattern.slice(1, -1));
  if (starts) return value.endsWith(pattern.slice(1));
  if (ends) return value.startsWith(pattern.slice(0, -1));
  return pattern === value;
}
