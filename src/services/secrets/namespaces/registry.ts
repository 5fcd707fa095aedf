// Namespaces: a tree of named scopes kept in the root namespace's storage. Each namespace has its own storage prefix,
// so its mounts, policies and tokens are separate. Cached in memory while unsealed.
import { randomBytes } from 'node:crypto';
import { SecretsError, badRequest, type Namespace } from '../contract.ts';
import type { LogicalStorage } from '../storage/logical.ts';

export const ROOT_NAMESPACE: Namespace = { id: 'root', path: '' };

interface StoredNamespace {
  id: string;
  path: string;
  parent_id: string;
  custom_metadata: Record<string, string>;
}

const RESERVED = new Set(['.', '..', 'root', 'sys', 'audit', 'auth', 'cubbyhole', 'identity']);

/** Storage prefix of a namespace's data inside the barrier. */
export const namespacePrefix = (ns: Namespace): string => (ns.id === ROOT_NAMESPACE.id ? '' : `namespaces/${ns.id}/`);

/** `a/b`, `/a/b/`, `a//b` → `a/b/`; `` for root. */
export function canonicalNamespacePath(path: string): string {
  if (path === '') return '';
  const parts = path.split('/').filter(Boolean);
  return parts.length ? parts.join('/') + '/' : '';
}

export function validateNamespaceName(name: string): void {
  if (!name || RESERVED.has(name) || /[\s/]/.test(name) || name.endsWith('.')) {
    throw badRequest(`invalid namespace name ${JSON.stringify(name)}`);
  }
}

export class NamespaceRegistry {
  readonly #storage: LogicalStorage;
  #byId: Map<string, StoredNamespace> | null = null;
  readonly #changed: () => Promise<void>;

  constructor(rootSystemStorage: LogicalStorage, changed: () => Promise<void> = async () => {}) {
    this.#storage = rootSystemStorage.view('core/namespaces/');
    this.#changed = changed;
  }

  invalidate(): void {
    this.#byId = null;
  }

  async #load(): Promise<Map<string, StoredNamespace>> {
    if (!this.#byId) {
      const map = new Map<string, StoredNamespace>();
      for (const id of await this.#storage.list('')) {
        const ns = await this.#storage.get<StoredNamespace>(id);
        if (ns) map.set(ns.id, ns);
      }
      this.#byId = map;
    }
    return this.#byId;
  }

  static toNamespace(s: StoredNamespace): Namespace {
    return { id: s.id, path: s.path, customMetadata: s.custom_metadata };
  }

  async byId(id: string): Promise<Namespace | undefined> {
    if (id === ROOT_NAMESPACE.id) return ROOT_NAMESPACE;
    const s = (await this.#load()).get(id);
    return s ? NamespaceRegistry.toNamespace(s) : undefined;
  }

  async byPath(path: string): Promise<Namespace | undefined> {
    const canonical = canonicalNamespacePath(path);
    if (canonical === '') return ROOT_NAMESPACE;
    for (const s of (await this.#load()).values()) if (s.path === canonical) return NamespaceRegistry.toNamespace(s);
    return undefined;
  }

  /** Direct children of `parent`, sorted by path. */
  async children(parent: Namespace): Promise<Namespace[]> {
    return [...(await this.#load()).values()]
      .filter((s) => s.parent_id === parent.id)
      .sort((a, b) => a.path.localeCompare(b.path))
      .map(NamespaceRegistry.toNamespace);
  }

  async ancestors(ns: Namespace): Promise<Namespace[]> {
    const out: Namespace[] = [];
    const map = await this.#load();
    let current = map.get(ns.id);
    while (current) {
      out.unshift(NamespaceRegistry.toNamespace(current));
      current = map.get(current.parent_id);
    }
    return [ROOT_NAMESPACE, ...out];
  }

  /** Splits `ns1/ns2/secret/x` into the deepest namespace named by leading segments and the rest. */
  async resolvePrefix(base: Namespace, path: string): Promise<{ namespace: Namespace; rest: string }> {
    let namespace = base;
    let rest = path;
    const map = await this.#load();
    if (map.size === 0) return { namespace, rest };
    for (;;) {
      const slash = rest.indexOf('/');
      if (slash <= 0) break;
      const candidate = namespace.path + rest.slice(0, slash + 1);
      const found = [...map.values()].find((s) => s.path === candidate);
      if (!found) break;
      namespace = NamespaceRegistry.toNamespace(found);
      rest = rest.slice(slash + 1);
    }
    return { namespace, rest };
  }

  async create(parent: Namespace, name: string, customMetadata: Record<string, string>): Promise<{ ns: Namespace; created: boolean }> {
    validateNamespaceName(name);
    const path = parent.path + name + '/';
    const existing = await this.byPath(path);
    if (existing) return { ns: existing, created: false };
    const map = await this.#load();
    let id = randomBytes(4).toString('base64url').slice(0, 5);
    while (map.has(id) || id === ROOT_NAMESPACE.id) id = randomBytes(4).toString('base64url').slice(0, 5);
    const stored: StoredNamespace = { id, path, parent_id: parent.id, custom_metadata: customMetadata };
    await this.#storage.put(id, stored);
    map.set(id, stored);
    await this.#changed();
    return { ns: NamespaceRegistry.toNamespace(stored), created: true };
  }

  async updateMetadata(ns: Namespace, customMetadata: Record<string, string>): Promise<Namespace> {
    const map = await this.#load();
    const s = map.get(ns.id);
    if (!s) throw new SecretsError(404, []);
    const next = { ...s, custom_metadata: customMetadata };
    await this.#storage.put(ns.id, next);
    map.set(ns.id, next);
    await this.#changed();
    return NamespaceRegistry.toNamespace(next);
  }

  async remove(ns: Namespace): Promise<void> {
    await this.#storage.delete(ns.id);
    (await this.#load()).delete(ns.id);
    await this.#changed();
  }
}
