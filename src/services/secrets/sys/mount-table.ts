// The mount tables (secret engines and auth methods) of every namespace, their backends, and path resolution.
// Entries live in the namespace's system storage; each mount's data lives under its own uuid prefix.
import { randomUUID } from 'node:crypto';
import {
  SecretsError,
  badRequest,
  type Backend,
  type BackendFactory,
  type MountConfig,
  type MountEntry,
  type MountInput,
  type MountKind,
  type MountTable,
  type Namespace,
  type SecretsCore,
} from '../contract.ts';
import { parseBool, parseDurationSeconds, parseStringList } from '../http/fields.ts';
import type { LogicalStorage } from '../storage/logical.ts';

/** Engine types that are built in and cannot be mounted or unmounted by users. */
const SINGLETONS = new Set(['system', 'identity', 'cubbyhole', 'token']);
/** Paths no user mount may take (relative to a namespace). */
const RESERVED_SECRET_PATHS = ['sys/', 'auth/', 'cubbyhole/', 'identity/'];

const TABLE_KEY: Record<MountKind, string> = { secret: 'core/mounts', auth: 'core/auth' };
const STORAGE_ROOT: Record<MountKind, string> = { secret: 'logical/', auth: 'auth/' };

export interface MountedBackend {
  entry: MountEntry;
  backend: Backend;
  kind: MountKind;
  /** The mount's own storage (what its backend was given), kept with it: every request to the mount is handed it. */
  storage: LogicalStorage;
}

/** `secret`, `/secret`, `secret//` → `secret/`. */
export function canonicalMountPath(path: string): string {
  const trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '');
  return trimmed === '' ? '' : trimmed.replace(/\/{2,}/g, '/') + '/';
}

const TYPE_ALIASES: Record<string, { type: string; version?: string }> = {
  generic: { type: 'kv' },
  'kv-v1': { type: 'kv', version: '1' },
  'kv-v2': { type: 'kv', version: '2' },
};

export class MountTables implements MountTable {
  /** The root of a namespace's storage; its system view is `sys/` below it. */
  readonly #nsStorage: (ns: Namespace) => LogicalStorage;
  readonly #factories: Record<MountKind, Map<string, BackendFactory>>;
  readonly #core: () => SecretsCore;
  /** Per namespace and kind: the entries and their live backends. */
  readonly #cache = new Map<string, MountedBackend[]>();
  readonly #changed: () => Promise<void>;

  constructor(
    nsStorage: (ns: Namespace) => LogicalStorage,
    factories: Record<MountKind, Map<string, BackendFactory>>,
    core: () => SecretsCore,
    changed: () => Promise<void> = async () => {},
  ) {
    this.#nsStorage = nsStorage;
    this.#factories = factories;
    this.#core = core;
    this.#changed = changed;
  }

  invalidate(): void {
    this.#cache.clear();
  }

  #dataStorage(ns: Namespace, kind: MountKind, entry: MountEntry): LogicalStorage {
    return this.#nsStorage(ns).view(`${STORAGE_ROOT[kind]}${entry.uuid}/`);
  }

  async #mounted(ns: Namespace, kind: MountKind): Promise<MountedBackend[]> {
    const key = `${ns.id}|${kind}`;
    let mounted = this.#cache.get(key);
    if (!mounted) {
      const entries = (await this.#nsStorage(ns).view('sys/').get<MountEntry[]>(TABLE_KEY[kind])) ?? [];
      mounted = entries.map((entry) => this.#mountedBackend(ns, kind, entry));
      this.#cache.set(key, mounted);
    }
    return mounted;
  }

  #mountedBackend(ns: Namespace, kind: MountKind, entry: MountEntry): MountedBackend {
    const storage = this.#dataStorage(ns, kind, entry);
    return { entry, kind, storage, backend: this.#instantiate(ns, kind, entry, storage) };
  }

  #instantiate(ns: Namespace, kind: MountKind, entry: MountEntry, storage: LogicalStorage): Backend {
    const factory = this.#factories[kind].get(entry.type);
    if (!factory) {
      return {
        async handle() {
          throw new SecretsError(500, `no backend of type ${JSON.stringify(entry.type)} is available`);
        },
      };
    }
    return factory({ mount: entry, namespace: ns, storage, core: this.#core() });
  }

  async #save(ns: Namespace, kind: MountKind, mounted: MountedBackend[]): Promise<void> {
    await this.#nsStorage(ns).view('sys/').put(
      TABLE_KEY[kind],
      mounted.map((m) => m.entry),
    );
    this.#cache.set(`${ns.id}|${kind}`, mounted);
    await this.#changed();
  }

  /** The live backends of a namespace (for documents that span every mount). */
  async backends(ns: Namespace, kind: MountKind): Promise<MountedBackend[]> {
    return [...(await this.#mounted(ns, kind))];
  }

  async list(ns: Namespace, kind: MountKind): Promise<MountEntry[]> {
    return (await this.#mounted(ns, kind)).map((m) => m.entry);
  }

  async get(ns: Namespace, kind: MountKind, path: string): Promise<MountEntry | undefined> {
    const p = canonicalMountPath(path);
    return (await this.#mounted(ns, kind)).find((m) => m.entry.path === p)?.entry;
  }

  /** Longest mount whose path prefixes `path` (relative to the namespace; for auth, relative to `auth/`). */
  async resolve(ns: Namespace, kind: MountKind, path: string): Promise<MountedBackend | undefined> {
    let best: MountedBackend | undefined;
    for (const m of await this.#mounted(ns, kind)) {
      if ((path === m.entry.path.slice(0, -1) || path.startsWith(m.entry.path)) && (!best || m.entry.path.length > best.entry.path.length)) best = m;
    }
    return best;
  }

  async mount(ns: Namespace, kind: MountKind, input: MountInput, builtin = false): Promise<MountEntry> {
    const path = canonicalMountPath(input.path);
    if (!path) throw badRequest('missing mount path');
    if (/[^\w\-./]/.test(path) || path.split('/').some((s) => s === '.' || s === '..')) throw badRequest(`invalid mount path ${JSON.stringify(input.path)}`);
    if (typeof input.type !== 'string' || !input.type) throw badRequest('backend type must be specified as a string');
    const alias = TYPE_ALIASES[input.type];
    const type = alias?.type ?? input.type;
    if (!builtin && SINGLETONS.has(type)) throw badRequest(`mount type of "${type}" is not mountable`);
    if (!this.#factories[kind].has(type)) {
      throw badRequest(kind === 'auth' ? `unknown backend type: "${type}"` : `plugin not found in the catalog: ${type}`);
    }
    if (kind === 'secret' && !builtin && RESERVED_SECRET_PATHS.some((r) => path.startsWith(r))) {
      throw badRequest(`cannot mount under reserved path ${JSON.stringify(path)}`);
    }
    const mounted = await this.#mounted(ns, kind);
    const clash = mounted.find((m) => m.entry.path.startsWith(path) || path.startsWith(m.entry.path));
    if (clash) throw new SecretsError(409, `path is already in use at ${kind === 'auth' ? 'auth/' : ''}${clash.entry.path}`);
    let options: Record<string, string> | null = normaliseOptions(input.options);
    if (alias?.version) options = { ...(options ?? {}), version: alias.version };
    if (type === 'kv' && options?.version === undefined) options = { ...(options ?? {}), version: '1' };
    const entry: MountEntry = {
      path,
      type,
      description: typeof input.description === 'string' ? input.description : '',
      accessor: `${type}_${randomUUID().slice(0, 8)}`,
      uuid: randomUUID(),
      local: input.local ?? false,
      seal_wrap: input.seal_wrap ?? false,
      external_entropy_access: false,
      config: applyConfig({ default_lease_ttl: 0, max_lease_ttl: 0, force_no_cache: false }, input.config ?? {}),
      options,
      plugin_version: '',
      running_plugin_version: `v0.0.0+builtin`,
    };
    await this.#save(ns, kind, [...mounted, this.#mountedBackend(ns, kind, entry)]);
    return entry;
  }

  async unmount(ns: Namespace, kind: MountKind, path: string): Promise<void> {
    const p = canonicalMountPath(path);
    const mounted = await this.#mounted(ns, kind);
    const found = mounted.find((m) => m.entry.path === p);
    if (!found) return;
    if (SINGLETONS.has(found.entry.type)) throw badRequest(`cannot unmount "${p}"`);
    await this.#save(
      ns,
      kind,
      mounted.filter((m) => m !== found),
    );
    await found.backend.cleanup?.();
    await this.#dataStorage(ns, kind, found.entry).clear();
  }

  /** Moves a mount (keeping its uuid, so its data follows). */
  async remount(ns: Namespace, kind: MountKind, from: string, to: string): Promise<MountEntry> {
    const src = canonicalMountPath(from);
    const dst = canonicalMountPath(to);
    const mounted = await this.#mounted(ns, kind);
    const found = mounted.find((m) => m.entry.path === src);
    if (!found) throw badRequest(`no matching mount at "${src}"`);
    if (SINGLETONS.has(found.entry.type)) throw badRequest(`cannot remount "${src}"`);
    if (!dst || /[^\w\-./]/.test(dst)) throw badRequest(`invalid destination path ${JSON.stringify(to)}`);
    if (kind === 'secret' && RESERVED_SECRET_PATHS.some((r) => dst.startsWith(r))) throw badRequest(`cannot remount to reserved path "${dst}"`);
    const clash = mounted.find((m) => m !== found && (m.entry.path.startsWith(dst) || dst.startsWith(m.entry.path)));
    if (clash) throw badRequest(`path already in use at "${clash.entry.path}"`);
    const entry = { ...found.entry, path: dst };
    await this.#save(
      ns,
      kind,
      mounted.map((m) => (m === found ? this.#mountedBackend(ns, kind, entry) : m)),
    );
    return entry;
  }

  async tune(ns: Namespace, kind: MountKind, path: string, input: Record<string, unknown>): Promise<MountEntry> {
    const p = canonicalMountPath(path);
    const mounted = await this.#mounted(ns, kind);
    const found = mounted.find((m) => m.entry.path === p);
    if (!found) throw badRequest(`cannot tune "${p}": no mount at that path`);
    const entry: MountEntry = { ...found.entry, config: applyConfig({ ...found.entry.config }, input) };
    if (typeof input.description === 'string') entry.description = input.description;
    if (input.options !== undefined && input.options !== null) {
      const options = normaliseOptions(input.options) ?? {};
      const merged = { ...(entry.options ?? {}), ...options };
      if (entry.type === 'kv' && found.entry.options?.version === '2' && merged.version === '1') {
        throw badRequest('cannot downgrade mount from KV version 2 to version 1');
      }
      entry.options = merged;
    }
    await this.#save(
      ns,
      kind,
      mounted.map((m) => (m === found ? this.#mountedBackend(ns, kind, entry) : m)),
    );
    return entry;
  }
}

function normaliseOptions(value: unknown): Record<string, string> | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('options must be a map');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else throw badRequest(`option ${JSON.stringify(k)} must be a string`);
  }
  if (out.version !== undefined && !['1', '2'].includes(out.version)) throw badRequest(`invalid KV version ${JSON.stringify(out.version)}`);
  return out;
}

/** Applies the tunable config fields of a mount (durations lenient; "system" = 0 = default). */
function applyConfig(config: MountConfig, input: Record<string, unknown>): MountConfig {
  const duration = (v: unknown, f: string) => (v === 'system' ? 0 : parseDurationSeconds(v, f));
  if (typeof input !== 'object' || input === null) throw badRequest('config must be a map');
  if (input.default_lease_ttl !== undefined) config.default_lease_ttl = duration(input.default_lease_ttl, 'default_lease_ttl');
  if (input.max_lease_ttl !== undefined) config.max_lease_ttl = duration(input.max_lease_ttl, 'max_lease_ttl');
  if (config.max_lease_ttl && config.default_lease_ttl > config.max_lease_ttl) {
    throw badRequest('default lease TTL cannot be greater than max lease TTL');
  }
  if (input.force_no_cache !== undefined) config.force_no_cache = parseBool(input.force_no_cache, 'force_no_cache');
  if (input.listing_visibility !== undefined) {
    if (!['', 'hidden', 'unauth'].includes(String(input.listing_visibility))) throw badRequest('invalid listing_visibility');
    config.listing_visibility = String(input.listing_visibility);
  }
  for (const f of ['audit_non_hmac_request_keys', 'audit_non_hmac_response_keys', 'passthrough_request_headers', 'allowed_response_headers'] as const) {
    if (input[f] !== undefined) config[f] = parseStringList(input[f], f);
  }
  if (input.token_type !== undefined) config.token_type = String(input.token_type);
  return config;
}
