// The interface between the two halves of the secrets store:
//   - the core (http stage, router, envelope, seal/barrier, storage, mounts, sys, kv, namespaces), and
//   - the access half (tokens, policies, auth methods, audit, and the sys routes sys/auth*, sys/policy*,
//     sys/policies/*, sys/capabilities*, sys/audit*).
// The access half plugs in through src/services/secrets/auth/plugin.ts exporting `createAccessPlugin(): SecretsPlugin`
// (called once per running service, so runtimes in one process do not share state); the core wires it in index.ts. Until it exists the core uses a root-token-only authoriser.
// Docs: docs/secrets.md (the core half) links to docs/secrets-auth.md (tokens, policies, auth methods and audit).
import { ApiError } from '../../core/errors.ts';
import type { TokenEntry } from './token/entry.ts';

/** The logical operation after method mapping and the existence check. */
export type Operation = 'create' | 'read' | 'update' | 'patch' | 'delete' | 'list' | 'help';

/** A namespace. The root namespace has id `root` and path ``; others have paths like `ns1/ns2/`. */
export interface Namespace {
  id: string;
  /** Canonical path with a trailing slash (`a/b/`), or `` for root. */
  path: string;
  customMetadata?: Record<string, string>;
}

export interface ConnectionInfo {
  remoteAddress: string;
  tls: boolean;
}

/** A request after the http stage decoded it and the router resolved namespace, operation and mount. */
export interface LogicalRequest {
  /** Request id (UUID), also the envelope's `request_id`. */
  id: string;
  operation: Operation;
  namespace: Namespace;
  /** Path relative to the namespace, no leading slash (`secret/data/a`, `sys/mounts`, `auth/token/create`). */
  path: string;
  /** Path relative to the mount (or to `sys/` for system routes). Lists end in `/`. */
  relativePath: string;
  /** The mount that serves the request (`secret/`, `auth/userpass/`, `sys/`), with its entry when it is a mount. */
  mountPath: string;
  mount?: MountEntry;
  /** Body fields (POST/PUT/PATCH) or query fields minus help/list (GET/DELETE/LIST). Path captures win. */
  data: Record<string, unknown>;
  query: Record<string, string>;
  /** From X-Secrets-Token / X-Vault-Token / Authorization: Bearer; `` when absent. */
  clientToken: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  connection: ConnectionInfo;
  /** Storage of the serving mount (a view under its own prefix), or the namespace's system view for sys routes. */
  storage: BarrierStorage;
  /** Filled by the authoriser on success; absent for unauthenticated paths. */
  auth?: AuthorizationResult;
}

/** Block returned by logins and token creation (rendered as the envelope's `auth`). */
export interface AuthBlock {
  client_token: string;
  accessor: string;
  policies: string[];
  token_policies?: string[];
  identity_policies?: string[];
  metadata: Record<string, string> | null;
  lease_duration: number;
  renewable: boolean;
  entity_id: string;
  token_type: 'service' | 'batch';
  orphan: boolean;
  mfa_requirement: null;
  num_uses: number;
}

export interface WrapInfo {
  token: string;
  accessor: string;
  ttl: number;
  creation_time: string;
  creation_path: string;
  wrapped_accessor?: string;
}

/** What a backend or system route answers. `null` or `{}` with nothing set renders as 204. */
export interface LogicalResponse {
  data?: Record<string, unknown> | null;
  auth?: AuthBlock | null;
  warnings?: string[];
  wrapInfo?: WrapInfo | null;
  leaseId?: string;
  leaseDuration?: number;
  renewable?: boolean;
  /** Status override (for example 404 with a full envelope for a soft-deleted KV v2 version). */
  status?: number;
  /** Copy every key of `data` to the envelope's top level too (legacy sys listings). */
  topLevelData?: boolean;
  /** A bare body instead of the envelope (sys/init, seal-status, health, leader). */
  raw?: { status: number; body: unknown; headers?: Record<string, string> };
}

/** The one error type of the secrets store: rendered as `{"errors":[...]}` (plus `data` when given). */
export class SecretsError extends ApiError {
  readonly errors: string[];
  /** When set, the error body is a full envelope built from this response (status still `status`). */
  readonly response?: LogicalResponse;
  constructor(status: number, errors: string[] | string, response?: LogicalResponse) {
    const list = typeof errors === 'string' ? [errors] : errors;
    super(status, list[0] ?? '');
    this.errors = list;
    this.response = response;
  }
}

/**
 * The go-multierror text of an error Vault's core returns without a response (a denial, a path or operation no
 * backend serves); clients match the message inside, such as `permission denied`.
 */
export const coreError = (message: string) => `1 error occurred:\n\t* ${message}\n\n`;
export const PERMISSION_DENIED = coreError('permission denied');
export const permissionDenied = () => new SecretsError(403, PERMISSION_DENIED);
export const badRequest = (message: string) => new SecretsError(400, message);
export const notFound = (errors: string[] = []) => new SecretsError(404, errors);
/** A path inside a mount that its backend does not serve. */
export const unsupportedPath = () => new SecretsError(404, coreError('unsupported path'));
/** A served path asked for an operation it does not have. */
export const unsupportedOperation = () => new SecretsError(405, coreError('unsupported operation'));

/** Encrypted logical storage (through the barrier). Values are JSON. Keys are plaintext paths under the view prefix. */
export interface BarrierStorage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Whether a value is stored under `key` (neither decrypted nor parsed). */
  has(key: string): Promise<boolean>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
  /** Immediate children of `prefix` (which ends in `/` or is ``): leaf names, and folder names ending in `/`. Sorted. */
  list(prefix: string): Promise<string[]>;
  /** A view whose keys are prefixed with `prefix` (ends in `/`). */
  view(prefix: string): BarrierStorage;
  /**
   * The same view, kept by this storage and handed out again: for the few fixed prefixes (`token/`, `policy/`) that
   * every request reads through. Views hold no state of their own.
   */
  keptView(prefix: string): BarrierStorage;
  /** A value with an opaque revision for `batch`'s guard (`null` revision = absent). */
  read<T = unknown>(key: string): Promise<{ value: T | undefined; revision: StoredRevision }>;
  /**
   * Writes (`value` given) and deletes (`value` undefined) in one transaction: all or nothing. With `guard`, the
   * guarded key must still be at `revision` (checked by a conditional write in the database, so it holds across
   * instances) and must be one of the ops; otherwise nothing is written and `StorageConflictError` is thrown.
   */
  batch(ops: Array<{ key: string; value?: unknown }>, guard?: { key: string; revision: StoredRevision }): Promise<void>;
  /** Runs `fn` holding an in-process lock on `key` (read-modify-write such as CAS). */
  locked<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** Opaque revision of a stored value (its ciphertext), or null when absent. */
export type StoredRevision = Buffer | null;

/** A guarded batch lost a race: the guarded key changed since it was read. */
export class StorageConflictError extends Error {}

/** One entry of a mount table (secret engines and auth methods alike). */
export interface MountEntry {
  /** Path relative to the namespace, trailing slash; auth mounts are stored without the `auth/` prefix. */
  path: string;
  type: string;
  description: string;
  accessor: string;
  uuid: string;
  local: boolean;
  seal_wrap: boolean;
  external_entropy_access: boolean;
  config: MountConfig;
  options: Record<string, string> | null;
  plugin_version: string;
  running_plugin_version: string;
}

export interface MountConfig {
  /** Seconds; 0 = system default (768h). */
  default_lease_ttl: number;
  max_lease_ttl: number;
  force_no_cache: boolean;
  listing_visibility?: string;
  audit_non_hmac_request_keys?: string[];
  audit_non_hmac_response_keys?: string[];
  passthrough_request_headers?: string[];
  allowed_response_headers?: string[];
  token_type?: string;
}

export type MountKind = 'secret' | 'auth';

/** The mount tables of every namespace (the access half uses it for sys/auth). */
export interface MountTable {
  list(ns: Namespace, kind: MountKind): Promise<MountEntry[]>;
  get(ns: Namespace, kind: MountKind, path: string): Promise<MountEntry | undefined>;
  /** Validates, rejects overlaps with 409/400 errors as Vault does, creates the backend. */
  mount(ns: Namespace, kind: MountKind, input: MountInput): Promise<MountEntry>;
  /** Removes the mount and deletes its storage. Absent is not an error. */
  unmount(ns: Namespace, kind: MountKind, path: string): Promise<void>;
  tune(ns: Namespace, kind: MountKind, path: string, input: Record<string, unknown>): Promise<MountEntry>;
}

export interface MountInput {
  path: string;
  type: string;
  description?: string;
  config?: Record<string, unknown>;
  options?: Record<string, unknown> | null;
  local?: boolean;
  seal_wrap?: boolean;
}

/** What a backend's factory gets. */
export interface BackendContext {
  mount: MountEntry;
  namespace: Namespace;
  /** The mount's own storage view. */
  storage: BarrierStorage;
  core: SecretsCore;
}

/** A mounted secrets engine or auth method. Paths are relative to the mount. */
export interface Backend {
  handle(req: LogicalRequest): Promise<LogicalResponse | null>;
  /** For create vs update on POST/PUT: true = exists (update), false = create. Absent = always update. */
  exists?(req: LogicalRequest): Promise<boolean>;
  /** Paths needing no token (`login`, `login/*`); `*` only as the last character = prefix. */
  unauthenticatedPaths?: string[];
  /** Paths needing sudo in addition to the capability (same pattern rules). */
  rootProtectedPaths?: string[];
  /** Paths whose body is the data itself (stored as sent, `null` values included); elsewhere `null` means absent. */
  arbitraryInputPaths?: string[];
  /**
   * Paths (besides the arbitrary-input ones) whose handlers keep the numbers inside the body's fields as sent
   * (`ExactNumber` where a double would change the literal, see exact-numbers.ts; the fields themselves are plain);
   * elsewhere every number of the body is a plain number.
   */
  exactNumberPaths?: string[];
  /** Markdown help and OpenAPI path items (paths relative to the mount, leading `/`). */
  help?(req: LogicalRequest): { help: string; paths: Record<string, unknown> };
  /** Called when the mount is removed (its storage is deleted by the core). */
  cleanup?(): Promise<void>;
}

export type BackendFactory = (ctx: BackendContext) => Backend;

/** A sys route (paths relative to `sys/`). Patterns: RegExp tested against the relative path. */
export interface SystemRoute {
  pattern: RegExp;
  /** Operations served; others answer 405. */
  operations: Operation[];
  handle(req: LogicalRequest, match: RegExpMatchArray): Promise<LogicalResponse | null>;
  exists?(req: LogicalRequest, match: RegExpMatchArray): Promise<boolean>;
  unauthenticated?: boolean;
  /**
   * Checks of the request made before its client token is (Vault's HTTP layer validates a wrapping token before the
   * core looks at the caller): a throw answers the request.
   */
  beforeAuthorization?(req: LogicalRequest): Promise<void>;
  rootProtected?: boolean;
  /** Answer in the root namespace only (400 `operation unavailable in namespaces` elsewhere). */
  rootNamespaceOnly?: boolean;
  /** The body is the data itself (stored as sent, `null` values included); elsewhere `null` means absent. */
  arbitraryInput?: boolean;
  help?: string;
}

/** Token entry as the access half keeps it; the core reads only these fields. */
export interface TokenSummary {
  id: string;
  accessor: string;
  policies: string[];
  namespaceId: string;
  /** Path that created it (`auth/token/root`, `auth/userpass/login/bob`). */
  path: string;
  displayName: string;
  entityId: string;
}

export interface AuthorizationResult {
  /** Root policy present. */
  root: boolean;
  token: TokenSummary;
  policies: string[];
  /**
   * The caller's token as this request's authorisation left it, its use counted (absent before the token store is
   * installed and on unauthenticated paths). A handler about the calling token reads this, not the store: once the
   * last use is spent, a concurrent request may revoke the token before this one answers.
   */
  entry?: TokenEntry;
}

/**
 * The access half's hook, called by the router on every request that is not unauthenticated, after the existence
 * check decided the operation. Throws `SecretsError` 403 (`permission denied`, or bad/expired token), or returns the
 * result when allowed. `rootProtected`: sudo is needed too. Decrements num_uses.
 */
export interface Authorizer {
  authorize(req: LogicalRequest, opts: { rootProtected: boolean }): Promise<AuthorizationResult>;
  /** Capabilities of the request's token on `path` (relative to `ns`), for sys/internal/ui/mounts and help. */
  capabilities(token: string, ns: Namespace, path: string): Promise<string[]>;
  /** Issues a root token in `ns` (init, dev mode). `id` fixes the token (dev mode). Returns the token. */
  createRootToken(ns: Namespace, id?: string): Promise<string>;
  /** Looks a token up without counting a use (namespace deletion, help). Undefined when unknown or expired. */
  lookup(token: string): Promise<TokenSummary | undefined>;
  /**
   * Optional: true when the token has any capability other than deny on some path under `prefix` (relative to `ns`),
   * the rule sys/internal/ui/mounts/:path uses ("any capability on the mount"). Without it, capabilities() on the
   * asked path and the mount path decide.
   */
  hasAccessUnder?(token: string, ns: Namespace, prefix: string): Promise<boolean>;
  /**
   * Issues a response-wrapping token in `ns` (policy `response-wrapping` only, one use, `ttl` seconds from `now`, no
   * parent, not renewable) and keeps `payload` with it inside the barrier: revoking or expiring the token destroys it.
   */
  createWrappingToken(ns: Namespace, opts: { ttl: number; path: string; now: number; payload: unknown }): Promise<{ token: string; accessor: string }>;
  /** The payload of a live wrapping token, without counting a use; undefined for any other token. */
  readWrapping(token: string): Promise<unknown>;
  /**
   * The payload, once: the token is revoked with it. Undefined when there is none or another request took it.
   * `spentByThisRequest`: the token is this request's client token, whose one use its authorisation counted.
   */
  takeWrapping(token: string, opts?: { spentByThisRequest?: boolean }): Promise<unknown>;
}

/** Audit hook. A throw from either call fails the request with 500 (requests never go unaudited). */
/** The audit devices a request's line went to: its response line goes to the same ones. */
export type AuditTrail = readonly object[];

export interface Auditor {
  logRequest(req: LogicalRequest): Promise<AuditTrail>;
  logResponse(trail: AuditTrail, req: LogicalRequest, res: LogicalResponse | null, err?: SecretsError): Promise<void>;
}

/** The core's facilities as the access half sees them. Available after unseal; storage throws 503 while sealed. */
export interface SecretsCore {
  clock: { now(): number };
  /** Entries and bytes of compiled ACLs kept in memory (settings `aclCacheBudget`); a default when absent. */
  aclCacheBudget?: { entries: number; bytes: number };
  mounts: MountTable;
  /** The namespace's own system storage view (policies, tokens, audit config live here). */
  systemStorage(ns: Namespace): BarrierStorage;
  /** Namespace by id or by canonical path (`` = root). */
  namespaceById(id: string): Promise<Namespace | undefined>;
  namespaceByPath(path: string): Promise<Namespace | undefined>;
  /** The namespace and its ancestors, root first. */
  ancestors(ns: Namespace): Promise<Namespace[]>;
  /** HMAC key for audit, tokens' salted hashes: a stable per-store secret stored in the barrier. */
  salt(): Promise<Buffer>;
  log: { info(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

/** How the access half plugs in. `install` runs once at register time. */
export interface SecretsPlugin {
  /** Auth method types (`token` is mounted at auth/token/ in every namespace, cannot be disabled; `userpass`, `approle`). */
  credentialBackends: Record<string, BackendFactory>;
  /** Extra secret engine types (optional; `cubbyhole` may live here). */
  logicalBackends?: Record<string, BackendFactory>;
  /** sys routes owned by the access half. */
  systemRoutes: SystemRoute[];
  /** Builds the authoriser and auditor once the core exists. */
  install(core: SecretsCore): { authorizer: Authorizer; auditor?: Auditor };
  /** Called after unseal and after a namespace is created (seed default/root policies, token mount). */
  onNamespace?(ns: Namespace): Promise<void>;
  /** Called before a namespace's storage is deleted. */
  onNamespaceDeleted?(ns: Namespace): Promise<void>;
}
