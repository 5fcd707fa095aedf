// The assembled store: physical storage, barrier, seal, namespaces, mount tables, and the access half (or the
// root-only authoriser until it is installed). One instance per service context.
import { randomBytes } from 'node:crypto';
import type { CacheBudget } from '../../../core/cache.ts';
import type { Database } from '../../../core/db/index.ts';
import type { Logger } from 'pino';
import type { Clock } from '../../../core/clock.ts';
import {
  type Auditor,
  type Authorizer,
  type BackendFactory,
  type MountKind,
  type Namespace,
  type SecretsCore,
  type SecretsPlugin,
  type SystemRoute,
} from '../contract.ts';
import { kvBackend } from '../kv/index.ts';
import { NamespaceRegistry, ROOT_NAMESPACE, namespacePrefix } from '../namespaces/registry.ts';
import { Seal, validateShareConfig, type InitResult } from '../seal/seal.ts';
import { Barrier } from '../storage/barrier.ts';
import { KeyLocks, LogicalStorage } from '../storage/logical.ts';
import { PhysicalStorage } from '../storage/physical.ts';
import { cubbyholeBackend, identityBackend } from './builtin-backends.ts';
import { ConfigStamp } from './config-stamp.ts';
import { MountTables } from './mount-table.ts';
import { rootOnlyAuthorizer } from './root-authorizer.ts';

export interface CoreOptions {
  db: Database;
  clock: Clock;
  log: Logger;
  plugin?: SecretsPlugin;
  /** Read-through cache of stored values (safe only when this process is the only writer). */
  storageCache?: boolean;
  /** Entries and bytes the storage cache may hold. */
  storageCacheBudget?: CacheBudget;
  /** Entries and bytes of compiled ACLs kept in memory. */
  aclCacheBudget?: CacheBudget;
}

export class StoreCore implements SecretsCore {
  readonly clock: Clock;
  readonly log: Logger;
  readonly physical: PhysicalStorage;
  readonly barrier: Barrier;
  readonly seal: Seal;
  readonly root: LogicalStorage;
  /** The system view of each namespace, by id (a namespace's storage prefix never changes). */
  readonly #systemViews = new Map<string, LogicalStorage>();
  readonly namespaces: NamespaceRegistry;
  readonly mounts: MountTables;
  readonly plugin?: SecretsPlugin;
  readonly authorizer: Authorizer;
  readonly auditor?: Auditor;
  readonly pluginRoutes: SystemRoute[];
  /** Tells instances sharing the database that mounts or namespaces changed (see config-stamp.ts). */
  readonly stamp: ConfigStamp;
  /** This process is the database's only writer (the storage cache is on): no other instance can change anything. */
  readonly soleWriter: boolean;
  readonly aclCacheBudget?: CacheBudget;
  /** Other caches to drop when the stamp moves (CORS). */
  readonly #staleListeners: Array<() => void> = [];
  #salt: Buffer | null = null;

  constructor(options: CoreOptions) {
    this.clock = options.clock;
    this.log = options.log;
    this.physical = new PhysicalStorage(options.db, { cache: options.storageCache, cacheBudget: options.storageCacheBudget });
    this.soleWriter = Boolean(options.storageCache);
    this.aclCacheBudget = options.aclCacheBudget;
    this.barrier = new Barrier(this.physical);
    this.seal = new Seal(this.physical, this.barrier);
    this.root = new LogicalStorage(this.barrier, '', new KeyLocks(), options.storageCache ? new WeakMap() : null);
    this.stamp = new ConfigStamp(
      () => this.root.view('sys/'),
      () => this.#dropCaches(),
    );
    this.namespaces = new NamespaceRegistry(this.root.view('sys/'), () => this.stamp.bump());
    this.plugin = options.plugin;
    const factories: Record<MountKind, Map<string, BackendFactory>> = {
      secret: new Map<string, BackendFactory>([
        ['kv', kvBackend],
        ['cubbyhole', cubbyholeBackend],
        ['identity', identityBackend],
        ['system', identityBackend],
        ...Object.entries(options.plugin?.logicalBackends ?? {}),
      ]),
      auth: new Map(Object.entries(options.plugin?.credentialBackends ?? {})),
    };
    this.mounts = new MountTables(
      (ns) => this.namespaceStorage(ns),
      factories,
      () => this,
      () => this.stamp.bump(),
    );
    const installed = options.plugin?.install(this);
    this.authorizer = installed?.authorizer ?? rootOnlyAuthorizer(this);
    this.auditor = installed?.auditor;
    this.pluginRoutes = options.plugin?.systemRoutes ?? [];
  }

  /** Registers a cache to drop when another instance changed the shared configuration. */
  onStale(listener: () => void): void {
    this.#staleListeners.push(listener);
  }

  #dropCaches(): void {
    this.mounts.invalidate();
    this.namespaces.invalidate();
    for (const l of this.#staleListeners) l();
  }

  namespaceStorage(ns: Namespace): LogicalStorage {
    return this.root.view(namespacePrefix(ns));
  }

  systemStorage(ns: Namespace): LogicalStorage {
    // Views hold no state of their own; every request asks for the system view (tokens, audit devices) several times.
    let view = this.#systemViews.get(ns.id);
    if (!view) this.#systemViews.set(ns.id, (view = this.namespaceStorage(ns).view('sys/')));
    return view;
  }

  namespaceById(id: string) {
    return this.namespaces.byId(id);
  }
  namespaceByPath(path: string) {
    return this.namespaces.byPath(path);
  }
  ancestors(ns: Namespace) {
    return this.namespaces.ancestors(ns);
  }

  async salt(): Promise<Buffer> {
    if (!this.#salt) {
      const store = this.systemStorage(ROOT_NAMESPACE);
      let stored = await store.get<string>('salt');
      if (!stored) {
        stored = randomBytes(32).toString('base64');
        await store.put('salt', stored);
      }
      this.#salt = Buffer.from(stored, 'base64');
    }
    return this.#salt;
  }

  /** Mounts what every namespace has (sys/, cubbyhole/, identity/, token auth) when missing. Idempotent. */
  async prepareNamespace(ns: Namespace): Promise<void> {
    const builtins: Array<{ kind: MountKind; path: string; type: string; description: string }> = [
      { kind: 'secret', path: 'cubbyhole/', type: 'cubbyhole', description: 'per-token private secret storage' },
      { kind: 'secret', path: 'identity/', type: 'identity', description: 'identity store' },
      { kind: 'secret', path: 'sys/', type: 'system', description: 'system endpoints used for control, policy and debugging' },
      { kind: 'auth', path: 'token/', type: 'token', description: 'token based credentials' },
    ];
    for (const b of builtins) {
      if (b.kind === 'auth' && !this.plugin?.credentialBackends[b.type]) continue;
      if (await this.mounts.get(ns, b.kind, b.path)) continue;
      await this.mounts.mount(ns, b.kind, { path: b.path, type: b.type, description: b.description }, true);
    }
    await this.plugin?.onNamespace?.(ns);
  }

  /** After the barrier opened: forget caches and make sure every namespace is complete. */
  async afterUnseal(): Promise<void> {
    this.#salt = null;
    this.stamp.forget();
    this.#dropCaches();
    await this.prepareNamespace(ROOT_NAMESPACE);
  }

  /** sys/init: validates as Vault does, splits the unseal key, issues a root token, leaves the store sealed. */
  async initialize(shares: number, threshold: number, rootTokenId?: string): Promise<InitResult & { rootToken: string }> {
    validateShareConfig(shares, threshold);
    let rootToken = '';
    const result = await this.seal.initialize(shares, threshold, this.clock.now(), async () => {
      await this.afterUnseal();
      rootToken = await this.authorizer.createRootToken(ROOT_NAMESPACE, rootTokenId);
    });
    this.mounts.invalidate();
    this.namespaces.invalidate();
    return { ...result, rootToken };
  }
}
