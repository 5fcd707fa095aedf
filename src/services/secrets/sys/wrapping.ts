// Response wrapping: a response is kept behind a wrapping token with a TTL, and the client receives only `wrap_info`.
// The wrapping token is a real token of the token store (policy `response-wrapping`, one use, no parent), which keeps
// the wrapped response beside it in the barrier: revoking the token, by accessor or otherwise, destroys the response.
import { badRequest, type LogicalResponse, type Namespace, type WrapInfo } from '../contract.ts';
import { formatGoTime, parseDurationSeconds } from '../http/fields.ts';
import { ROOT_NAMESPACE } from '../namespaces/registry.ts';
import type { StoreCore } from './core.ts';

interface StoredWrap {
  response: LogicalResponse;
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

  /** Stores `response` and returns the wrap_info that replaces it. */
  async wrap(ns: Namespace, response: LogicalResponse, ttl: number, path: string): Promise<WrapInfo> {
    const now = this.#core.clock.now();
    const payload: StoredWrap = { response, creation_time: now, ttl, creation_path: path, namespace_id: ns.id };
    const { token, accessor } = await this.#core.authorizer.createWrappingToken(ns, { ttl, path, now, payload });
    return {
      token,
      accessor,
      ttl,
      creation_time: formatGoTime(now),
      creation_path: path,
      ...(response.auth ? { wrapped_accessor: response.auth.accessor } : {}),
    };
  }

  /**
   * The wrapped response of a live wrapping token: read (the token keeps its use) or taken (the token is revoked).
   * `spentByThisRequest`: the token is the request's client token, its one use counted by the request's authorisation.
   */
  async #stored(token: unknown, how: 'read' | 'take', spentByThisRequest = false): Promise<StoredWrap> {
    const authorizer = this.#core.authorizer;
    const valid = typeof token === 'string' && token !== '';
    const stored = valid ? await (how === 'take' ? authorizer.takeWrapping(token, { spentByThisRequest }) : authorizer.readWrapping(token)) : undefined;
    if (!stored) throw badRequest(INVALID_WRAPPING_TOKEN);
    return stored as StoredWrap;
  }

  /** Throws as lookup does unless `token` is a live wrapping token; spends nothing. */
  async verify(token: unknown): Promise<void> {
    await this.#stored(token, 'read');
  }

  async lookup(token: unknown): Promise<LogicalResponse> {
    const stored = await this.#stored(token, 'read');
    return {
      data: { creation_path: stored.creation_path, creation_time: formatGoTime(stored.creation_time), creation_ttl: stored.ttl },
    };
  }

  /** The wrapped response, once: the token is spent by this call (or was, as the client token of this request). */
  async unwrap(token: unknown, opts: { spentByThisRequest?: boolean } = {}): Promise<LogicalResponse> {
    return (await this.#stored(token, 'take', opts.spentByThisRequest)).response;
  }

  async rewrap(token: unknown): Promise<LogicalResponse> {
    const stored = await this.#stored(token, 'take');
    const ns = (await this.#core.namespaces.byId(stored.namespace_id)) ?? ROOT_NAMESPACE;
    return { wrapInfo: await this.wrap(ns, stored.response, stored.ttl, stored.creation_path) };
  }
}
