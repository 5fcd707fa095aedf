// The token auth method (auth/token/): creation, roles, lookup, renewal, revocation and accessors. Mounted in every
// namespace; it has no login. Handlers read the caller's entry again (use counting may have spent it).
import { badRequest, SecretsError, type Backend, type BackendContext, type LogicalRequest, type LogicalResponse } from '../contract.ts';
import type { Access } from '../auth/access.ts';
import { invalidToken } from '../auth/access.ts';
import { dispatch, existence, itemExists, listItemsRoute, listResponse, readItem, routesHelp, type BackendRoute } from '../auth/backend-routes.ts';
import { durationField, stringField } from '../auth/fields.ts';
import { decodeCreateRequest, planTokenCreate } from './create-rules.ts';
import { authBlock, isBatch, lookupData, type TokenEntry } from './entry.ts';
import { planRenew } from './renew-rules.ts';
import { applyRoleFields, ROLE_NAME, roleData, type TokenRole } from './role.ts';
import { limitsOf } from './ttl.ts';

export function tokenBackend(access: Access, ctx: BackendContext): Backend {
  const roles = ctx.storage.view('roles/');
  const limits = () => limitsOf(ctx.mount.config);
  const now = () => access.core.clock.now();

  async function caller(req: LogicalRequest): Promise<TokenEntry> {
    const entry = await access.tokens.lookup(req.clientToken, { allowSpent: true });
    if (!entry) throw invalidToken();
    return entry;
  }

  async function namespacePath(entry: TokenEntry): Promise<string> {
    return (await access.core.namespaceById(entry.namespaceId))?.path ?? '';
  }

  async function warnMissingPolicies(req: LogicalRequest, policies: string[]): Promise<string[]> {
    const warnings: string[] = [];
    for (const p of policies) if (!(await access.policies.get(req.namespace, p))) warnings.push(`Policy "${p}" does not exist`);
    return warnings;
  }

  async function create(req: LogicalRequest, orphanEndpoint: boolean, role?: TokenRole): Promise<LogicalResponse> {
    const parent = await caller(req);
    // One clock reading: the TTL reported is the TTL requested, not one measured a moment later.
    const at = now();
    const input = decodeCreateRequest(req.data);
    if (role?.noDefaultPolicy) input.noDefaultPolicy = true;
    if (role?.numUses && (input.numUses === 0 || input.numUses > role.numUses)) input.numUses = role.numUses;
    const plan = planTokenCreate(input, {
      parent,
      isSudo: await access.hasSudo(req),
      orphanEndpoint,
      role,
      now: at,
      limits: limits(),
      namespaceId: req.namespace.id,
      relativePath: req.relativePath,
    });
    if (plan.id && (await access.tokens.lookup(plan.id, { allowSpent: true }))) throw badRequest('cannot create a token with a duplicate ID');
    const { id, entry } = await access.tokens.create(plan.entry, plan.id);
    const warnings = [...plan.warnings, ...(await warnMissingPolicies(req, entry.policies.filter((p) => p !== 'root')))];
    return { auth: authBlock(entry, id, at), warnings: warnings.length ? warnings : undefined };
  }

  async function lookupBy(req: LogicalRequest, token: string): Promise<LogicalResponse> {
    if (!token) throw badRequest('missing token ID');
    // The caller's own token as its authorisation left it: counted in, it is answered even if its last use is spent.
    const entry = token === req.clientToken ? (req.auth?.entry ?? (await caller(req))) : await access.tokens.lookup(token);
    if (!entry) throw new SecretsError(403, 'bad token');
    return { data: lookupData(entry, token, now(), await namespacePath(entry)) };
  }

  async function byAccessor(req: LogicalRequest): Promise<TokenEntry> {
    const accessor = stringField(req.data, 'accessor');
    if (!accessor) throw badRequest('missing accessor');
    const entry = await access.tokens.lookupByAccessor(accessor);
    if (!entry) throw badRequest('invalid accessor');
    return entry;
  }

  async function renew(req: LogicalRequest, entry: TokenEntry, id: string): Promise<LogicalResponse> {
    if (isBatch(entry)) throw badRequest('batch tokens cannot be renewed');
    const role = entry.role ? await roles.get<TokenRole>(entry.role) : undefined;
    const increment = durationField(req.data, 'increment') ?? 0;
    const at = now(); // one reading: the lease reported is the increment granted
    const plan = planRenew(entry, { now: at, increment, limits: limits(), period: role?.period, explicitMaxTtl: role?.explicitMaxTtl });
    const renewed: TokenEntry = { ...entry, expireTime: plan.expireTime, lastRenewalTime: at };
    await access.tokens.save(renewed);
    return { auth: authBlock(renewed, id, at), warnings: plan.warnings.length ? plan.warnings : undefined };
  }

  async function revokeTarget(req: LogicalRequest): Promise<TokenEntry | undefined> {
    const token = stringField(req.data, 'token');
    if (!token) throw badRequest('missing token ID');
    return revocable(await access.tokens.lookup(token, { allowSpent: token === req.clientToken }));
  }

  function revocable<T extends TokenEntry | undefined>(entry: T): T {
    if (entry && isBatch(entry)) throw badRequest('batch tokens cannot be revoked');
    return entry;
  }

  async function loadRole(name: string): Promise<TokenRole> {
    const role = await roles.get<TokenRole>(name.toLowerCase());
    if (!role) throw badRequest(`unknown role ${name}`);
    return role;
  }

  const routes: BackendRoute[] = [
    {
      path: '/create',
      summary: 'Create a child token of the calling token.',
      pattern: /^create$/,
      operations: { update: (req) => create(req, false) },
    },
    {
      path: '/create-orphan',
      summary: 'Create a token without a parent.',
      pattern: /^create-orphan$/,
      operations: { update: (req) => create(req, true) },
    },
    {
      path: '/create/{role_name}',
      summary: 'Create a token through a token role.',
      pattern: /^create\/([^/]+)$/,
      operations: { update: async (req, m) => create(req, false, await loadRole(m[1])) },
    },
    listItemsRoute('/roles', 'List token roles.', roles),
    {
      path: '/roles/{role_name}',
      summary: 'Read, write or delete a token role.',
      pattern: /^roles\/([^/]+)$/,
      exists: itemExists(roles),
      operations: {
        read: async (_req, m) => {
          const role = await readItem<TokenRole>(roles, m[1]);
          return { data: roleData(role) };
        },
        update: async (req, m) => {
          const name = m[1].toLowerCase();
          if (!ROLE_NAME.test(name)) throw badRequest('role name contains invalid characters');
          await roles.locked(name, async () => roles.put(name, applyRoleFields(name, req.data, await roles.get<TokenRole>(name))));
          return null;
        },
        delete: async (_req, m) => {
          await roles.delete(m[1].toLowerCase());
          return null;
        },
      },
    },
    {
      path: '/lookup',
      summary: 'Look up a token.',
      pattern: /^lookup$/,
      operations: {
        // without a token, lookup looks up the caller (as Vault does)
        update: (req) => lookupBy(req, stringField(req.data, 'token') || req.clientToken),
        read: (req) => lookupBy(req, stringField(req.data, 'token') || req.clientToken),
      },
    },
    {
      path: '/lookup-self',
      summary: 'Look up the calling token.',
      pattern: /^lookup-self$/,
      operations: { read: (req) => lookupBy(req, req.clientToken), update: (req) => lookupBy(req, req.clientToken) },
    },
    {
      path: '/lookup-accessor',
      summary: 'Look up a token by its accessor.',
      pattern: /^lookup-accessor$/,
      operations: {
        update: async (req) => {
          const entry = await byAccessor(req);
          return { data: lookupData(entry, '', now(), await namespacePath(entry)) };
        },
      },
    },
    {
      path: '/renew',
      summary: 'Renew a token.',
      pattern: /^renew$/,
      operations: {
        update: async (req) => {
          const token = stringField(req.data, 'token');
          if (!token) throw badRequest('missing token ID');
          const entry = token === req.clientToken ? await caller(req) : await access.tokens.lookup(token);
          if (!entry) throw badRequest('token not found');
          return renew(req, entry, token);
        },
      },
    },
    {
      path: '/renew-self',
      summary: 'Renew the calling token.',
      pattern: /^renew-self$/,
      operations: { update: async (req) => renew(req, await caller(req), req.clientToken) },
    },
    {
      path: '/renew-accessor',
      summary: 'Renew a token by its accessor.',
      pattern: /^renew-accessor$/,
      operations: {
        update: async (req) => {
          const res = await renew(req, await byAccessor(req), '');
          return { ...res, auth: res.auth ? { ...res.auth, client_token: '' } : res.auth };
        },
      },
    },
    {
      path: '/revoke',
      summary: 'Revoke a token and all its children.',
      pattern: /^revoke$/,
      operations: {
        update: async (req) => {
          const entry = await revokeTarget(req);
          if (entry) await access.tokens.revokeTree(entry);
          return null;
        },
      },
    },
    {
      path: '/revoke-self',
      summary: 'Revoke the calling token and all its children.',
      pattern: /^revoke-self$/,
      operations: {
        update: async (req) => {
          await access.tokens.revokeTree(revocable(await caller(req)));
          return null;
        },
      },
    },
    {
      path: '/revoke-accessor',
      summary: 'Revoke a token by its accessor.',
      pattern: /^revoke-accessor$/,
      operations: {
        update: async (req) => {
          await access.tokens.revokeTree(await byAccessor(req));
          return null;
        },
      },
    },
    {
      path: '/revoke-orphan',
      summary: 'Revoke a token and make its children orphans (sudo).',
      pattern: /^revoke-orphan$/,
      operations: {
        update: async (req) => {
          if (!(await access.hasSudo(req))) throw badRequest('root or sudo privileges required to revoke and orphan');
          const entry = await revokeTarget(req);
          if (!entry) throw badRequest('token to revoke not found');
          await access.tokens.revokeOrphan(entry);
          return null;
        },
      },
    },
    {
      path: '/tidy',
      summary: 'Revoke expired and spent tokens and drop index entries that point at nothing.',
      pattern: /^tidy$/,
      operations: {
        update: async (req) => {
          const revoked = await access.tokens.tidy(req.namespace);
          access.core.log.info({ namespace: req.namespace.path, revoked }, 'token tidy finished');
          return { status: 202, warnings: ['Tidy operation successfully started. Any information from the operation will be printed to Vault\'s server logs.'] };
        },
      },
    },
    {
      path: '/accessors',
      summary: 'List the accessors of live tokens (sudo).',
      pattern: /^accessors\/?$/,
      operations: { list: async (req) => listResponse(await access.tokens.accessors(req.namespace)) },
    },
  ];

  return {
    handle: (req) => dispatch(routes, req),
    help: () => routesHelp('The token store: create, look up, renew and revoke tokens; token roles.', routes),
    exists: (req) => existence(routes, req),
    rootProtectedPaths: ['revoke-orphan*', 'accessors*'],
  };
}
