// Response wrapping: a response is stored behind a single-use wrapping token with a TTL, and the client receives only
// `wrap_info`. The token unlocks sys/wrapping/unwrap once (or lookup/rewrap) until it expires on the service clock.
// Wrapped responses live in the root namespace's system storage under a keyed hash of the token.
import { createHmac, randomBytes } from 'node:crypto';
import { badRequest, type LogicalResponse, type Namespace, type WrapInfo } from '../contract.ts';
import { formatGoTime, parseDurationSeconds } from '../http/fields.ts';
import { ROOT_NAMESPACE } from '../namespaces/registry.ts';
import type { StoreCore } from './core.ts';

interface StoredWrap {
  response: LogicalResponse;
  accessor: string;
  creation_time: number;
  ttl: number;
  creation_path: string;
  namespace_id: string;
}

/** The requested wrap TTL in seconds from X-Secrets-Wrap-TTL / X-Vault-Wrap-TTL; undefined when absent. */
export function wrapTtlOf(headers: Record<string, string | string[] | undefined>): number | undefined {
  const raw = headers['x-secrets-wrap-ttl'] ?? headers['x-vault-wrap-ttl'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return undefined;
  if (/^-/.test(value.trim())) throw badRequest('requested wrap ttl cannot be negative');
  const ttl = parseDurationSeconds(value, 'wrap ttl');
  return ttl > 0 ? ttl : undefined;
}

export const INVALID_WRAPPING_TOKEN = 'wrapping token is not valid or does not exist';
export const DEFAULT_WRAP_TTL = 300;

export class Wrapping {
  readonly #core: StoreCore;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  #store() {
    return this.#core.systemStorage(ROOT_NAMESPACE).view('wrapping/');
  }

  async #key(token: string): Promise<string> {
    return createHmac('sha256', await this.#core.salt()).update(`wrap:${token}`).digest('hex');
  }

  /** Stores `response` and returns the wrap_info that replaces it. */
  async wrap(ns: Namespace, response: LogicalResponse, ttl: number, path: string): Promise<WrapInfo> {
    const token = `hvs.${randomBytes(18).toString('base64url')}`;
    const accessor = randomBytes(12).toString('base64url');
    const now = this.#core.clock.now();
    const stored: StoredWrap = { response, accessor, creation_time: now, ttl, creation_path: path, namespace_id: ns.id };
    await this.#store().put(await this.#key(token), stored);
    return {
      token,
      accessor,
      ttl,
      creation_time: formatGoTime(now),
      creation_path: path,
      ...(response.auth ? { wrapped_accessor: response.auth.accessor } : {}),
    };
  }

  async #find(token: unknown): Promise<{ key: string; stored: StoredWrap }> {
    if (typeof token !== 'string' || token === '') throw badRequest(INVALID_WRAPPING_TOKEN);
    const key = await this.#key(token);
    const stored = await this.#store().get<StoredWrap>(key);
    if (!stored) throw badRequest(INVALID_WRAPPING_TOKEN);
    if (stored.creation_time + stored.ttl * 1000 <= this.#core.clock.now()) {
      await this.#store().delete(key);
      throw badRequest(INVALID_WRAPPING_TOKEN);
    }
    return { key, stored };
  }

  async lookup(token: unknown): Promise<LogicalResponse> {
    const { stored } = await this.#find(token);
    return {
      data: { creation_path: stored.creation_path, creation_time: formatGoTime(stored.creation_time), creation_ttl: stored.ttl },
    };
  }

  /** The wrapped response, once: the token is spent by this call. */
  async unwrap(token: unknown): Promise<LogicalResponse> {
    const { key, stored } = await this.#find(token);
    await this.#store().delete(key);
    return stored.response;
  }

  async rewrap(token: unknown): Promise<LogicalResponse> {
    const { key, stored } = await this.#find(token);
    await this.#store().delete(key);
    const ns = (await this.#core.namespaces.byId(stored.namespace_id)) ?? ROOT_NAMESPACE;
    return { wrapInfo: await this.wrap(ns, stored.response, stored.ttl, stored.creation_path) };
  }
}
