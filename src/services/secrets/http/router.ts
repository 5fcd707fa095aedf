// Logical routing: namespace (header and path prefix), sealed check, sys routes or a mount, the existence check
// deciding create vs update, authorisation, audit, the handler, and the rendered answer.
import {
  SecretsError,
  badRequest,
  permissionDenied,
  unsupportedOperation,
  unsupportedPath,
  type Backend,
  type ConnectionInfo,
  type LogicalRequest,
  type LogicalResponse,
  type Namespace,
  type Operation,
  type SystemRoute,
  type TokenSummary,
} from '../contract.ts';
import { ROOT_NAMESPACE, canonicalNamespacePath } from '../namespaces/registry.ts';
import type { StoreCore } from '../sys/core.ts';
import type { CoreRoute } from '../sys/route.ts';
import { render, renderError, type Rendered } from './envelope.ts';
import type { Wrapping } from '../sys/wrapping.ts';
import { helpResponse } from './help.ts';
import { withoutNullFields } from './fields.ts';
import { withPlainFields, withPlainNumbers } from '../exact-numbers.ts';

/** What the HTTP layer hands over: the operation before the existence check (`write` = POST/PUT). */
export interface RoutedInput {
  requestId: string;
  operation: Exclude<Operation, 'create' | 'update'> | 'write';
  path: string;
  namespaceHeader: string;
  data: Record<string, unknown>;
  query: Record<string, string>;
  clientToken: string;
  headers: Record<string, string>;
  connection: ConnectionInfo;
  /** Seconds from X-Secrets-Wrap-TTL: the response is wrapped when it carries data or auth. */
  wrapTtl?: number;
  /** Told the token that authorised the request (for the request inspector). */
  onAuthorised?(token: TokenSummary): void;
}

/** `*` only as the last character is a prefix match; otherwise exact. */
export function matchesPathPattern(patterns: string[] | undefined, path: string): boolean {
  return (patterns ?? []).some((p) => (p.endsWith('*') ? path.startsWith(p.slice(0, -1)) : path === p));
}

interface Target {
  mountPath: string;
  mountType: string;
  relativePath: string;
  mount?: LogicalRequest['mount'];
  storage: LogicalRequest['storage'];
  backend?: Backend;
  route?: { route: CoreRoute | SystemRoute; match: RegExpMatchArray };
  unauthenticated: boolean;
  rootProtected: boolean;
  /** The body is stored as sent; elsewhere null fields are dropped before any handler reads them. */
  arbitraryInput: boolean;
  /** The body's numbers reach the handler as sent (ExactNumbers); elsewhere as plain numbers. */
  exactNumbers: boolean;
}

const SEGMENT_ENDING_IN_DOT = /\.(?:\/|$)/;

export class Router {
  readonly #core: StoreCore;
  readonly #routes: Array<CoreRoute | SystemRoute>;
  readonly #wrapping: Wrapping;

  constructor(core: StoreCore, routes: Array<CoreRoute | SystemRoute>, wrapping: Wrapping) {
    this.#core = core;
    this.#routes = routes;
    this.#wrapping = wrapping;
  }

  async handle(input: RoutedInput): Promise<Rendered> {
    let mountType = '';
    try {
      if (!this.#core.barrier.sealed && !this.#core.soleWriter) await this.#core.stamp.check();
      const { namespace, path } = await this.#namespace(input);
      // A segment ending in a dot ('.', '..', 'a.'): a dot followed by a slash or the end.
      if (SEGMENT_ENDING_IN_DOT.test(path)) throw new SecretsError(404, `unsupported path`);
      const listing = input.operation === 'list';
      const fullPath = listing && path !== '' && !path.endsWith('/') ? path + '/' : path;
      const target = await this.#target(namespace, fullPath);
      mountType = target.mountType;
      const req: LogicalRequest = {
        id: input.requestId,
        operation: input.operation === 'write' ? 'update' : input.operation,
        namespace,
        path: fullPath,
        relativePath: target.relativePath,
        mountPath: target.mountPath,
        mount: target.mount,
        data: target.arbitraryInput ? input.data : withoutNullFields(target.exactNumbers ? withPlainFields(input.data) : withPlainNumbers(input.data)),
        query: input.query,
        clientToken: input.clientToken,
        headers: input.headers,
        connection: input.connection,
        storage: target.storage,
      };
      if (input.operation === 'write') req.operation = (await this.#exists(target, req)) ? 'update' : 'create';
      if (req.operation === 'help') {
        await this.#authorizeHelp(req, namespace);
        return render(input.requestId, helpResponse(target.backend, target.route?.route, req), mountType);
      }
      if (!target.route && !target.backend) {
        // Authorisation precedes routing: a token without access learns nothing about what is mounted.
        await this.#core.authorizer.authorize(req, { rootProtected: false });
        // inside sys/ the system backend answers; elsewhere no mount does
        if (target.mountPath === 'sys/') throw unsupportedPath();
        throw new SecretsError(404, `no handler for route "${fullPath}". route entry not found.`);
      }
      await target.route?.route.beforeAuthorization?.(req);
      if (target.route && !target.route.route.operations.includes(req.operation)) {
        if ((target.route.route as CoreRoute).httpHandler) throw new SecretsError(405, []);
        if (!target.unauthenticated) await this.#core.authorizer.authorize(req, { rootProtected: target.rootProtected });
        throw unsupportedOperation();
      }
      if (!target.unauthenticated) {
        req.auth = await this.#core.authorizer.authorize(req, { rootProtected: target.rootProtected });
        input.onAuthorised?.(req.auth.token);
      }
      else if (req.clientToken && target.backend) {
        // Unauthenticated backend paths (logins) still see who calls when a valid token is given.
        const token = await this.#core.authorizer.lookup(req.clientToken).catch(() => undefined);
        if (token) req.auth = { root: token.policies.includes('root'), token, policies: token.policies };
      }
      // Nothing can be audited while sealed: the audit configuration is behind the barrier.
      const auditor = this.#core.barrier.sealed ? undefined : this.#core.auditor;
      const trail = await auditor?.logRequest(req);
      let res: LogicalResponse | null;
      try {
        res = target.route ? await target.route.route.handle(req, target.route.match) : await target.backend!.handle(req);
      } catch (err) {
        if (auditor && trail && !this.#core.barrier.sealed) await auditor.logResponse(trail, req, null, err instanceof SecretsError ? err : new SecretsError(500, 'internal error'));
        throw err;
      }
      // sys/seal closes the barrier behind the request it answers; its response cannot be audited any more.
      if (auditor && trail && !this.#core.barrier.sealed) await auditor.logResponse(trail, req, res);
      if (input.wrapTtl && res && !res.raw && !res.wrapInfo && (res.data != null || res.auth != null)) {
        res = { wrapInfo: await this.#wrapping.wrap(namespace, res, input.wrapTtl, fullPath) };
      }
      return render(input.requestId, res, mountType);
    } catch (err) {
      if (err instanceof SecretsError) return renderError(input.requestId, err, mountType);
      throw err;
    }
  }

  /** Header namespace, then leading path segments naming child namespaces (equivalent forms). */
  async #namespace(input: RoutedInput): Promise<{ namespace: Namespace; path: string }> {
    const header = canonicalNamespacePath(input.namespaceHeader);
    const path = input.path.replace(/^\/+/, '');
    if (!header && this.#core.barrier.sealed) return { namespace: ROOT_NAMESPACE, path };
    let namespace = ROOT_NAMESPACE;
    if (header) {
      // While sealed namespaces cannot be looked up; routes served while sealed still see that one was named.
      if (this.#core.barrier.sealed) return { namespace: { id: '', path: header }, path };
      const found = await this.#core.namespaces.byPath(header);
      if (!found) throw new SecretsError(404, `no handler for route "${path}". route entry not found.`);
      namespace = found;
    }
    const resolved = await this.#core.namespaces.resolvePrefix(namespace, path);
    return { namespace: resolved.namespace, path: resolved.rest };
  }

  async #target(namespace: Namespace, path: string): Promise<Target> {
    const core = this.#core;
    if (path === 'sys' || path.startsWith('sys/')) {
      const relative = path.slice(4);
      const found = this.#findRoute(relative);
      const route = found?.route as CoreRoute | undefined;
      if (core.barrier.sealed && !route?.whileSealed) throw new SecretsError(503, 'Vault is sealed');
      if (route?.rootNamespaceOnly && namespace.id !== ROOT_NAMESPACE.id) throw badRequest('operation unavailable in namespaces');
      return {
        mountPath: 'sys/',
        mountType: 'system',
        relativePath: relative,
        storage: core.barrier.sealed ? (undefined as never) : core.systemStorage(namespace),
        route: found,
        unauthenticated: Boolean(route?.unauthenticated),
        rootProtected: Boolean(route?.rootProtected),
        arbitraryInput: Boolean(route?.arbitraryInput),
        exactNumbers: Boolean(route?.arbitraryInput),
      };
    }
    if (core.barrier.sealed) throw new SecretsError(503, 'Vault is sealed');
    const auth = path.startsWith('auth/');
    const inner = auth ? path.slice(5) : path;
    const mounted = await core.mounts.resolve(namespace, auth ? 'auth' : 'secret', inner);
    if (!mounted) {
      return { mountPath: '', mountType: '', relativePath: path, storage: core.systemStorage(namespace), unauthenticated: false, rootProtected: false, arbitraryInput: false, exactNumbers: false };
    }
    const relativePath = inner.length >= mounted.entry.path.length ? inner.slice(mounted.entry.path.length) : '';
    const arbitraryInput = matchesPathPattern(mounted.backend.arbitraryInputPaths, relativePath);
    return {
      mountPath: (auth ? 'auth/' : '') + mounted.entry.path,
      mountType: mounted.entry.type,
      relativePath,
      mount: mounted.entry,
      storage: mounted.storage,
      backend: mounted.backend,
      unauthenticated: matchesPathPattern(mounted.backend.unauthenticatedPaths, relativePath),
      rootProtected: matchesPathPattern(mounted.backend.rootProtectedPaths, relativePath),
      arbitraryInput,
      exactNumbers: arbitraryInput || matchesPathPattern(mounted.backend.exactNumberPaths, relativePath),
    };
  }

  #findRoute(relative: string): { route: CoreRoute | SystemRoute; match: RegExpMatchArray } | undefined {
    for (const route of this.#routes) {
      const match = relative.match(route.pattern);
      if (match) return { route, match };
    }
    return undefined;
  }

  async #exists(target: Target, req: LogicalRequest): Promise<boolean> {
    if (target.route) return target.route.route.exists ? target.route.route.exists(req, target.route.match) : true;
    if (target.backend?.exists) return target.backend.exists(req);
    return true;
  }

  /** Help needs a token with some capability on the path. */
  async #authorizeHelp(req: LogicalRequest, namespace: Namespace): Promise<void> {
    if (!req.clientToken) throw permissionDenied();
    const caps = await this.#core.authorizer.capabilities(req.clientToken, namespace, req.path);
    if (!caps.length || caps.includes('deny')) throw permissionDenied();
  }
}
