// ACL policies per namespace, kept in the namespace's system view with their text and parsed rules (so a request
// never re-parses). Compiled ACLs are cached per namespace, policy set and the namespace's policy stamp: every write
// or delete stores a new stamp, so instances sharing one database never use an ACL older than the stored policies.
import { randomUUID } from 'node:crypto';
import { boundedCache, type CacheBudget } from '../../../core/cache.ts';
import type { BarrierStorage, Namespace, SecretsCore } from '../contract.ts';
import { Acl } from './acl.ts';
import { DEFAULT_POLICY_RULES, DEFAULT_POLICY_TEXT, RESPONSE_WRAPPING_POLICY_RULES, RESPONSE_WRAPPING_POLICY_TEXT } from './builtin.ts';
import { parsePolicyText } from './parse.ts';
import { DEFAULT_POLICY, RESPONSE_WRAPPING_POLICY, ROOT_POLICY, type PathRule, type Policy } from './policy.ts';

export interface StoredPolicy {
  name: string;
  text: string;
  rules: PathRule[];
}

/** The default budget of compiled ACLs kept in memory (`services.secrets.aclCacheBudget`). */
export const DEFAULT_ACL_CACHE_BUDGET: CacheBudget = { entries: 1_000, bytes: 16 * 1024 * 1024 };

/** What a compiled ACL costs: its policies' rules, measured as their serialised size. */
const aclBytes = (policies: Policy[]): number => policies.reduce((n, p) => n + JSON.stringify(p.rules).length * 2, 0);

export class PolicyStore {
  readonly #core: SecretsCore;
  readonly #acls: ReturnType<typeof boundedCache<string, { acl: Acl; bytes: number }>>;

  constructor(core: SecretsCore) {
    this.#core = core;
    this.#acls = boundedCache(core.aclCacheBudget ?? DEFAULT_ACL_CACHE_BUDGET, (entry) => entry.bytes);
  }

  #view(ns: Namespace) {
    return this.#core.systemStorage(ns).view('policy/acl/');
  }

  #stampStorage(ns: Namespace): BarrierStorage {
    // Read on every authorised request.
    return this.#core.systemStorage(ns).keptView('policy/');
  }

  async #restamp(ns: Namespace): Promise<void> {
    await this.#stampStorage(ns).put('stamp', randomUUID());
  }

  async get(ns: Namespace, name: string): Promise<StoredPolicy | undefined> {
    if (name === ROOT_POLICY) return { name, text: '', rules: [] };
    // fixed: a policy written under this name is never what a wrapping token holds
    if (name === RESPONSE_WRAPPING_POLICY) return { name, text: RESPONSE_WRAPPING_POLICY_TEXT, rules: structuredClone(RESPONSE_WRAPPING_POLICY_RULES) as PathRule[] };
    const stored = await this.#view(ns).get<StoredPolicy>(name);
    // `default` always exists: until it is seeded or edited, it is the standard one
    if (!stored && name === DEFAULT_POLICY) return { name, text: DEFAULT_POLICY_TEXT, rules: defaultRules() };
    return stored;
  }

  /** Parses (throws PolicyParseError) and stores. */
  async put(ns: Namespace, name: string, text: string): Promise<void> {
    await this.#store(ns, name, text, await parsePolicyText(text));
  }

  async #store(ns: Namespace, name: string, text: string, rules: PathRule[]): Promise<void> {
    await this.#view(ns).put(name, { name, text, rules } satisfies StoredPolicy);
    await this.#restamp(ns);
  }

  async delete(ns: Namespace, name: string): Promise<void> {
    await this.#view(ns).delete(name);
    await this.#restamp(ns);
  }

  /** Stored names plus `default` (always there) and, in the root namespace, `root`; sorted. */
  async list(ns: Namespace): Promise<string[]> {
    const names = (await this.#view(ns).list('')).filter((n) => !n.endsWith('/'));
    return [...new Set([...names, DEFAULT_POLICY, ...(ns.id === 'root' ? [ROOT_POLICY] : [])])].sort();
  }

  /** Seeds the default policy of a namespace once (later edits are kept). */
  async seed(ns: Namespace): Promise<void> {
    if (!(await this.#view(ns).get(DEFAULT_POLICY))) await this.#store(ns, DEFAULT_POLICY, DEFAULT_POLICY_TEXT, defaultRules());
  }

  /** The ACL of a set of policy names in a namespace; unknown names contribute nothing. */
  async acl(ns: Namespace, names: readonly string[]): Promise<Acl> {
    const stamp = (await this.#stampStorage(ns).get<string>('stamp')) ?? 'unwritten';
    const key = `${ns.id}\u0000${stamp}\u0000${names.join(',')}`;
    const cached = this.#acls.get(key);
    if (cached) return cached.acl;
    const policies: Policy[] = [];
    for (const name of names) {
      const stored = await this.get(ns, name);
      if (stored) policies.push({ name: stored.name, rules: stored.rules });
    }
    const acl = new Acl(policies);
    this.#acls.set(key, { acl, bytes: aclBytes(policies) });
    return acl;
  }

  /** Forgets cached ACLs (namespace changes). */
  invalidate(): void {
    this.#acls.clear();
  }
}

/** A copy of the default policy's rules: stored and cached policies must not share the constant's objects. */
const defaultRules = (): PathRule[] => structuredClone(DEFAULT_POLICY_RULES) as PathRule[];
