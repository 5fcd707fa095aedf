// CORS as sys/config/cors configures it: only when enabled and the request has an Origin. A disallowed origin gets
// 403; a preflight gets the allowed methods and headers.
import { SecretsError, badRequest } from '../contract.ts';
import type { LogicalStorage } from '../storage/logical.ts';
import { parseBool, parseStringList } from './fields.ts';

export const CORS_METHODS = ['DELETE', 'GET', 'OPTIONS', 'POST', 'PUT', 'LIST'];
export const CORS_DEFAULT_HEADERS = [
  'Content-Type',
  'Authorization',
  'X-Requested-With',
  'X-Secrets-Token',
  'X-Secrets-Namespace',
  'X-Secrets-Request',
  'X-Vault-Token',
  'X-Vault-MFA',
  'X-Vault-No-Request-Forwarding',
  'X-Vault-Wrap-Format',
  'X-Vault-Wrap-TTL',
  'X-Vault-AWS-IAM-Server-ID',
  'X-Vault-Policy-Override',
];

export interface CorsConfig {
  enabled: boolean;
  allowed_origins: string[];
  allowed_headers: string[];
  allow_credentials: boolean;
}

const DISABLED: CorsConfig = { enabled: false, allowed_origins: [], allowed_headers: [], allow_credentials: false };

/** The CORS configuration, kept in the root namespace's system storage and cached while unsealed. */
export class CorsSettings {
  #cached: CorsConfig | null = null;
  #storage: () => LogicalStorage;
  #changed: () => Promise<void> = async () => {};

  constructor(storage: () => LogicalStorage) {
    this.#storage = storage;
  }

  /** Called after every change (to tell other instances). */
  onChange(changed: () => Promise<void>): void {
    this.#changed = changed;
  }

  invalidate(): void {
    this.#cached = null;
  }

  /** The configuration, or disabled when it cannot be read (sealed). */
  async current(): Promise<CorsConfig> {
    if (this.#cached) return this.#cached;
    try {
      this.#cached = (await this.#storage().get<CorsConfig>('config/cors')) ?? DISABLED;
    } catch {
      return DISABLED;
    }
    return this.#cached;
  }

  async update(data: Record<string, unknown>): Promise<void> {
    if (data.allowed_origins === undefined) throw badRequest('at least one origin or the wildcard must be provided');
    const origins = parseStringList(data.allowed_origins, 'allowed_origins');
    if (origins.length === 0) throw badRequest('at least one origin or the wildcard must be provided');
    if (origins.includes('*') && origins.length > 1) throw badRequest('to allow all origins the \'*\' must be the only value for allowed_origins');
    const extra = data.allowed_headers === undefined ? [] : parseStringList(data.allowed_headers, 'allowed_headers');
    const headers = [...CORS_DEFAULT_HEADERS];
    for (const h of extra) if (!headers.some((x) => x.toLowerCase() === h.toLowerCase())) headers.push(h);
    const config: CorsConfig = {
      enabled: true,
      allowed_origins: origins,
      allowed_headers: headers,
      allow_credentials: data.allow_credentials === undefined ? false : parseBool(data.allow_credentials, 'allow_credentials'),
    };
    await this.#storage().put('config/cors', config);
    this.#cached = config;
    await this.#changed();
  }

  async disable(): Promise<void> {
    await this.#storage().delete('config/cors');
    this.#cached = DISABLED;
    await this.#changed();
  }
}

export interface CorsDecision {
  /** Headers to add to the response. */
  headers: Record<string, string>;
  /** A complete answer (preflight), when the request should not go further. */
  preflight?: { status: number };
}

/** Applies the CORS rules to a request; throws 403 `origin not allowed` for a disallowed origin. */
export function applyCors(config: CorsConfig, origin: string | undefined, method: string, requestedMethod?: string): CorsDecision {
  if (!config.enabled || !origin) return { headers: {} };
  const allowed = config.allowed_origins.includes('*') || config.allowed_origins.includes(origin);
  if (!allowed) throw new SecretsError(403, 'origin not allowed');
  const headers: Record<string, string> = { 'access-control-allow-origin': origin, vary: 'Origin' };
  if (config.allow_credentials) headers['access-control-allow-credentials'] = 'true';
  if (method === 'OPTIONS') {
    if (requestedMethod && !CORS_METHODS.includes(requestedMethod.toUpperCase())) return { headers, preflight: { status: 405 } };
    headers['access-control-allow-methods'] = CORS_METHODS.join(',');
    headers['access-control-allow-headers'] = config.allowed_headers.join(',');
    headers['access-control-max-age'] = '300';
    return { headers, preflight: { status: 204 } };
  }
  return { headers };
}
