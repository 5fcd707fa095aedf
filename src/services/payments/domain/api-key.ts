// The time-based API key: Base64(clientid ":" NONCE_HEX ":" HMAC-SHA-256(licence key, clientid ‖ nonce ‖ dt)),
// where dt is the UTC minute written yyyyMMddHHmm and read as hex (6 bytes). Pure: the caller supplies the time.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { boundedCache } from '../../../core/cache.ts';
import { hmacSha256, safeEqual } from '../../../core/crypto.ts';

const MINUTE = 60_000;

/** Two decimal digits read as hex: 23 -> 0x23. */
const bcd = (n: number): number => ((Math.floor(n / 10) % 10) << 4) | n % 10;

// Every key of a minute is checked against that minute's bytes: made once a minute rather than once a request.
let lastDt: { minute: number; bytes: Buffer } | undefined;

/** The 6 bytes of `yyyyMMddHHmm` (UTC) read as hex; the same (shared, not to be changed) buffer within a minute. */
export function dtBytes(ms: number): Buffer {
  const minute = Math.floor(ms / MINUTE);
  if (lastDt?.minute === minute) return lastDt.bytes;
  const d = new Date(minute * MINUTE);
  const year = d.getUTCFullYear();
  const bytes = Buffer.from([bcd(Math.floor(year / 100)), bcd(year % 100), bcd(d.getUTCMonth() + 1), bcd(d.getUTCDate()), bcd(d.getUTCHours()), bcd(d.getUTCMinutes())]);
  lastDt = { minute, bytes };
  return bytes;
}

// A licence key made into an HMAC key once, not on every request; a client has one licence key at a time.
const licenceSecrets = boundedCache<string, KeyObject>({ entries: 1024, bytes: 1024 * 1024 }, () => 64);

function licenceSecret(licenceKey: string): KeyObject {
  let secret = licenceSecrets.get(licenceKey);
  if (secret === undefined) {
    secret = createSecretKey(Buffer.from(licenceKey, 'utf8'));
    licenceSecrets.set(licenceKey, secret);
  }
  return secret;
}

export function apiKeyHash(clientid: string, licenceKey: string, nonce: Buffer, ms: number): Buffer {
  return hmacSha256(licenceSecret(licenceKey), Buffer.concat([Buffer.from(clientid, 'utf8'), nonce, dtBytes(ms)]));
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
  // Most keys are made in the current minute: trying it first costs one HMAC a request instead of two. Then the
  // minute ahead (clock skew), then back through the TTL window.
  if (madeIn(key, licenceKey, current)) return current;
  if (madeIn(key, licenceKey, current + MINUTE)) return current + MINUTE;
  for (let m = current - MINUTE; m >= current - ttlMinutes * MINUTE; m -= MINUTE) if (madeIn(key, licenceKey, m)) return m;
  return undefined;
}

const madeIn = (key: DecodedKey, licenceKey: string, ms: number): boolean => safeEqual(apiKeyHash(key.clientid, licenceKey, key.nonce, ms), key.hash);
