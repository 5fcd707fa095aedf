// KV version 2: versioned secrets under data/, metadata/, delete/, undelete/, destroy/, subkeys/ and config.
import {
  SecretsError,
  StorageConflictError,
  badRequest,
  notFound,
  unsupportedOperation,
  type Backend,
  type BackendContext,
  type BarrierStorage,
  type LogicalRequest,
  type LogicalResponse,
} from '../contract.ts';
import { formatDuration, parseBool, parseDurationSeconds, parseInteger } from '../http/fields.ts';
import { decodeCustomMetadata, validateCustomMetadata } from './custom-metadata.ts';
import { kvHelp } from './help.ts';
import {
  DEFAULT_CONFIG,
  addVersion,
  checkCas,
  isDeleted,
  mergePatch,
  newMetadata,
  parseVersions,
  scheduledDeletion,
  softDelete,
  subkeys,
  type EngineConfig,
  type KeyMetadata,
  type VersionMeta,
} from './v2-rules.ts';

const CAS_REQUIRED_BY_ENGINE_WARNING =
  "cas_required is false for this key, but the engine's configuration requires check-and-set, so it still applies";

export const V2_BARE_PATH_WARNING =
  "Invalid path for a versioned K/V secrets engine. See the API docs for the appropriate API endpoints to use. If using the Vault CLI, use 'vault kv get' for this operation.";

/** Fields a data/ write understands; others are ignored with a warning, as Vault does. */
const DATA_FIELDS = new Set(['data', 'options', 'version']);

const PREFIXES = ['data/', 'metadata/', 'delete/', 'undelete/', 'destroy/', 'subkeys/'] as const;

export function kvV2(ctx: BackendContext): Backend {
  const root = ctx.storage.view('kv2/');
  const metaStore = root.view('meta/');
  const versionStore = root.view('ver/');
  const now = () => ctx.core.clock.now();

  const config = async (): Promise<EngineConfig> => ({ ...DEFAULT_CONFIG, ...((await root.get<EngineConfig>('config')) ?? {}) });
  const versionKey = (key: string, n: number) => `${key}/${n}`;

  const split = (path: string): { prefix: (typeof PREFIXES)[number] | 'config' | null; key: string } => {
    if (path === 'config') return { prefix: 'config', key: '' };
    for (const p of PREFIXES) if (path.startsWith(p)) return { prefix: p, key: path.slice(p.length) };
    if (path + '/' === 'metadata/' || path + '/' === 'data/') return { prefix: (path + '/') as 'data/', key: '' };
    return { prefix: null, key: path };
  };

  const metadataView = (meta: KeyMetadata, v: VersionMeta | undefined, version: number) => ({
    created_time: v?.created_time ?? '',
    custom_metadata: meta.custom_metadata,
    deletion_time: v?.deletion_time ?? '',
    destroyed: v?.destroyed ?? false,
    version,
  });

  const requireKey = (key: string) => {
    if (key === '' || key.endsWith('/')) throw badRequest('missing path');
  };

  async function readData(req: LogicalRequest, key: string): Promise<LogicalResponse> {
    requireKey(key);
    const meta = await metaStore.get<KeyMetadata>(key);
    if (!meta) throw notFound();
    const wanted = req.data.version === undefined ? 0 : parseInteger(req.data.version, 'version');
    const version = wanted || meta.current_version;
    const v = meta.versions[String(version)];
    if (!v) throw notFound();
    const metadata = metadataView(meta, v, version);
    if (v.destroyed || isDeleted(v, now())) {
      throw new SecretsError(404, [], { data: { data: null, metadata } });
    }
    const data = await versionStore.get<Record<string, unknown>>(versionKey(key, version));
    return { data: { data: data ?? null, metadata } };
  }

  /**
   * Read-modify-write of a key's metadata: serialised within this process, and guarded in the database by the
   * metadata's revision so that instances sharing it cannot both win. `build` returns the writes (which must include
   * the metadata) and the result; a lost race is retried, or reported as a CAS mismatch when the caller gave `cas`.
   */
  async function updateKey<T>(
    key: string,
    build: (existing: KeyMetadata | undefined) => Promise<{ ops: Array<{ key: string; value?: unknown }>; result: T } | null>,
    casGiven = false,
  ): Promise<T | null> {
    return metaStore.locked(key, async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const { value: existing, revision } = await root.read<KeyMetadata>(`meta/${key}`);
        const plan = await build(existing);
        if (!plan) return null;
        try {
          await root.batch(plan.ops, { key: `meta/${key}`, revision });
          return plan.result;
        } catch (err) {
          if (!(err instanceof StorageConflictError)) throw err;
          if (casGiven) throw badRequest('check-and-set parameter did not match the current version');
        }
      }
      throw new SecretsError(409, `too many concurrent changes to ${JSON.stringify(key)}; retry`);
    });
  }

  async function writeData(req: LogicalRequest, key: string, patch: boolean): Promise<LogicalResponse> {
    requireKey(key);
    const body = req.data.data;
    if (body === undefined || body === null) throw badRequest('no data provided');
    if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('data must be a JSON object');
    const options = req.data.options;
    if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) throw badRequest('options must be a map');
    const cas = (options as Record<string, unknown> | undefined)?.cas;
    const cfg = await config();
    const result = await updateKey(
      key,
      async (existing) => {
        let data = body as Record<string, unknown>;
        if (patch) {
          // Vault's order: missing key, then check-and-set (engine and key cas_required both apply), then the
          // latest version's state; a deleted or destroyed one answers 404 carrying its metadata.
          if (!existing) throw notFound();
          checkCas(existing, cfg, cas);
          const current = existing.versions[String(existing.current_version)];
          if (!current) throw notFound();
          if (current.destroyed || isDeleted(current, now())) {
            throw new SecretsError(404, [], { data: metadataView(existing, current, existing.current_version) });
          }
          const previous = (await versionStore.get<Record<string, unknown>>(versionKey(key, existing.current_version))) ?? {};
          data = mergePatch(previous, body) as Record<string, unknown>;
        } else {
          checkCas(existing, cfg, cas);
        }
        const meta = existing ?? newMetadata(now());
        const { version, trimmed } = addVersion(meta, cfg, now());
        // The new version, the metadata and the trimmed versions change together or not at all.
        const ops = [
          { key: `ver/${versionKey(key, version)}`, value: data },
          { key: `meta/${key}`, value: meta },
          ...trimmed.map((n) => ({ key: `ver/${versionKey(key, n)}` })),
        ];
        const unknown = Object.keys(req.data).filter((k) => !DATA_FIELDS.has(k));
        const warnings = unknown.length ? [`Endpoint ignored these unrecognized parameters: [${unknown.join(' ')}]`] : undefined;
        return { ops, result: { data: metadataView(meta, meta.versions[String(version)], version), warnings } as LogicalResponse };
      },
      cas !== undefined && cas !== null,
    );
    return result!;
  }

  /** Applies `change` to the listed versions of `key` (soft delete, undelete, destroy). */
  async function changeVersions(key: string, versions: number[] | 'current', change: (v: VersionMeta, meta: KeyMetadata, cfg: EngineConfig) => void): Promise<null> {
    requireKey(key);
    const cfg = await config();
    await updateKey(key, async (meta) => {
      if (!meta) return null;
      const list = versions === 'current' ? [meta.current_version] : versions;
      const ops: Array<{ key: string; value?: unknown }> = [];
      for (const n of list) {
        const v = meta.versions[String(n)];
        if (!v) continue;
        const wasDestroyed = v.destroyed;
        change(v, meta, cfg);
        if (v.destroyed && !wasDestroyed) ops.push({ key: `ver/${versionKey(key, n)}` });
      }
      // As in Vault, changing a version's state leaves the key's updated_time alone.
      return { ops: [{ key: `meta/${key}`, value: meta }, ...ops], result: null };
    });
    return null;
  }

  async function readMetadata(key: string): Promise<LogicalResponse> {
    const meta = await metaStore.get<KeyMetadata>(key);
    if (!meta) throw notFound();
    return {
      data: {
        cas_required: meta.cas_required,
        created_time: meta.created_time,
        current_version: meta.current_version,
        custom_metadata: meta.custom_metadata,
        delete_version_after: formatDuration(meta.delete_version_after),
        max_versions: meta.max_versions,
        oldest_version: meta.oldest_version,
        updated_time: meta.updated_time,
        versions: meta.versions,
      },
    };
  }

  async function writeMetadata(req: LogicalRequest, key: string, patch: boolean): Promise<LogicalResponse | null> {
    requireKey(key);
    const d = req.data;
    const maxVersions = d.max_versions === undefined ? undefined : parseInteger(d.max_versions, 'max_versions');
    if (maxVersions !== undefined && maxVersions < 0) throw badRequest('max_versions must be 0 or greater');
    const casRequired = d.cas_required === undefined ? undefined : parseBool(d.cas_required, 'cas_required');
    const deleteAfter = d.delete_version_after === undefined ? undefined : parseDurationSeconds(d.delete_version_after, 'delete_version_after');
    const custom = d.custom_metadata === undefined ? undefined : decodeCustomMetadata(d.custom_metadata, patch);
    if (custom) validateCustomMetadata(custom);
    // As in Vault, a write that sets nothing is answered without creating the key.
    const nothingToSet = [maxVersions, casRequired, deleteAfter, custom].every((field) => field === undefined);
    if (!patch && nothingToSet) return null;
    const cfg = await config();
    await updateKey(key, async (existing) => {
      if (patch && !existing) throw notFound();
      const meta = existing ?? newMetadata(now());
      if (maxVersions !== undefined) meta.max_versions = maxVersions;
      if (casRequired !== undefined) meta.cas_required = casRequired;
      if (deleteAfter !== undefined) meta.delete_version_after = deleteAfter;
      if (custom !== undefined) {
        const merged = (patch ? mergePatch(meta.custom_metadata ?? {}, custom) : custom) as Record<string, string>;
        meta.custom_metadata = Object.keys(merged).length ? merged : null;
      }
      // As in Vault, updated_time is a key's last data write (or its creation here): settings leave it alone. Versions
      // beyond a lowered max_versions stay until the next data write.
      return { ops: [{ key: `meta/${key}`, value: meta }], result: null };
    });
    // The key keeps the setting, but the engine's cas_required still applies to it.
    return casRequired === false && cfg.cas_required ? { warnings: [CAS_REQUIRED_BY_ENGINE_WARNING] } : null;
  }

  async function deleteKey(key: string): Promise<null> {
    requireKey(key);
    await updateKey(key, async (meta) =>
      meta ? { ops: [{ key: `meta/${key}` }, ...Object.keys(meta.versions).map((n) => ({ key: `ver/${versionKey(key, Number(n))}` }))], result: null } : null,
    );
    return null;
  }

  async function readSubkeys(req: LogicalRequest, key: string): Promise<LogicalResponse> {
    const depth = req.data.depth === undefined ? 0 : parseInteger(req.data.depth, 'depth');
    if (depth < 0) throw badRequest('depth must be 0 or greater');
    const read = await readData(req, key);
    const inner = read.data as { data: unknown; metadata: unknown };
    return { data: { subkeys: subkeys(inner.data, depth), metadata: inner.metadata } };
  }

  async function handleConfig(req: LogicalRequest, store: BarrierStorage): Promise<LogicalResponse | null> {
    if (req.operation === 'read') {
      const c = await config();
      return { data: { cas_required: c.cas_required, delete_version_after: formatDuration(c.delete_version_after), max_versions: c.max_versions } };
    }
    if (req.operation !== 'create' && req.operation !== 'update') throw unsupportedOperation();
    const c = await config();
    if (req.data.max_versions !== undefined) c.max_versions = parseInteger(req.data.max_versions, 'max_versions');
    if (c.max_versions < 0) throw badRequest('max_versions must be 0 or greater');
    if (req.data.cas_required !== undefined) c.cas_required = parseBool(req.data.cas_required, 'cas_required');
    if (req.data.delete_version_after !== undefined) c.delete_version_after = parseDurationSeconds(req.data.delete_version_after, 'delete_version_after');
    await store.put('config', c);
    return null;
  }

  return {
    // Secret data and custom metadata keep their numbers as sent; options and settings are read as plain numbers.
    exactNumberPaths: ['data/*', 'metadata/*'],
    async exists(req) {
      const { prefix, key } = split(req.relativePath);
      if (prefix === 'config') return true;
      if (prefix === 'data/' || prefix === 'metadata/') return metaStore.has(key);
      return true;
    },
    async handle(req: LogicalRequest): Promise<LogicalResponse | null> {
      const { prefix, key } = split(req.relativePath);
      const op = req.operation;
      const write = op === 'create' || op === 'update';
      switch (prefix) {
        case 'config':
          return handleConfig(req, root);
        case 'data/':
          if (op === 'read') return readData(req, key);
          if (write) return writeData(req, key, false);
          if (op === 'patch') return writeData(req, key, true);
          if (op === 'delete') return changeVersions(key, 'current', (v) => softDelete(v, now()));
          throw unsupportedOperation();
        case 'metadata/':
          if (op === 'list') {
            const keys = await metaStore.list(key);
            if (!keys.length) throw notFound();
            return { data: { keys } };
          }
          if (op === 'read') return readMetadata(key);
          if (write) return writeMetadata(req, key, false);
          if (op === 'patch') return writeMetadata(req, key, true);
          if (op === 'delete') return deleteKey(key);
          throw unsupportedOperation();
        case 'delete/':
          if (!write) throw unsupportedOperation();
          return changeVersions(key, parseVersions(req.data.versions), (v) => softDelete(v, now()));
        case 'undelete/':
          if (!write) throw unsupportedOperation();
          // An undeleted version is live again, so delete_version_after counts anew from now.
          return changeVersions(key, parseVersions(req.data.versions), (v, meta, cfg) => {
            if (!v.destroyed) v.deletion_time = scheduledDeletion(meta, cfg, now());
          });
        case 'destroy/':
          if (!write) throw unsupportedOperation();
          return changeVersions(key, parseVersions(req.data.versions), (v) => {
            v.destroyed = true;
          });
        case 'subkeys/':
          if (op !== 'read') throw unsupportedOperation();
          return readSubkeys(req, key);
        default:
          if (op === 'list' && req.relativePath === '') throw unsupportedOperation();
          throw new SecretsError(404, [], { warnings: [V2_BARE_PATH_WARNING], data: null });
      }
    },
    help: () => kvHelp(2),
  };
}
