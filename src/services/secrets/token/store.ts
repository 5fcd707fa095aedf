// Durable token storage in each namespace's system view. A token is kept only under its salted hash; accessors map
// to that hash; a parent keeps an index of its children so revocation cascades. Expiry is decided on read from the
// clock: an expired token (or one whose parent chain is gone or expired) is revoked with its children and refused.
// A wrapping token's payload (the wrapped response) is kept beside it and removed with it.
import { boundedCache } from '../../../core/cache.ts';
import { hmacSha256 } from '../../../core/crypto.ts';
import type { BarrierStorage, Namespace, SecretsCore, TokenSummary } from '../contract.ts';
import { guardedUpdate } from './guarded-update.ts';
import { decodeBatchToken, encodeBatchToken } from './batch-codec.ts';
import { isBatch, isExpired, isWrappingToken, namespaceIdOf, newAccessor, newTokenId, type TokenEntry } from './entry.ts';

interface AccessorIndex {
  accessor: string;
  hash: string;
}

interface ChildIndex {
  namespaceId: string;
}

export interface LookupOptions {
  /** Accept a token whose last use was spent by the current request. */
  allowSpent?: boolean;
}

/** Hashes of recently presented tokens and accessors: every request hashes its token before it can look it up. */
const HASH_CACHE_BUDGET = { entries: 10_000, bytes: 4 * 1024 * 1024 };

export class TokenStore {
  readonly #core: SecretsCore;
  readonly #hashes = boundedCache<string, string>(HASH_CACHE_BUDGET, (hash) => hash.length * 2);
  /** The salt the cached hashes were made with: a new salt (the barrier reopened, state imported) empties the cache. */
  #hashedWith: Buffer | undefined;

  constructor(core: SecretsCore) {
    this.#core = core;
  }

  async hash(value: string, kind: 'token' | 'accessor' = 'token'): Promise<string> {
    const salt = await this.#saltValue();
    if (salt !== this.#hashedWith) {
      this.#hashes.clear();
      this.#hashedWith = salt;
    }
    const input = `${kind}:${value}`;
    let hash = this.#hashes.get(input);
    if (hash === undefined) {
      hash = hmacSha256(salt, input).toString('hex');
      this.#hashes.set(input, hash);
    }
    return hash;
  }

  async #view(namespaceId: string): Promise<BarrierStorage | undefined> {
    const ns = await this.#core.namespaceById(namespaceId);
    // Asked for the token and each of its ancestors on every request.
    return ns ? this.#core.systemStorage(ns).keptView('token/') : undefined;
  }

  // The core keeps the salt and forgets it whenever the barrier opens, so state replaced underneath (an import) is
  // hashed with its own salt.
  #saltValue(): Promise<Buffer> {
    return this.#core.salt();
  }

  /** Stores a new token; returns its id (generated unless given). Batch tokens are sealed, not stored. */
  async create(fields: Omit<TokenEntry, 'hash' | 'accessor'>, id?: string): Promise<{ id: string; entry: TokenEntry }> {
    if (isBatch(fields)) {
      const batchId = encodeBatchToken(await this.#saltValue(), fields);
      return { id: batchId, entry: { ...fields, hash: '', accessor: '' } };
    }
    const view = await this.#view(fields.namespaceId);
    if (!view) throw new Error(`namespace ${fields.namespaceId} does not exist`);
    const tokenId = id ?? newTokenId(fields.namespaceId);
    const entry: TokenEntry = { ...fields, hash: await this.hash(tokenId), accessor: newAccessor(fields.namespaceId) };
    await view.put(`id/${entry.hash}`, entry);
    await view.put(`accessor/${await this.hash(entry.accessor, 'accessor')}`, { accessor: entry.accessor, hash: entry.hash } satisfies AccessorIndex);
    if (entry.parentHash && entry.parentNamespaceId) {
      const parentView = await this.#view(entry.parentNamespaceId);
      await parentView?.put(`parent/${entry.parentHash}/${entry.hash}`, { namespaceId: entry.namespaceId } satisfies ChildIndex);
    }
    return { id: tokenId, entry };
  }

  /** The live entry of a token id, or undefined (unknown, expired, spent, or orphaned by an expired parent). */
  async lookup(id: string, opts: LookupOptions = {}): Promise<TokenEntry | undefined> {
    if (!id) return undefined;
    if (id.startsWith('hvb.')) return this.#liveBatch(id);
    return this.#live(namespaceIdOf(id), await this.hash(id), opts);
  }

  /** A batch token lives until its expiry, and no longer than its parent (if it has one). */
  async #liveBatch(id: string): Promise<TokenEntry | undefined> {
    const fields = decodeBatchToken(await this.#saltValue(), id);
    if (!fields || namespaceIdOf(id) !== fields.namespaceId) return undefined;
    const entry: TokenEntry = { ...fields, hash: '', accessor: '' };
    const now = this.#core.clock.now();
    if (isExpired(entry, now) || !(await this.#ancestorsLive(entry, now))) return undefined;
    return entry;
  }

  async lookupByAccessor(accessor: string, namespaceId = namespaceIdOf(accessor)): Promise<TokenEntry | undefined> {
    if (!accessor) return undefined;
    const view = await this.#view(namespaceId);
    const index = await view?.get<AccessorIndex>(`accessor/${await this.hash(accessor, 'accessor')}`);
    return index ? this.#live(namespaceId, index.hash, {}) : undefined;
  }

  async #live(namespaceId: string, hash: string, opts: LookupOptions): Promise<TokenEntry | undefined> {
    const view = await this.#view(namespaceId);
    const entry = await view?.get<TokenEntry>(`id/${hash}`);
    if (!entry) return undefined;
    const now = this.#core.clock.now();
    if (isExpired(entry, now) || (entry.numUses === -1 && !opts.allowSpent) || !(await this.#ancestorsLive(entry, now))) {
      await this.revokeTree(entry);
      return undefined;
    }
    return entry;
  }

  /** Children die with their parents: a child whose parent is gone or expired is not live. */
  async #ancestorsLive(entry: TokenEntry, now: number): Promise<boolean> {
    let current = entry;
    for (let depth = 0; current.parentHash && current.parentNamespaceId && depth < 64; depth++) {
      const view = await this.#view(current.parentNamespaceId);
      const parent = await view?.get<TokenEntry>(`id/${current.parentHash}`);
      if (!parent || isExpired(parent, now)) return false;
      current = parent;
    }
    return true;
  }

  async save(entry: TokenEntry): Promise<void> {
    const view = await this.#view(entry.namespaceId);
    await view?.put(`id/${entry.hash}`, entry);
  }

  /**
   * Counts one use of a limited-use token; the last use marks it spent (refused afterwards). The write is guarded by
   * the stored revision, so two instances racing for the last use cannot both win.
   */
  async use(entry: TokenEntry): Promise<TokenEntry | undefined> {
    if (entry.numUses === 0) return entry;
    const view = await this.#view(entry.namespaceId);
    if (!view) return undefined;
    const key = `id/${entry.hash}`;
    const result = await view.locked(key, () =>
      guardedUpdate(view, key, (fresh: TokenEntry) => (fresh.numUses === -1 ? undefined : { ...fresh, numUses: fresh.numUses === 1 ? -1 : fresh.numUses - 1 })),
    );
    return result?.next ?? undefined;
  }

  /** Keeps the payload of a wrapping token beside it, until the token is revoked or taken. */
  async putWrapped(entry: TokenEntry, payload: unknown): Promise<void> {
    const view = await this.#view(entry.namespaceId);
    await view?.put(`wrapped/${entry.hash}`, payload);
  }

  /** The payload of a wrapping token (undefined when it has none). */
  async wrapped(entry: TokenEntry): Promise<unknown> {
    return (await this.#view(entry.namespaceId))?.get(`wrapped/${entry.hash}`);
  }

  /**
   * The payload of a wrapping token, once: its removal is guarded by the revision read, so of two requests (on any
   * instances) only one gets it; the token is then revoked.
   */
  async takeWrapped(entry: TokenEntry): Promise<unknown> {
    const view = await this.#view(entry.namespaceId);
    if (!view) return undefined;
    const key = `wrapped/${entry.hash}`;
    const taken = await view.locked(key, () => guardedUpdate(view, key, () => null));
    if (!taken) return undefined;
    await this.revokeTree(entry);
    return taken.previous;
  }

  /** Revokes a token and, depth first, every descendant. */
  async revokeTree(entry: TokenEntry): Promise<void> {
    if (isBatch(entry)) return;
    const view = await this.#view(entry.namespaceId);
    if (!view) return;
    for (const { child } of await this.#children(view, entry)) if (child) await this.revokeTree(child);
    await this.#remove(view, entry);
  }

  /** Revokes only this token; its children become orphans. */
  async revokeOrphan(entry: TokenEntry): Promise<void> {
    const view = await this.#view(entry.namespaceId);
    if (!view) return;
    for (const { child, childView } of await this.#children(view, entry)) {
      if (child && childView) await childView.put(`id/${child.hash}`, { ...child, parentHash: null, parentNamespaceId: null });
    }
    await this.#remove(view, entry);
  }

  /** The children of a token (entries may be gone already); their index links are removed as they are read. */
  async #children(view: BarrierStorage, entry: TokenEntry): Promise<Array<{ child?: TokenEntry; childView?: BarrierStorage }>> {
    const out: Array<{ child?: TokenEntry; childView?: BarrierStorage }> = [];
    for (const childHash of await view.list(`parent/${entry.hash}/`)) {
      const index = await view.get<ChildIndex>(`parent/${entry.hash}/${childHash}`);
      const childView = index ? await this.#view(index.namespaceId) : undefined;
      out.push({ child: await childView?.get<TokenEntry>(`id/${childHash}`), childView });
      await view.delete(`parent/${entry.hash}/${childHash}`);
    }
    return out;
  }

  async #remove(view: BarrierStorage, entry: TokenEntry): Promise<void> {
    await view.delete(`id/${entry.hash}`);
    await view.delete(`accessor/${await this.hash(entry.accessor, 'accessor')}`);
    if (isWrappingToken(entry)) await view.delete(`wrapped/${entry.hash}`);
    if (entry.parentHash && entry.parentNamespaceId) {
      const parentView = await this.#view(entry.parentNamespaceId);
      await parentView?.delete(`parent/${entry.parentHash}/${entry.hash}`);
    }
  }

  /** Accessors of the live tokens of a namespace. */
  async accessors(ns: Namespace): Promise<string[]> {
    const view = this.#core.systemStorage(ns).view('token/');
    const out: string[] = [];
    const now = this.#core.clock.now();
    for (const key of await view.list('accessor/')) {
      const index = await view.get<AccessorIndex>(`accessor/${key}`);
      const entry = index ? await view.get<TokenEntry>(`id/${index.hash}`) : undefined;
      if (index && entry && !isExpired(entry, now) && entry.numUses !== -1) out.push(index.accessor);
    }
    return out.sort();
  }

  /**
   * Sweeps a namespace: revokes expired and spent tokens and those whose parents are gone, and drops accessor and
   * child index entries that point at nothing. Returns how many tokens were revoked.
   */
  async tidy(ns: Namespace): Promise<number> {
    const view = this.#core.systemStorage(ns).view('token/');
    let revoked = 0;
    for (const hash of await view.list('id/')) {
      const entry = await view.get<TokenEntry>(`id/${hash}`);
      if (entry && !(await this.#live(ns.id, hash, {}))) revoked++;
    }
    for (const key of await view.list('accessor/')) {
      const index = await view.get<AccessorIndex>(`accessor/${key}`);
      if (!index || !(await view.get(`id/${index.hash}`))) await view.delete(`accessor/${key}`);
    }
    for (const parent of await view.list('parent/')) {
      for (const child of await view.list(`parent/${parent}`)) {
        const index = await view.get<ChildIndex>(`parent/${parent}${child}`);
        const childView = index ? await this.#view(index.namespaceId) : undefined;
        if (!(await childView?.get(`id/${child}`))) await view.delete(`parent/${parent}${child}`);
      }
    }
    return revoked;
  }

  /** Removes every token of a namespace that is being deleted (children elsewhere lose their parent and die). */
  async purgeNamespace(ns: Namespace): Promise<void> {
    const view = this.#core.systemStorage(ns).view('token/');
    for (const hash of await view.list('id/')) {
      const entry = await view.get<TokenEntry>(`id/${hash}`);
      if (entry) await this.revokeTree(entry);
    }
  }

  static summary(entry: TokenEntry, id: string): TokenSummary {
    return {
      id,
      accessor: entry.accessor,
      policies: entry.policies,
      namespaceId: entry.namespaceId,
      path: entry.path,
      displayName: entry.displayName,
      entityId: entry.entityId,
    };
  }
}
