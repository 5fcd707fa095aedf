// The approle auth method: roles with a role_id and secret_ids issued on demand. Secret ids are kept only as
// salted hashes (with a clear accessor to manage them); login at login needs no token.
import { randomUUID } from 'node:crypto';
import { safeEqual } from '../../../core/crypto.ts';
import { badRequest, notFound, type Backend, type BackendContext, type LogicalRequest } from '../contract.ts';
import type { Access } from './access.ts';
import { guardedUpdate } from '../token/guarded-update.ts';
import { addressAllowed, checkCidrs } from './cidr.ts';
import { dispatch, existence, itemExists, listItemsRoute, listResponse, readItem, routesHelp, type BackendRoute } from './backend-routes.ts';
import { boolField, durationField, intField, stringField, stringListField, stringMapField } from './fields.ts';
import { applyTokenSettings, emptyTokenSettings, tokenSettingsData, type TokenSettings } from './token-settings.ts';

interface Role {
  name: string;
  roleId: string;
  bindSecretId: boolean;
  secretIdNumUses: number;
  /** Seconds; 0 = never expires. */
  secretIdTtl: number;
  secretIdBoundCidrs: string[];
  localSecretIds: boolean;
  token: TokenSettings;
}

interface SecretId {
  accessor: string;
  hash: string;
  metadata: Record<string, string>;
  cidrList: string[];
  numUses: number;
  ttl: number;
  creationTime: number;
  /** Milliseconds; null = never. */
  expirationTime: number | null;
}

const ROLE_NAME = /^[A-Za-z0-9_.-]+$/;

/** Per-field sub-paths of a role and the field each one sets. */
const ROLE_FIELD_PATHS: Record<string, string> = {
  policies: 'token_policies',
  'token-policies': 'token_policies',
  'bind-secret-id': 'bind_secret_id',
  'secret-id-num-uses': 'secret_id_num_uses',
  'secret-id-ttl': 'secret_id_ttl',
  'secret-id-bound-cidrs': 'secret_id_bound_cidrs',
  'token-ttl': 'token_ttl',
  'token-max-ttl': 'token_max_ttl',
  period: 'token_period',
  'token-period': 'token_period',
  'token-num-uses': 'token_num_uses',
  'token-bound-cidrs': 'token_bound_cidrs',
  'token-type': 'token_type',
};

/** What DELETE on a field sub-path resets it to. */
function emptyTokenSettingsValue(field: string): unknown {
  if (field === 'bind_secret_id') return true;
  if (field.endsWith('_cidrs') || field === 'token_policies') return [];
  if (field === 'token_type') return 'default';
  return 0;
}
const INVALID = 'invalid role or secret ID';

export function approleBackend(access: Access, ctx: BackendContext): Backend {
  const roles = ctx.storage.view('role/');
  const roleIds = ctx.storage.view('role_id/');
  const secretIds = ctx.storage.view('secret_id/');
  const accessors = ctx.storage.view('accessor/');
  const now = () => access.core.clock.now();
  const secretHash = (v: string) => access.tokens.hash(`approle:${ctx.mount.uuid}:${v}`);
  const roleIdHash = (v: string) => access.tokens.hash(`approle-role-id:${ctx.mount.uuid}:${v}`);

  async function loadRole(raw: string): Promise<Role> {
    const role = await roles.get<Role>(raw.toLowerCase());
    if (!role) throw badRequest(`role "${raw}" does not exist`);
    return role;
  }

  /** Loads a live secret id of a role (expired ones are removed). */
  async function liveSecret(role: Role, hash: string): Promise<SecretId | undefined> {
    const entry = await secretIds.get<SecretId>(`${role.name}/${hash}`);
    if (!entry) return undefined;
    if (entry.expirationTime !== null && entry.expirationTime <= now()) {
      await destroySecret(role.name, entry);
      return undefined;
    }
    return entry;
  }

  async function destroySecret(roleName: string, entry: SecretId): Promise<void> {
    await secretIds.delete(`${roleName}/${entry.hash}`);
    await accessors.delete(entry.accessor);
  }

  function secretIdData(entry: SecretId): Record<string, unknown> {
    const iso = (ms: number | null) => (ms === null ? '0001-01-01T00:00:00Z' : new Date(ms).toISOString());
    return {
      cidr_list: entry.cidrList,
      creation_time: iso(entry.creationTime),
      expiration_time: iso(entry.expirationTime),
      last_updated_time: iso(entry.creationTime),
      metadata: entry.metadata,
      secret_id_accessor: entry.accessor,
      secret_id_num_uses: entry.numUses,
      secret_id_ttl: entry.ttl,
      token_bound_cidrs: [],
    };
  }

  async function issueSecretId(req: LogicalRequest, role: Role, custom?: string) {
    const secretId = custom ?? randomUUID();
    const hash = await secretHash(secretId);
    if (await secretIds.get(`${role.name}/${hash}`)) throw badRequest('SecretID is already registered');
    const ttlRequested = durationField(req.data, 'ttl');
    const numUsesRequested = intField(req.data, 'num_uses');
    if (ttlRequested !== undefined && ttlRequested < 0) throw badRequest('ttl cannot be negative');
    if (numUsesRequested !== undefined && numUsesRequested < 0) throw badRequest('num_uses cannot be negative');
    const ttl = ttlRequested !== undefined && (role.secretIdTtl === 0 || (ttlRequested > 0 && ttlRequested < role.secretIdTtl)) ? ttlRequested : role.secretIdTtl;
    const numUses = numUsesRequested !== undefined && (role.secretIdNumUses === 0 || (numUsesRequested > 0 && numUsesRequested < role.secretIdNumUses)) ? numUsesRequested : role.secretIdNumUses;
    const issuedAt = now(); // one reading: expiration is exactly ttl after creation
    const entry: SecretId = {
      accessor: randomUUID(),
      hash,
      metadata: stringMapField(req.data, 'metadata') ?? {},
      cidrList: checkCidrs('cidr_list', stringListField(req.data, 'cidr_list') ?? []),
      numUses,
      ttl,
      creationTime: issuedAt,
      expirationTime: ttl > 0 ? issuedAt + ttl * 1000 : null,
    };
    await secretIds.put(`${role.name}/${hash}`, entry);
    await accessors.put(entry.accessor, { role: role.name, hash });
    return { data: { secret_id: secretId, secret_id_accessor: entry.accessor, secret_id_num_uses: numUses, secret_id_ttl: ttl } };
  }

  async function secretByAccessor(role: Role, accessor: string | undefined): Promise<SecretId | undefined> {
    if (!accessor) throw badRequest('missing secret_id_accessor');
    const index = await accessors.get<{ role: string; hash: string }>(accessor);
    if (!index || index.role !== role.name) return undefined;
    return liveSecret(role, index.hash);
  }

  function roleData(role: Role): Record<string, unknown> {
    return {
      bind_secret_id: role.bindSecretId,
      local_secret_ids: role.localSecretIds,
      secret_id_bound_cidrs: role.secretIdBoundCidrs,
      secret_id_num_uses: role.secretIdNumUses,
      secret_id_ttl: role.secretIdTtl,
      ...tokenSettingsData(role.token),
    };
  }

  /** Creates or updates a role from the fields present in `data` (keeping the role-id index in step). */
  async function writeRole(rawName: string, data: Record<string, unknown>) {
    const name = rawName.toLowerCase();
    if (!ROLE_NAME.test(name)) throw badRequest('role_name contains invalid characters');
    return roles.locked(name, async () => {
      const existing = await roles.get<Role>(name);
      const role = applyRoleFields(name, data, existing);
      const customRoleId = stringField(data, 'role_id');
      if (customRoleId) role.roleId = customRoleId;
      if (!existing || role.roleId !== existing.roleId) {
        if (existing) await roleIds.delete(await roleIdHash(existing.roleId));
        await roleIds.put(await roleIdHash(role.roleId), { name });
      }
      await roles.put(name, role);
      return null;
    });
  }

  /** A field sub-path write: the role must exist. */
  async function updateRole(rawName: string, data: Record<string, unknown>) {
    await loadRole(rawName);
    return writeRole(rawName, data);
  }

  function applyRoleFields(name: string, data: Record<string, unknown>, existing?: Role): Role {
    const role: Role = existing
      ? { ...existing }
      : { name, roleId: randomUUID(), bindSecretId: true, secretIdNumUses: 0, secretIdTtl: 0, secretIdBoundCidrs: [], localSecretIds: false, token: emptyTokenSettings() };
    role.bindSecretId = boolField(data, 'bind_secret_id') ?? role.bindSecretId;
    const uses = intField(data, 'secret_id_num_uses');
    if (uses !== undefined) {
      if (uses < 0) throw badRequest('secret_id_num_uses cannot be negative');
      role.secretIdNumUses = uses;
    }
    const ttl = durationField(data, 'secret_id_ttl');
    if (ttl !== undefined) {
      if (ttl < 0) throw badRequest('secret_id_ttl cannot be negative');
      role.secretIdTtl = ttl;
    }
    const bound = stringListField(data, 'secret_id_bound_cidrs');
    if (bound) role.secretIdBoundCidrs = checkCidrs('secret_id_bound_cidrs', bound);
    if (!existing) role.localSecretIds = boolField(data, 'local_secret_ids') ?? false;
    role.token = applyTokenSettings(data, role.token);
    if (!role.bindSecretId && role.secretIdBoundCidrs.length === 0 && role.token.boundCidrs.length === 0) {
      throw badRequest('at least one constraint should be enabled on the role');
    }
    return role;
  }

  const routes: BackendRoute[] = [
    {
      path: '/login',
      summary: 'Log in with a role id and a secret id.',
      pattern: /^login$/,
      operations: {
        update: async (req) => {
          const roleId = stringField(req.data, 'role_id');
          if (!roleId) throw badRequest('missing role_id');
          const index = await roleIds.get<{ name: string }>(await roleIdHash(roleId));
          const role = index ? await roles.get<Role>(index.name) : undefined;
          if (!role || !safeEqual(role.roleId, roleId)) throw badRequest(INVALID);
          const meta: Record<string, string> = { role_name: role.name };
          const remote = req.connection.remoteAddress;
          if (!addressAllowed(remote, role.secretIdBoundCidrs)) throw badRequest(`source address "${remote}" unauthorized through CIDR restrictions on the role`);
          if (role.bindSecretId) {
            const secretId = stringField(req.data, 'secret_id');
            if (!secretId) throw badRequest('missing secret_id');
            const hash = await secretHash(secretId);
            const key = `${role.name}/${hash}`;
            const consumed = await secretIds.locked(key, async () => {
              const entry = await liveSecret(role, hash);
              if (!entry || entry.numUses === 0) return entry;
              // guarded, so instances racing for the last use cannot both log in
              const spent = await guardedUpdate<SecretId>(secretIds, key, (cur) => (cur.numUses === 1 ? null : { ...cur, numUses: cur.numUses - 1 }));
              if (spent?.next === null) await accessors.delete(spent.previous.accessor);
              return spent?.previous;
            });
            if (!consumed) throw badRequest(INVALID);
            if (!addressAllowed(remote, consumed.cidrList)) throw badRequest(`source address "${remote}" unauthorized by CIDR restrictions on the secret ID`);
            Object.assign(meta, consumed.metadata, { role_name: role.name });
          }
          return access.issueLoginToken(req, role.token, { meta, displayName: '' });
        },
      },
    },
    listItemsRoute('/role', 'List roles.', roles),
    {
      path: '/role/{role_name}',
      summary: 'Read, write or delete a role.',
      pattern: /^role\/([^/]+)$/,
      exists: itemExists(roles),
      operations: {
        read: async (_req, m) => {
          const role = await readItem<Role>(roles, m[1]);
          return { data: roleData(role) };
        },
        update: async (req, m) => writeRole(m[1], req.data),
        delete: async (_req, m) => {
          const name = m[1].toLowerCase();
          const role = await roles.get<Role>(name);
          if (!role) return null;
          for (const hash of await secretIds.list(`${name}/`)) {
            const entry = await secretIds.get<SecretId>(`${name}/${hash}`);
            if (entry) await destroySecret(name, entry);
          }
          await roleIds.delete(await roleIdHash(role.roleId));
          await roles.delete(name);
          return null;
        },
      },
    },
    {
      path: '/role/{role_name}/{field}',
      summary: 'Read, set or reset one setting of a role (policies, token-ttl, secret-id-num-uses, ...).',
      pattern: new RegExp(`^role\\/([^/]+)\\/(${Object.keys(ROLE_FIELD_PATHS).join('|')})$`),
      operations: {
        read: async (_req, m) => {
          const field = ROLE_FIELD_PATHS[m[2]];
          return { data: { [field]: roleData(await loadRole(m[1]))[field] } };
        },
        update: async (req, m) => {
          const field = ROLE_FIELD_PATHS[m[2]];
          // the sub-path's value may come under its own name or the field's canonical name
          const value = req.data[field] ?? req.data[m[2].replaceAll('-', '_')];
          if (value === undefined) throw badRequest(`missing ${field}`);
          return updateRole(m[1], { [field]: value });
        },
        delete: async (_req, m) => {
          const field = ROLE_FIELD_PATHS[m[2]];
          return updateRole(m[1], { [field]: emptyTokenSettingsValue(field) });
        },
      },
    },
    {
      path: '/role/{role_name}/role-id',
      summary: 'Read or set the role id.',
      pattern: /^role\/([^/]+)\/role-id$/,
      operations: {
        read: async (_req, m) => ({ data: { role_id: (await loadRole(m[1])).roleId } }),
        update: async (req, m) => {
          const roleId = stringField(req.data, 'role_id');
          if (!roleId) throw badRequest('missing role_id');
          return updateRole(m[1], { role_id: roleId });
        },
      },
    },
    {
      path: '/role/{role_name}/secret-id',
      summary: 'Generate a secret id, or list secret id accessors.',
      pattern: /^role\/([^/]+)\/secret-id\/?$/,
      operations: {
        update: async (req, m) => issueSecretId(req, await loadRole(m[1])),
        list: async (_req, m) => {
          const role = await loadRole(m[1]);
          const keys: string[] = [];
          for (const hash of await secretIds.list(`${role.name}/`)) {
            const entry = await liveSecret(role, hash);
            if (entry) keys.push(entry.accessor);
          }
          return listResponse(keys.sort());
        },
      },
    },
    {
      path: '/role/{role_name}/custom-secret-id',
      summary: 'Register a secret id of your choice.',
      pattern: /^role\/([^/]+)\/custom-secret-id$/,
      operations: {
        update: async (req, m) => {
          const secretId = stringField(req.data, 'secret_id');
          if (!secretId) throw badRequest('missing secret_id');
          return issueSecretId(req, await loadRole(m[1]), secretId);
        },
      },
    },
    {
      path: '/role/{role_name}/secret-id/{action}',
      summary: 'Look up or destroy a secret id.',
      pattern: /^role\/([^/]+)\/secret-id\/(lookup|destroy)$/,
      operations: {
        update: async (req, m) => {
          const role = await loadRole(m[1]);
          const secretId = stringField(req.data, 'secret_id');
          if (!secretId) throw badRequest('missing secret_id');
          const entry = await liveSecret(role, await secretHash(secretId));
          if (m[2] === 'destroy') {
            if (entry) await destroySecret(role.name, entry);
            return null;
          }
          if (!entry) throw notFound();
          return { data: secretIdData(entry) };
        },
      },
    },
    {
      path: '/role/{role_name}/secret-id-accessor/{action}',
      summary: 'Look up or destroy a secret id by its accessor.',
      pattern: /^role\/([^/]+)\/secret-id-accessor\/(lookup|destroy)$/,
      operations: {
        update: async (req, m) => {
          const role = await loadRole(m[1]);
          const entry = await secretByAccessor(role, stringField(req.data, 'secret_id_accessor'));
          if (!entry) throw badRequest(`failed to find accessor entry for secret_id_accessor: "${stringField(req.data, 'secret_id_accessor')}"`);
          if (m[2] === 'destroy') {
            await destroySecret(role.name, entry);
            return null;
          }
          return { data: secretIdData(entry) };
        },
      },
    },
  ];

  return {
    handle: (req) => dispatch(routes, req),
    help: () => routesHelp('Machine login with a role id and a secret id.', routes),
    exists: (req) => existence(routes, req),
    unauthenticatedPaths: ['login'],
  };
}
