// The access half's shared state once the core exists: the token and policy stores, and the Authorizer the router
// calls on every authenticated request (token lookup, namespace scoping, ACL decision, use counting).
import {
  PERMISSION_DENIED,
  SecretsError,
  type AuthorizationResult,
  type Authorizer,
  type LogicalRequest,
  type LogicalResponse,
  type Namespace,
  type SecretsCore,
  type TokenSummary,
} from '../contract.ts';
import type { AclOperation } from '../policy/acl.ts';
import { RESPONSE_WRAPPING_POLICY, sanitizePolicyNames } from '../policy/policy.ts';
import { PolicyStore } from '../policy/store.ts';
import { authBlock, isWrappingToken, type TokenEntry } from '../token/entry.ts';
import { TokenStore } from '../token/store.ts';
import { calculateTtl, limitsOf } from '../token/ttl.ts';
import { addressAllowed } from './cidr.ts';
import type { TokenSettings } from './token-settings.ts';

/** A missing, unknown or expired token: a 403 clients recognise by `permission denied`. */
export const invalidToken = () => new SecretsError(403, '2 errors occurred:\n\t* permission denied\n\t* invalid token\n\n');
const denied = () => new SecretsError(403, PERMISSION_DENIED);

export class Access implements Authorizer {
  readonly core: SecretsCore;
  readonly tokens: TokenStore;
  readonly policies: PolicyStore;

  constructor(core: SecretsCore) {
    this.core = core;
    this.tokens = new TokenStore(core);
    this.policies = new PolicyStore(core);
  }

  /** Told of every refused request (the audit devices log it); a throw replaces the refusal (audit failure). */
  onDenied?: (req: LogicalRequest, err: SecretsError) => Promise<void>;

  async authorize(req: LogicalRequest, opts: { rootProtected: boolean }): Promise<AuthorizationResult> {
    try {
      return await this.#decide(req, opts);
    } catch (err) {
      if (err instanceof SecretsError && err.status === 403) await this.onDenied?.(req, err);
      throw err;
    }
  }

  async #decide(req: LogicalRequest, opts: { rootProtected: boolean }): Promise<AuthorizationResult> {
    if (!req.clientToken) throw denied();
    const entry = await this.tokens.lookup(req.clientToken);
    if (!entry) throw invalidToken();
    if (!addressAllowed(req.connection.remoteAddress, entry.boundCidrs ?? [])) throw denied();
    const scoped = await this.#scope(entry, req.namespace, req.path);
    if (!scoped) throw denied();
    const acl = await this.policies.acl(scoped.tokenNamespace, entry.policies);
    const path = req.operation === 'list' && !scoped.path.endsWith('/') ? `${scoped.path}/` : scoped.path;
    const decision = acl.evaluate(path, req.operation as AclOperation, { rootProtected: opts.rootProtected, data: req.data });
    if (!decision.allowed) {
      // As in Vault, a request the policies refuse still spends a use: a wrapping token tried elsewhere is gone.
      await this.tokens.use(entry);
      throw denied();
    }
    const used = await this.tokens.use(entry);
    if (!used) throw invalidToken();
    return { root: decision.root, token: TokenStore.summary(used, req.clientToken), policies: used.policies, entry: used };
  }

  /**
   * A token acts in its own namespace and the namespaces below it; policy paths are relative to the token's
   * namespace. Undefined when the request's namespace is outside the token's.
   */
  async #scope(entry: TokenEntry, ns: Namespace, path: string): Promise<{ tokenNamespace: Namespace; path: string } | undefined> {
    if (entry.namespaceId === ns.id) return { tokenNamespace: ns, path };
    const tokenNamespace = await this.core.namespaceById(entry.namespaceId);
    if (!tokenNamespace || !ns.path.startsWith(tokenNamespace.path)) return undefined;
    return { tokenNamespace, path: ns.path.slice(tokenNamespace.path.length) + path };
  }

  /** True when the request's token holds root or sudo on `path` (relative to the request's namespace). */
  async hasSudo(req: LogicalRequest, path = req.path): Promise<boolean> {
    const entry = await this.tokens.lookup(req.clientToken, { allowSpent: true });
    if (!entry) return false;
    const scoped = await this.#scope(entry, req.namespace, path);
    if (!scoped) return false;
    const acl = await this.policies.acl(scoped.tokenNamespace, entry.policies);
    return acl.root || (acl.ruleFor(scoped.path)?.capabilities.has('sudo') ?? false);
  }

  async capabilities(token: string, ns: Namespace, path: string): Promise<string[]> {
    const entry = await this.tokens.lookup(token);
    if (!entry) return ['deny'];
    const scoped = await this.#scope(entry, ns, path.replace(/^\/+/, ''));
    if (!scoped) return ['deny'];
    return (await this.policies.acl(scoped.tokenNamespace, entry.policies)).capabilities(scoped.path);
  }

  async hasAccessUnder(token: string, ns: Namespace, prefix: string): Promise<boolean> {
    const entry = await this.tokens.lookup(token);
    if (!entry) return false;
    const scoped = await this.#scope(entry, ns, prefix.replace(/^\/+/, ''));
    if (!scoped) return false;
    return (await this.policies.acl(scoped.tokenNamespace, entry.policies)).hasAccessUnder(scoped.path);
  }

  async createRootToken(ns: Namespace, id?: string): Promise<string> {
    if (id && (await this.tokens.lookup(id))) return id;
    const now = this.core.clock.now();
    const { id: tokenId } = await this.tokens.create(
      {
        namespaceId: ns.id,
        parentHash: null,
        parentNamespaceId: null,
        policies: ['root'],
        meta: null,
        displayName: 'root',
        numUses: 0,
        creationTime: now,
        creationTtl: 0,
        expireTime: null,
        explicitMaxTtl: 0,
        period: 0,
        renewable: false,
        path: 'auth/token/root',
        role: '',
        entityId: '',
        lastRenewalTime: null,
        backendMaxTtl: 0,
      },
      id,
    );
    return tokenId;
  }

  async createWrappingToken(ns: Namespace, opts: { ttl: number; path: string; now: number; payload: unknown }): Promise<{ token: string; accessor: string }> {
    const { id, entry } = await this.tokens.create({
      namespaceId: ns.id,
      parentHash: null,
      parentNamespaceId: null,
      policies: [RESPONSE_WRAPPING_POLICY],
      meta: null,
      displayName: '',
      numUses: 1,
      creationTime: opts.now,
      creationTtl: opts.ttl,
      expireTime: opts.now + opts.ttl * 1000,
      explicitMaxTtl: opts.ttl,
      period: 0,
      renewable: false,
      path: opts.path,
      role: '',
      entityId: '',
      lastRenewalTime: null,
      backendMaxTtl: 0,
    });
    await this.tokens.putWrapped(entry, opts.payload);
    return { token: id, accessor: entry.accessor };
  }

  async #wrappingEntry(token: string, opts: { allowSpent?: boolean } = {}): Promise<TokenEntry | undefined> {
    const entry = await this.tokens.lookup(token, opts);
    return entry && isWrappingToken(entry) ? entry : undefined;
  }

  async readWrapping(token: string): Promise<unknown> {
    const entry = await this.#wrappingEntry(token);
    return entry && this.tokens.wrapped(entry);
  }

  async takeWrapping(token: string, opts: { spentByThisRequest?: boolean } = {}): Promise<unknown> {
    const entry = await this.#wrappingEntry(token, { allowSpent: opts.spentByThisRequest });
    return entry && this.tokens.takeWrapped(entry);
  }

  async lookup(token: string): Promise<TokenSummary | undefined> {
    const entry = await this.tokens.lookup(token);
    return entry ? TokenStore.summary(entry, token) : undefined;
  }

  /**
   * Issues the token of a successful login (orphan, in the request's namespace) and answers with its auth block.
   * A login from outside the settings' token_bound_cidrs is refused: the token could not be used from there anyway.
   */
  async issueLoginToken(
    req: LogicalRequest,
    settings: TokenSettings,
    opts: { policies?: string[]; meta: Record<string, string>; displayName: string },
  ): Promise<LogicalResponse> {
    if (!addressAllowed(req.connection.remoteAddress, settings.boundCidrs)) throw denied();
    const now = this.core.clock.now();
    const policies = sanitizePolicyNames([...(opts.policies ?? settings.policies), ...(settings.noDefaultPolicy ? [] : ['default'])]);
    const limits = limitsOf(req.mount?.config);
    // the issuing mount's max (or the user's or role's own, when lower) keeps capping the token's renewals
    const backendMaxTtl = settings.maxTtl > 0 ? Math.min(settings.maxTtl, limits.maxTtl) : limits.maxTtl;
    const { ttl, warnings } = calculateTtl({
      limits,
      now,
      issuedAt: now,
      requestedTtl: settings.ttl,
      period: settings.period,
      backendMaxTtl,
      explicitMaxTtl: settings.explicitMaxTtl,
    });
    const mountName = (req.mount?.path ?? req.mountPath.replace(/^auth\//, '')).replace(/\/$/, '').replaceAll('/', '-');
    const { id, entry } = await this.tokens.create({
      namespaceId: req.namespace.id,
      parentHash: null,
      parentNamespaceId: null,
      policies: policies.includes('root') ? ['root'] : policies,
      meta: opts.meta,
      displayName: `${mountName}-${opts.displayName}`.replace(/-$/, ''),
      numUses: settings.numUses,
      creationTime: now,
      creationTtl: ttl,
      expireTime: ttl === 0 ? null : now + ttl * 1000,
      explicitMaxTtl: settings.explicitMaxTtl,
      period: settings.period,
      renewable: settings.type !== 'batch' && settings.type !== 'default-batch',
      path: req.path,
      role: '',
      entityId: '',
      lastRenewalTime: null,
      backendMaxTtl,
      boundCidrs: settings.boundCidrs,
      type: settings.type === 'batch' || settings.type === 'default-batch' ? 'batch' : 'service',
    });
    return { auth: authBlock(entry, id, now), warnings: warnings.length ? warnings : undefined };
  }
}
