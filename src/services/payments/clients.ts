// Payment clients are principals of kind `payment_client`; their licence key is an encrypted `licence_key`
// credential (the server must read it back to verify API keys, MACs and digests). Its accepted sources (IP allow-list)
// are the principal's `accepted_sources` attribute.
import { randomBytes } from 'node:crypto';
import { boundedCache, type CacheBudget } from '../../core/cache.ts';
import type { Clock } from '../../core/clock.ts';
import type { Identity, Principal } from '../../core/identity.ts';
import type { Client } from './contract.ts';

export const CLIENT_KIND = 'payment_client';

/** How long a looked-up client and key are reused: other instances sharing the database see changes within it. */
const CACHE_MS = 5000;

/** Default budget of the client cache (`services.payments.client_cache_budget`). */
export const DEFAULT_CLIENT_CACHE_BUDGET: CacheBudget = { entries: 10_000, bytes: 4 * 1024 * 1024 };

interface CachedClient {
  at: number;
  client: Client;
  key: string;
}

export class Clients {
  readonly #identity: Identity;
  readonly #clock: Clock;
  // Every request needs its client and licence key; this instance drops an entry at once when it changes one.
  readonly #cache: ReturnType<typeof boundedCache<string, CachedClient>>;

  constructor(identity: Identity, clock: Clock, cacheBudget: CacheBudget = DEFAULT_CLIENT_CACHE_BUDGET) {
    this.#identity = identity;
    this.#clock = clock;
    this.#cache = boundedCache<string, CachedClient>(cacheBudget, (c) => {
      const sources = c.client.acceptedSources.reduce((n, s) => n + s.length + 16, 0);
      return (c.client.clientid.length + c.client.name.length + c.key.length + sources) * 2 + 64;
    });
  }

  async get(clientid: string): Promise<Client | undefined> {
    const cached = this.#fresh(clientid);
    if (cached) return cached.client;
    const p = await this.#identity.getPrincipal(clientid);
    return p && p.kind === CLIENT_KIND ? clientOf(p) : undefined;
  }

  async list(): Promise<Client[]> {
    return (await this.#identity.listPrincipals(CLIENT_KIND)).map(clientOf);
  }

  async licenceKeyOf(clientid: string): Promise<string | undefined> {
    const cached = this.#fresh(clientid);
    if (cached) return cached.key;
    const client = await this.get(clientid);
    if (!client) return undefined;
    const credential = (await this.#identity.listCredentials(clientid)).filter((c) => c.type === 'licence_key').at(-1);
    const key = credential ? await this.#identity.secretOf(credential.id) : undefined;
    if (key !== undefined) {
      this.#cache.set(clientid, { at: this.#clock.now(), client, key });
    }
    return key;
  }

  #fresh(clientid: string) {
    const entry = this.#cache.get(clientid);
    return entry && Math.abs(this.#clock.now() - entry.at) < CACHE_MS ? entry : undefined;
  }

  /**
   * Creates the client, or renames it; `licenceKey` replaces its key (a random one is made for a new client without
   * one), `acceptedSources` its accepted sources (kept when absent; empty accepts every source). Answers the licence
   * key when it was set or made now.
   */
  async upsert(input: { clientid: string; name: string; licenceKey?: string; acceptedSources?: readonly string[] }): Promise<string | undefined> {
    const previous = await this.#identity.getPrincipal(input.clientid);
    const { accepted_sources: kept, ...attrs } = previous?.kind === CLIENT_KIND ? previous.attrs : {};
    const sources = input.acceptedSources ?? (Array.isArray(kept) ? (kept as string[]) : []);
    await this.#identity.upsertPrincipal({ id: input.clientid, kind: CLIENT_KIND, name: input.name, attrs: sources.length > 0 ? { ...attrs, accepted_sources: sources } : attrs });
    const existing = (await this.#identity.listCredentials(input.clientid)).filter((c) => c.type === 'licence_key');
    let issued: string | undefined;
    if (input.licenceKey !== undefined) {
      if ((await this.licenceKeyOf(input.clientid)) !== input.licenceKey) {
        for (const c of existing) await this.#identity.deleteCredential(c.id);
        issued = (await this.#issue(input.clientid, input.licenceKey)).value;
      }
    } else if (existing.length === 0) {
      issued = (await this.#issue(input.clientid)).value;
    }
    this.#cache.delete(input.clientid);
    return issued;
  }

  async delete(clientid: string): Promise<boolean> {
    this.#cache.delete(clientid);
    if (!(await this.get(clientid))) return false;
    return this.#identity.deletePrincipal(clientid);
  }

  forget(): void {
    this.#cache.clear();
  }

  #issue(clientid: string, value?: string) {
    return this.#identity.issueCredential({
      principalId: clientid,
      type: 'licence_key',
      value: value ?? randomLicenceKey(),
      label: 'payments licence key',
      keepSecret: true,
    });
  }
}

function clientOf(p: Principal): Client {
  const sources = p.attrs.accepted_sources;
  return { clientid: p.id, name: p.name, acceptedSources: Array.isArray(sources) ? (sources as string[]) : [] };
}

/** 16 upper-case letters and digits, the shape of issued licence keys. */
export function randomLicenceKey(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(16);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
