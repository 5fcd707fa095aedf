// Principals (users, service accounts, bidder accounts, payment clients, ...) and their credentials, for every service.
// Credential values are never stored in clear: a keyed hash finds them, and only credentials a service must read back
// (such as HMAC licence keys) keep an encrypted copy.
import type { Kysely } from 'kysely';
import { boundedCache, type CacheBudget } from './cache.ts';
import type { Clock } from './clock.ts';
import type { Vault } from './crypto.ts';
import { randomToken, uuid } from './ids.ts';

export type CredentialType = 'api_key' | 'bearer' | 'licence_key';

export interface Principal {
  id: string;
  kind: string;
  name: string;
  attrs: Record<string, unknown>;
  createdAt: number;
}

export interface Credential {
  id: string;
  principalId: string;
  type: CredentialType;
  scopes: string[];
  label: string | null;
  createdAt: number;
  expiresAt: number | null;
}

export interface Resolved {
  principal: Principal;
  credential: Credential;
}

const CACHE_MS = 2000;

/** Default budget of the credential cache (`caches.credentials` in the configuration). */
export const DEFAULT_CREDENTIAL_CACHE_BUDGET: CacheBudget = { entries: 10_000, bytes: 16 * 1024 * 1024 };

interface CachedLookup {
  at: number;
  value: Resolved | undefined;
}

export class Identity {
  readonly #db: Kysely<any>;
  readonly #clock: Clock;
  readonly #vault: Vault;
  // Short-lived cache of lookups: credentials are checked on every request.
  // Unknown values are cached too (a client retrying a wrong key), so the budget bounds what callers can fill.
  readonly #cache: ReturnType<typeof boundedCache<string, CachedLookup>>;

  constructor(db: Kysely<any>, clock: Clock, vault: Vault, cacheBudget: CacheBudget = DEFAULT_CREDENTIAL_CACHE_BUDGET) {
    this.#db = db;
    this.#clock = clock;
    this.#vault = vault;
    // A principal's attributes are what can be large; the rest of an entry is small and fixed.
    this.#cache = boundedCache<string, CachedLookup>(cacheBudget, (c) => 256 + JSON.stringify(c.value?.principal.attrs ?? null).length * 2);
  }

  async createPrincipal(input: { id?: string; kind: string; name: string; attrs?: Record<string, unknown> }): Promise<Principal> {
    const principal: Principal = {
      id: input.id ?? uuid(),
      kind: input.kind,
      name: input.name,
      attrs: input.attrs ?? {},
      createdAt: this.#clock.now(),
    };
    await this.#db
      .insertInto('core_principals')
      .values({ id: principal.id, kind: principal.kind, name: principal.name, attrs: JSON.stringify(principal.attrs), created_at: principal.createdAt })
      .execute();
    return principal;
  }

  /** Creates the principal if absent, otherwise updates its name and attributes (used for config seeds). */
  async upsertPrincipal(input: { id: string; kind: string; name: string; attrs?: Record<string, unknown> }): Promise<Principal> {
    const existing = await this.getPrincipal(input.id);
    if (!existing) return this.createPrincipal(input);
    await this.#db
      .updateTable('core_principals')
      .set({ kind: input.kind, name: input.name, attrs: JSON.stringify(input.attrs ?? {}) })
      .where('id', '=', input.id)
      .execute();
    this.#cache.clear();
    return { ...existing, kind: input.kind, name: input.name, attrs: input.attrs ?? {} };
  }

  async getPrincipal(id: string): Promise<Principal | undefined> {
    const row = await this.#db.selectFrom('core_principals').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toPrincipal(row) : undefined;
  }

  async listPrincipals(kind?: string): Promise<Principal[]> {
    let q = this.#db.selectFrom('core_principals').selectAll().orderBy('created_at').orderBy('id');
    if (kind) q = q.where('kind', '=', kind);
    return (await q.execute()).map(toPrincipal);
  }

  async deletePrincipal(id: string): Promise<boolean> {
    await this.#db.deleteFrom('core_credentials').where('principal_id', '=', id).execute();
    const res = await this.#db.deleteFrom('core_principals').where('id', '=', id).executeTakeFirst();
    this.#cache.clear();
    return Number(res.numDeletedRows) > 0;
  }

  /**
   * Issues a credential. `value` fixes it (config seeds, dev defaults); otherwise a random one is made.
   * The value is returned once; `keepSecret` stores an encrypted copy for credentials the service must read back.
   */
  async issueCredential(input: {
    principalId: string;
    type: CredentialType;
    value?: string;
    scopes?: string[];
    label?: string;
    expiresAt?: number | null;
    keepSecret?: boolean;
  }): Promise<{ credential: Credential; value: string }> {
    const value = input.value ?? randomToken(24);
    const credential: Credential = {
      id: uuid(),
      principalId: input.principalId,
      type: input.type,
      scopes: input.scopes ?? [],
      label: input.label ?? null,
      createdAt: this.#clock.now(),
      expiresAt: input.expiresAt ?? null,
    };
    await this.#db
      .insertInto('core_credentials')
      .values({
        id: credential.id,
        principal_id: credential.principalId,
        type: credential.type,
        lookup_hash: this.#hash(credential.type, value),
        secret_enc: input.keepSecret ? this.#vault.encrypt(value, `credential:${credential.id}`) : null,
        scopes: JSON.stringify(credential.scopes),
        label: credential.label,
        created_at: credential.createdAt,
        expires_at: credential.expiresAt,
      })
      .execute();
    this.#cache.clear();
    return { credential, value };
  }

  /** Issues the credential unless one with the same value already exists (idempotent config seeding). */
  async ensureCredential(input: Parameters<Identity['issueCredential']>[0] & { value: string }): Promise<Credential> {
    const found = await this.resolve(input.type, input.value);
    if (found) return found.credential;
    return (await this.issueCredential(input)).credential;
  }

  /** Finds the live credential with this value; undefined when unknown or expired. */
  async resolve(type: CredentialType, value: string): Promise<Resolved | undefined> {
    // Keyed by the value itself (in memory only, as the request carrying it is): the keyed hash is computed only when
    // the database is asked, not on every request.
    const cacheKey = `${type}\u0000${value}`;
    const now = this.#clock.now();
    const cached = this.#cache.get(cacheKey);
    let resolved: Resolved | undefined;
    if (cached && Math.abs(now - cached.at) < CACHE_MS) {
      resolved = cached.value;
    } else {
      const row = await this.#db
        .selectFrom('core_credentials as c')
        .innerJoin('core_principals as p', 'p.id', 'c.principal_id')
        .select([
          'c.id as c_id', 'c.principal_id', 'c.type', 'c.scopes', 'c.label', 'c.created_at as c_created_at', 'c.expires_at',
          'p.id', 'p.kind', 'p.name', 'p.attrs', 'p.created_at',
        ])
        .where('c.lookup_hash', '=', this.#hash(type, value))
        .executeTakeFirst();
      resolved = row
        ? {
            principal: toPrincipal(row),
            credential: toCredential({ ...row, id: row.c_id, created_at: row.c_created_at }),
          }
        : undefined;
      this.#cache.set(cacheKey, { at: now, value: resolved });
    }
    if (resolved?.credential.expiresAt != null && resolved.credential.expiresAt <= now) return undefined;
    return resolved;
  }

  async listCredentials(principalId?: string): Promise<Credential[]> {
    let q = this.#db.selectFrom('core_credentials').selectAll().orderBy('created_at').orderBy('id');
    if (principalId) q = q.where('principal_id', '=', principalId);
    return (await q.execute()).map(toCredential);
  }

  /** The clear value of a credential issued with `keepSecret`. */
  async secretOf(credentialId: string): Promise<string | undefined> {
    const row = await this.#db.selectFrom('core_credentials').select('secret_enc').where('id', '=', credentialId).executeTakeFirst();
    return row?.secret_enc ? this.#vault.decrypt(row.secret_enc, `credential:${credentialId}`) : undefined;
  }

  async deleteCredential(id: string): Promise<boolean> {
    const res = await this.#db.deleteFrom('core_credentials').where('id', '=', id).executeTakeFirst();
    this.#cache.clear();
    return Number(res.numDeletedRows) > 0;
  }

  /** Forgets cached lookups (after a reset). */
  invalidate(): void {
    this.#cache.clear();
  }

  #hash(type: CredentialType, value: string): string {
    return this.#vault.lookupHash(`${type}:${value}`);
  }
}

const shortScope = (s: string) => s.replace(/^https:\/\/www\.googleapis\.com\/auth\//, '');

/** A credential's scopes by short name, kept with the credential (a resolved one is reused across requests). */
const heldScopes = new WeakMap<Credential, Set<string>>();

/** True when a credential's scopes grant one of `accepted`: full URLs and their short form after `/auth/` are the same scope. */
export function hasScope(credential: Credential, ...accepted: string[]): boolean {
  let held = heldScopes.get(credential);
  if (!held) heldScopes.set(credential, (held = new Set(credential.scopes.map(shortScope))));
  for (const s of accepted) if (held.has(shortScope(s))) return true;
  return false;
}

function toPrincipal(row: any): Principal {
  return { id: row.id, kind: row.kind, name: row.name, attrs: JSON.parse(row.attrs), createdAt: Number(row.created_at) };
}

function toCredential(row: any): Credential {
  return {
    id: row.id,
    principalId: row.principal_id,
    type: row.type,
    scopes: JSON.parse(row.scopes),
    label: row.label ?? null,
    createdAt: Number(row.created_at),
    expiresAt: row.expires_at == null ? null : Number(row.expires_at),
  };
}
