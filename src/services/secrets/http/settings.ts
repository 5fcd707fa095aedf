// The service settings (`services.secrets` in the config file), validated once at register time.
import { readFileSync } from 'node:fs';
import { cacheBudgetOf, type CacheBudget } from '../../../core/cache.ts';
import { DEFAULT_STORAGE_CACHE_BUDGET } from '../storage/physical.ts';
import { DEFAULT_ACL_CACHE_BUDGET } from '../policy/store.ts';

export const DEFAULT_MAX_REQUEST_SIZE = 32 * 1024 * 1024;

export interface SecretsSettings {
  /** Dev mode (default): auto-initialise and unseal, kv v2 at secret/. false = production: init and unseal by API. */
  dev: boolean;
  devRootToken?: string;
  /** Bytes; 0 = default (32 MiB); negative = no limit. */
  maxRequestSize: number;
  requireRequestHeader: boolean;
  tls: { cert: string; key: string } | null;
  /** Cache stored values in memory; default on for SQLite, off for PostgreSQL (instances may share it). */
  storageCache?: boolean;
  /** Entries and bytes the storage cache may hold (`{ entries, bytes }`; default 20,000 and 64 MiB). */
  storageCacheBudget: CacheBudget;
  /** Entries and bytes of compiled ACLs kept in memory (default 1,000 and 16 MiB). */
  aclCacheBudget: CacheBudget;
}

export function parseSettings(raw: Record<string, unknown>): SecretsSettings {
  const bool = (name: string, fallback: boolean): boolean => {
    const v = raw[name];
    if (v === undefined) return fallback;
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    throw new Error(`services.secrets.${name} must be a boolean`);
  };
  const size = raw.maxRequestSize ?? 0;
  if (typeof size !== 'number' || !Number.isInteger(size)) throw new Error('services.secrets.maxRequestSize must be an integer');
  // Like Vault's VAULT_DEV_ROOT_TOKEN_ID, the environment may fix the dev root token when the config file does not.
  const token = raw.devRootToken ?? process.env.TWINSTACK_SECRETS_DEV_ROOT_TOKEN ?? process.env.VAULT_DEV_ROOT_TOKEN_ID;
  if (token !== undefined && (typeof token !== 'string' || token.length < 1 || token.includes('.'))) {
    throw new Error('services.secrets.devRootToken must be a non-empty string without "."');
  }
  let tls: SecretsSettings['tls'] = null;
  const t = raw.tls as Record<string, unknown> | undefined;
  if (t) {
    const cert = typeof t.cert === 'string' ? t.cert : typeof t.certFile === 'string' ? readFileSync(t.certFile, 'utf8') : undefined;
    const key = typeof t.key === 'string' ? t.key : typeof t.keyFile === 'string' ? readFileSync(t.keyFile, 'utf8') : undefined;
    if (!cert || !key) throw new Error('services.secrets.tls needs cert and key (PEM text) or certFile and keyFile');
    tls = { cert, key };
  }
  return {
    dev: bool('dev', true),
    devRootToken: token as string | undefined,
    maxRequestSize: size === 0 ? DEFAULT_MAX_REQUEST_SIZE : size < 0 ? Number.MAX_SAFE_INTEGER : size,
    requireRequestHeader: bool('requireRequestHeader', false),
    tls,
    storageCache: raw.storageCache === undefined ? undefined : bool('storageCache', false),
    storageCacheBudget: cacheBudgetOf(raw.storageCacheBudget, DEFAULT_STORAGE_CACHE_BUDGET, 'services.secrets.storageCacheBudget'),
    aclCacheBudget: cacheBudgetOf(raw.aclCacheBudget, DEFAULT_ACL_CACHE_BUDGET, 'services.secrets.aclCacheBudget'),
  };
}
