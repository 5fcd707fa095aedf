// sys/mounts (list, enable, read, disable, tune), sys/remount and sys/internal/ui/mounts.
import { randomUUID } from 'node:crypto';
import { SecretsError, badRequest, type LogicalRequest, type MountEntry, type MountKind, type Namespace } from '../contract.ts';
import { parseBool } from '../http/fields.ts';
import { SYSTEM_MAX_TTL } from '../token/ttl.ts';
import { canonicalMountPath } from './mount-table.ts';
import type { CoreRoute, SysDeps } from './route.ts';

/** Tuned settings as Vault shows them: only those that are set, and an auth method's token type always. */
function tunedSettings(e: MountEntry, kind: MountKind): Record<string, unknown> {
  const c = e.config;
  const out: Record<string, unknown> = {};
  for (const key of ['listing_visibility', 'audit_non_hmac_request_keys', 'audit_non_hmac_response_keys', 'passthrough_request_headers', 'allowed_response_headers'] as const) {
    if (c[key]?.length) out[key] = c[key];
  }
  if (kind === 'auth') out.token_type = c.token_type ?? 'default-service';
  return out;
}

/** The mount entry as sys/mounts shows it. */
export function mountView(e: MountEntry, kind: MountKind = 'secret'): Record<string, unknown> {
  return {
    accessor: e.accessor,
    config: { default_lease_ttl: e.config.default_lease_ttl, max_lease_ttl: e.config.max_lease_ttl, force_no_cache: e.config.force_no_cache, ...tunedSettings(e, kind) },
    description: e.description,
    external_entropy_access: e.external_entropy_access,
    local: e.local,
    options: e.options,
    plugin_version: e.plugin_version,
    running_plugin_sha256: '',
    running_plugin_version: e.running_plugin_version,
    seal_wrap: e.seal_wrap,
    type: e.type,
    uuid: e.uuid,
  };
}

/** What sys/mounts/:path/tune and sys/auth/:path/tune read: the mount's own TTLs or the system's, and its settings. */
export function tuneView(e: MountEntry, kind: MountKind): Record<string, unknown> {
  return {
    default_lease_ttl: e.config.default_lease_ttl || SYSTEM_MAX_TTL,
    max_lease_ttl: e.config.max_lease_ttl || SYSTEM_MAX_TTL,
    force_no_cache: e.config.force_no_cache,
    description: e.description,
    options: e.options,
    ...tunedSettings(e, kind),
  };
}

/** `auth/x/` in sys/mounts/.../tune and sys/remount addresses the auth table. */
const kindOf = (path: string): { kind: MountKind; path: string } =>
  path.startsWith('auth/') ? { kind: 'auth', path: path.slice('auth/'.length) } : { kind: 'secret', path };

export function mountRoutes(deps: SysDeps): CoreRoute[] {
  const { core } = deps;
  const preflight = (path: string) =>
    new SecretsError(403, `preflight capability check returned 403, please ensure client's policies grant access to path "${path}"`);

  /** Any capability but deny on the path or its mount grants visibility. */
  async function canSee(req: LogicalRequest, ns: Namespace, paths: string[]): Promise<boolean> {
    if (!req.clientToken) return false;
    const mountPath = paths[paths.length - 1]!;
    if (core.authorizer.hasAccessUnder && (await core.authorizer.hasAccessUnder(req.clientToken, ns, mountPath))) return true;
    for (const p of paths) {
      const caps = await core.authorizer.capabilities(req.clientToken, ns, p);
      if (caps.length && !caps.includes('deny')) return true;
    }
    return false;
  }

  return [
    {
      pattern: /^mounts\/?$/,
      operations: ['read'],
      async handle(req) {
        const data: Record<string, unknown> = {};
        for (const e of await core.mounts.list(req.namespace, 'secret')) data[e.path] = mountView(e);
        return { data, topLevelData: true };
      },
    },
    {
      pattern: /^mounts\/(.+)\/tune\/?$/,
      operations: ['read', 'update'],
      async handle(req, m) {
        const { kind, path } = kindOf(canonicalMountPath(m[1]!));
        if (req.operation === 'read') {
          const e = await core.mounts.get(req.namespace, kind, path);
          if (!e) throw badRequest(`cannot fetch sysview for path "${m[1]}"`);
          return { data: tuneView(e, kind) };
        }
        await core.mounts.tune(req.namespace, kind, path, req.data);
        return null;
      },
    },
    {
      pattern: /^mounts\/(.+)$/,
      operations: ['read', 'update', 'delete'],
      async handle(req, m) {
        const path = canonicalMountPath(m[1]!);
        if (req.operation === 'read') {
          const e = await core.mounts.get(req.namespace, 'secret', path);
          if (!e) throw badRequest(`No secret engine mount at ${path}`);
          return { data: mountView(e) };
        }
        if (req.operation === 'delete') {
          await core.mounts.unmount(req.namespace, 'secret', path);
          return null;
        }
        const d = req.data;
        if (d.config !== undefined && (typeof d.config !== 'object' || d.config === null || Array.isArray(d.config))) throw badRequest('config must be a map');
        if (d.description !== undefined && typeof d.description !== 'string') throw badRequest('description must be a string');
        await core.mounts.mount(req.namespace, 'secret', {
          path,
          type: d.type as string,
          description: d.description,
          config: d.config as Record<string, unknown> | undefined,
          options: d.options as Record<string, unknown> | undefined,
          local: d.local === undefined ? undefined : parseBool(d.local, 'local'),
          seal_wrap: d.seal_wrap === undefined ? undefined : parseBool(d.seal_wrap, 'seal_wrap'),
        });
        return null;
      },
    },
    {
      pattern: /^remount$/,
      operations: ['update'],
      rootProtected: true,
      async handle(req) {
        const from = req.data.from;
        const to = req.data.to;
        if (typeof from !== 'string' || !from) throw badRequest('both "from" and "to" path must be specified as strings');
        if (typeof to !== 'string' || !to) throw badRequest('both "from" and "to" path must be specified as strings');
        const src = kindOf(canonicalMountPath(from));
        const dst = kindOf(canonicalMountPath(to));
        if (src.kind !== dst.kind) throw badRequest('cannot remount between secret engines and auth methods');
        await core.mounts.remount(req.namespace, src.kind, src.path, dst.path);
        // The move is synchronous; its status stays readable for `vault secrets move`, which polls it.
        const migrationId = randomUUID();
        await req.storage.put(`remount/${migrationId}`, {
          source_mount: req.namespace.path + canonicalMountPath(from),
          target_mount: req.namespace.path + canonicalMountPath(to),
          status: 'success',
        });
        return { data: { migration_id: migrationId }, topLevelData: true };
      },
    },
    {
      pattern: /^remount\/status\/([0-9a-f-]{36})$/,
      operations: ['read'],
      async handle(req, m) {
        const info = await req.storage.get(`remount/${m[1]}`);
        if (!info) throw badRequest(`Did not find migration info for migration id ${JSON.stringify(m[1])}`);
        return { data: { migration_id: m[1], migration_info: info } };
      },
    },
    {
      pattern: /^internal\/ui\/mounts\/?$/,
      operations: ['read'],
      unauthenticated: true,
      async handle(req) {
        const token = req.clientToken ? await core.authorizer.lookup(req.clientToken) : undefined;
        const view = async (kind: MountKind) => {
          const out: Record<string, unknown> = {};
          for (const e of await core.mounts.list(req.namespace, kind)) {
            const full = (kind === 'auth' ? 'auth/' : '') + e.path;
            const visible = e.config.listing_visibility === 'unauth' || (token && (await canSee(req, req.namespace, [full])));
            if (visible) out[e.path] = { type: e.type, description: e.description, options: e.options, ...(token ? mountView(e, kind) : {}) };
          }
          return out;
        };
        return { data: { secret: await view('secret'), auth: await view('auth') } };
      },
    },
    {
      pattern: /^internal\/ui\/mounts\/(.+)$/,
      operations: ['read'],
      unauthenticated: true,
      async handle(req, m) {
        const asked = m[1]!.replace(/\/+$/, '') + '/';
        const { kind, path } = kindOf(asked);
        const found = await core.mounts.resolve(req.namespace, kind, path);
        if (!found || !req.clientToken || !(await core.authorizer.lookup(req.clientToken))) throw preflight(asked);
        const mountPath = (kind === 'auth' ? 'auth/' : '') + found.entry.path;
        // `vault kv get secret/x` asks about secret/x; on a v2 mount the policy names secret/data/x or secret/metadata/x.
        const rest = m[1]!.length > mountPath.length ? m[1]!.slice(mountPath.length) : '';
        const candidates = [m[1]!];
        if (found.entry.type === 'kv' && found.entry.options?.version === '2') candidates.push(`${mountPath}data/${rest}`, `${mountPath}metadata/${rest}`);
        if (!(await canSee(req, req.namespace, [...candidates, mountPath]))) throw preflight(asked);
        return {
          data: {
            ...mountView(found.entry, kind),
            path: req.namespace.path + mountPath,
          },
        };
      },
    },
  ];
}
