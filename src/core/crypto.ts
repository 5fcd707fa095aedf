// Encryption at rest and the primitives credentials need. One master key per instance encrypts what services store.
import { createCipheriv, createDecipheriv, createHash, createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';
import { randomView } from './random.ts';

const VERSION = 'v1';

const NONCE_BYTES = 12;

/** AES-256-GCM with a random 96-bit nonce; `aad` binds the ciphertext to where it is stored. */
export function seal(key: Buffer, plaintext: Buffer, aad?: string): Buffer {
  // A view of the random pool: createCipheriv and the concat below copy it before anything draws again.
  const nonce = randomView(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]);
}

/** Opens what `seal` produced; throws when the key, the data or the `aad` differ. */
export function open(key: Buffer, sealed: Buffer, aad?: string): Buffer {
  if (sealed.length < 28) throw new Error('ciphertext too short');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
  return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
}

export const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

export const hmacSha256 = (key: string | Buffer | KeyObject, data: string | Buffer): Buffer =>
  createHmac('sha256', key).update(data).digest();

/** Constant-time comparison of two strings or buffers of possibly different length. */
export function safeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const ab = Buffer.isBuffer(a) ? a : Buffer.from(a);
  const bb = Buffer.isBuffer(b) ? b : Buffer.from(b);
  if (ab.length !== bb.length) {
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

/** Text encryption under the instance master key, as stored strings (`v1.<base64>`). */
export class Vault {
  readonly #key: Buffer;
  /** Derived once: every request that presents a credential hashes it to look it up. */
  readonly #lookupKey: Buffer;
  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the master key must be 32 bytes');
    this.#key = key;
    this.#lookupKey = hmacSha256(key, 'lookup');
  }
  encrypt(plaintext: string, aad?: string): string {
    return `${VERSION}.${seal(this.#key, Buffer.from(plaintext, 'utf8'), aad).toString('base64')}`;
  }
  decrypt(stored: string, aad?: string): string {
    const [version, body] = stored.split('.', 2);
    if (version !== VERSION || body === undefined) throw new Error('unknown ciphertext format');
    return open(this.#key, Buffer.from(body, 'base64'), aad).toString('utf8');
  }
  encryptBytes(plaintext: Buffer, aad?: string): Buffer {
    return seal(this.#key, plaintext, aad);
  }
  decryptBytes(sealed: Buffer, aad?: string): Buffer {
    return open(this.#key, sealed, aad);
  }
  /** A keyed hash for lookups of secret values without storing them (HMAC-SHA-256 under a key derived from the master key). */
  lookupHash(value: string): string {
    return createHmac('sha256', this.#lookupKey).update(value).digest('hex');
  }
}
