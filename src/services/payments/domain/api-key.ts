// The time-based API key: Base64(clientid ":" NONCE_HEX ":" HMAC-SHA-256(licence key, clientid ‖ nonce ‖ dt)),
// where dt is the UTC minute written yyyyMMddHHmm and read as hex (6 bytes). Pure: the caller supplies the time.
import { hmacSha256, safeEqual } from '../../../core/crypto.ts';

const MINUTE = 60_000;

/** The 6 bytes of `yyyyMMddHHmm` (UTC) read as hex. */
export function dtBytes(ms: number): Buffer {
  const iso = new Date(ms).toISOString();
  const text = iso.slice(0, 4) + iso.slice(5, 7) + iso.slice(8, 10) + iso.slice(11, 13) + iso.slice(14, 16);
  return Buffer.from(text, 'hex');
}

export function apiKeyHash(clientid: string, licenceKey: string, nonce: Buffer, ms: number): Buffer {
  return hmacSha256(Buffer.from(licenceKey, 'utf8'), Buffer.concat([Buffer.from(clientid, 'utf8'), nonce, dtBytes(ms)]));
}

/** Builds a key as the client libraries do. */
export function makeApiKey(clientid: string, licenceKey: string, nonce: Buffer, ms: number): string {
  const head = Buffer.from(`${clientid}:${nonce.toString('hex').toUpperCase()}:`, 'utf8');
  return Buffer.concat([head, apiKeyHash(clientid, licenceKey, nonce, ms)]).toString('base64');
}

export interface DecodedKey {
  clientid: string;
  /** Upper-case hex, as sent. */
  nonceHex: string;
  nonce: Buffer;
  hash: Buffer;
}

/** Splits a key on its first two colons only (the raw hash may contain ':'); undefined when malformed. */
export function decodeApiKey(key: string): DecodedKey | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || key.length > 1024) return undefined;
  const packet = Buffer.from(key, 'base64');
  const first = packet.indexOf(0x3a);
  const second = first < 0 ? -1 : packet.indexOf(0x3a, first + 1);
  if (first <= 0 || second < 0) return undefined;
  const clientid = packet.subarray(0, first).toString('utf8');
  const nonceHex = packet.subarray(first + 1, second).toString('utf8');
  const hash = packet.subarray(second + 1);
  if (!/^([0-9A-Fa-f]{2}){8,64}$/.test(nonceHex) || hash.length !== 32) return undefined;
  return { clientid, nonceHex: nonceHex.toUpperCase(), nonce: Buffer.from(nonceHex, 'hex'), hash };
}

/**
 * The minute the key was made in, if it lies in [now - ttl, now + 1 minute] (one minute of clock skew ahead);
 * undefined when the hash matches no minute of the window.
 */
export function verifyApiKey(key: DecodedKey, licenceKey: string, nowMs: number, ttlMinutes: number): number | undefined {
  const current = Math.floor(nowMs / MINUTE) * MINUTE;
  const madeIn = (m: number) => safeEqual(apiKeyHash(key.clientid, licenceKey, key.nonce, m), key.hash);
  // Most keys are made in the current minute: trying it first costs one HMAC a request instead of two. Then the
  // minute ahead (clock skew), then back through the TTL window.
  if (madeIn(current)) return current;
  if (madeIn(current + MINUTE)) return current + MINUTE;
  for (let m = current - MINUTE; m >= current - ttlMinutes * MINUTE; m -= MINUTE) if (madeIn(m)) return m;
  return undefined;
}
