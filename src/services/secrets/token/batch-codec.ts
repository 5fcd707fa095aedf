// Batch tokens are never stored: the token is its own entry, sealed (AES-256-GCM) under a key derived from the
// store's salt. `hvb.<sealed, base64url>` plus `.<namespace id>` outside the root namespace.
import { hmacSha256, open, seal } from '../../../core/crypto.ts';
import type { TokenEntry } from './entry.ts';

const AAD = 'batch-token';

const keyOf = (salt: Buffer) => hmacSha256(salt, 'batch-token-key');

export function encodeBatchToken(salt: Buffer, entry: Omit<TokenEntry, 'hash' | 'accessor'>): string {
  const sealed = seal(keyOf(salt), Buffer.from(JSON.stringify(entry), 'utf8'), AAD).toString('base64url');
  return `hvb.${sealed}${entry.namespaceId === 'root' ? '' : `.${entry.namespaceId}`}`;
}

/** The entry a batch token carries, or undefined when it was not sealed by this store (or is malformed). */
export function decodeBatchToken(salt: Buffer, token: string): Omit<TokenEntry, 'hash' | 'accessor'> | undefined {
  const body = token.split('.')[1];
  if (!token.startsWith('hvb.') || !body) return undefined;
  try {
    const entry = JSON.parse(open(keyOf(salt), Buffer.from(body, 'base64url'), AAD).toString('utf8'));
    return entry && typeof entry === 'object' && entry.type === 'batch' ? entry : undefined;
  } catch {
    return undefined;
  }
}
