// sys/init, seal-status, unseal, seal, health, leader, key-status, rotate.
import { randomUUID } from 'node:crypto';
import { SecretsError, badRequest, type LogicalRequest } from '../contract.ts';
import { parseBool, parseInteger } from '../http/fields.ts';
import { ROOT_NAMESPACE } from '../namespaces/registry.ts';
import { field, type CoreRoute, type SysDeps } from './route.ts';

interface ClusterInfo {
  cluster_name: string;
  cluster_id: string;
}

async function clusterInfo(deps: SysDeps): Promise<ClusterInfo> {
  const store = deps.core.systemStorage(ROOT_NAMESPACE);
  let info = await store.get<ClusterInfo>('cluster');
  if (!info) {
    const id = randomUUID();
    info = { cluster_name: `vault-cluster-${id.slice(0, 8)}`, cluster_id: id };
    await store.put('cluster', info);
  }
  return info;
}

async function sealStatus(deps: SysDeps) {
  const s = await deps.core.seal.status();
  const body: Record<string, unknown> = {
    type: 'shamir',
    initialized: s.initialized,
    sealed: s.sealed,
    t: s.t,
    n: s.n,
    progress: s.progress,
    nonce: s.nonce,
    version: deps.version,
    build_date: '2026-01-01T00:00:00Z',
    migration: false,
    recovery_seal: false,
    storage_type: deps.storageType,
  };
  if (!s.sealed) Object.assign(body, await clusterInfo(deps));
  return body;
}

/** Hex first (16 to 33 bytes), then standard base64. */
export function decodeKey(value: unknown): Buffer {
  if (typeof value !== 'string' || value === '') throw badRequest("'key' must be a valid hex or base64 string");
  if (/^[0-9a-fA-F]+$/.test(value) && value.length % 2 === 0) {
    const hex = Buffer.from(value, 'hex');
    if (hex.length >= 16 && hex.length <= 33) return hex;
  }
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length % 4 === 0) {
    const b64 = Buffer.from(value, 'base64');
    if (b64.length > 0) return b64;
  }
  throw badRequest("'key' must be a valid hex or base64 string");
}

const HEALTH_CODES = {
  activecode: 200,
  standbycode: 429,
  drsecondarycode: 472,
  performancestandbycode: 473,
  sealedcode: 503,
  uninitcode: 501,
} as const;

function healthCode(query: Record<string, string>, name: keyof typeof HEALTH_CODES): number {
  const given = query[name];
  if (given === undefined) return HEALTH_CODES[name];
  if (!/^\d{1,3}$/.test(given)) throw badRequest(`bad code for ${name}: ${JSON.stringify(given)}`);
  const code = Number(given);
  if (code < 100 || code > 999) throw badRequest(`bad code for ${name}: ${JSON.stringify(given)}`);
  return code;
}

export function sealRoutes(deps: SysDeps): CoreRoute[] {
  const core = deps.core;
  return [
    {
      pattern: /^init$/,
      httpHandler: true,
      operations: ['read', 'update'],
      unauthenticated: true,
      whileSealed: true,
      rootNamespaceOnly: true,
      async handle(req: LogicalRequest) {
        if (req.operation === 'read') return { raw: { status: 200, body: { initialized: (await core.seal.config()) !== null } } };
        const d = req.data;
        const recovery = ['recovery_shares', 'recovery_threshold', 'recovery_pgp_keys'].filter((k) => d[k] !== undefined);
        if (recovery.length) throw badRequest(`parameters ${recovery.join(',')} not applicable to seal type shamir`);
        if (d.pgp_keys !== undefined || d.root_token_pgp_key !== undefined) throw badRequest('PGP-encrypted shares and root tokens are not supported');
        const shares = parseInteger(field(d, 'secret_shares') ?? 0, 'secret_shares');
        const threshold = parseInteger(field(d, 'secret_threshold') ?? 0, 'secret_threshold');
        const result = await core.initialize(shares, threshold);
        return { raw: { status: 200, body: { keys: result.keys, keys_base64: result.keys_base64, root_token: result.rootToken } } };
      },
    },
    {
      pattern: /^seal-status$/,
      httpHandler: true,
      operations: ['read'],
      unauthenticated: true,
      whileSealed: true,
      async handle() {
        return { raw: { status: 200, body: await sealStatus(deps) } };
      },
    },
    {
      pattern: /^unseal$/,
      httpHandler: true,
      operations: ['update'],
      unauthenticated: true,
      whileSealed: true,
      rootNamespaceOnly: true,
      async handle(req) {
        const reset = field(req.data, 'reset');
        const key = field(req.data, 'key');
        if (reset !== undefined && parseBool(reset, 'reset')) {
          if (!core.barrier.sealed) throw badRequest('vault is unsealed');
          core.seal.resetProgress();
        } else if (key === undefined || key === '') {
          throw badRequest("'key' must be specified in request body as JSON, or 'reset' set to true");
        } else {
          if (!(await core.seal.config())) throw badRequest('Vault is not initialized');
          if (core.barrier.sealed) {
            const unsealed = await core.seal.submit(decodeKey(key));
            if (unsealed) await core.afterUnseal();
          }
        }
        return { raw: { status: 200, body: await sealStatus(deps) } };
      },
    },
    {
      pattern: /^seal$/,
      httpHandler: true,
      operations: ['update'],
      rootProtected: true,
      rootNamespaceOnly: true,
      async handle() {
        core.seal.seal();
        core.mounts.invalidate();
        core.namespaces.invalidate();
        return null;
      },
    },
    {
      pattern: /^health$/,
      httpHandler: true,
      operations: ['read'],
      unauthenticated: true,
      whileSealed: true,
      rootNamespaceOnly: true,
      async handle(req) {
        const q = req.query;
        const codes = {
          active: healthCode(q, 'activecode'),
          sealed: healthCode(q, 'sealedcode'),
          uninit: healthCode(q, 'uninitcode'),
        };
        healthCode(q, 'standbycode');
        healthCode(q, 'drsecondarycode');
        healthCode(q, 'performancestandbycode');
        const initialized = (await core.seal.config()) !== null;
        const sealed = core.barrier.sealed;
        const status = !initialized ? codes.uninit : sealed ? codes.sealed : codes.active;
        const body: Record<string, unknown> = {
          initialized,
          sealed,
          standby: false,
          performance_standby: false,
          replication_performance_mode: 'disabled',
          replication_dr_mode: 'disabled',
          server_time_utc: Math.floor(core.clock.now() / 1000),
          version: deps.version,
          enterprise: false,
        };
        if (!sealed) Object.assign(body, await clusterInfo(deps));
        return { raw: { status, body } };
      },
    },
    {
      pattern: /^leader$/,
      httpHandler: true,
      operations: ['read'],
      unauthenticated: true,
      whileSealed: true,
      async handle() {
        return {
          raw: {
            status: 200,
            body: {
              ha_enabled: false,
              is_self: false,
              active_time: '0001-01-01T00:00:00Z',
              leader_address: '',
              leader_cluster_address: '',
              performance_standby: false,
              performance_standby_last_remote_wal: 0,
            },
          },
        };
      },
    },
    {
      // One node, always active: stepping down has nothing to hand over.
      pattern: /^step-down$/,
      httpHandler: true,
      operations: ['update'],
      rootProtected: true,
      rootNamespaceOnly: true,
      async handle() {
        return null;
      },
    },
    {
      pattern: /^ha-status$/,
      operations: ['read'],
      async handle() {
        const info = await clusterInfo(deps);
        return {
          data: { nodes: [{ hostname: 'twinstack', api_address: '', cluster_address: '', active_node: true, last_echo: null, version: deps.version, upgrade_version: deps.version, redundancy_zone: '' }], cluster_name: info.cluster_name },
          topLevelData: true,
        };
      },
    },
    {
      pattern: /^key-status$/,
      operations: ['read'],
      rootNamespaceOnly: true,
      async handle() {
        return { data: core.barrier.keyStatus(), topLevelData: true };
      },
    },
    {
      pattern: /^rotate$/,
      operations: ['update'],
      rootProtected: true,
      rootNamespaceOnly: true,
      async handle() {
        if (core.barrier.sealed) throw new SecretsError(503, 'Vault is sealed');
        await core.barrier.rotate(core.seal.rootKey(), core.clock.now());
        return null;
      },
    },
  ];
}
