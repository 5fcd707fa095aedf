// Short-lived tokens standing for a stored card: "ct" + base58(version ‖ expiry ‖ card id ‖ salt ‖ MAC).
// The MAC makes them tamper-proof, the salt makes every retrieval's token different, the expiry bounds them to 30 min.
import { randomBytes } from 'node:crypto';
import { hmacSha256, safeEqual } from '../../../core/crypto.ts';
import { base58, unbase58 } from '../../../core/ids.ts';

export const CARD_TOKEN_TTL_MS = 30 * 60_000;
const VERSION = 1;
const MAC_BYTES = 16;

const uuidToBytes = (id: string): Buffer => Buffer.from(id.replace(/-/g, ''), 'hex');
const bytesToUuid = (b: Buffer): string => {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** Issues a token for card `cardId` (a UUID) expiring `ttlMs` (default `CARD_TOKEN_TTL_MS`) after `nowMs`. */
export function issueCardToken(key: Buffer, cardId: string, nowMs: number, ttlMs = CARD_TOKEN_TTL_MS): string {
  const expiry = Buffer.alloc(8);
  expiry.writeBigUInt64BE(BigInt(nowMs + ttlMs));
  const body = Buffer.concat([Buffer.from([VERSION]), expiry, uuidToBytes(cardId), randomBytes(8)]);
  return 'ct' + base58(Buffer.concat([body, hmacSha256(key, body).subarray(0, MAC_BYTES)]));
}

export type TokenCheck = { ok: true; cardId: string } | { ok: false; reason: 'invalid' | 'expired' };

/** Verifies a token: `invalid` when malformed or forged, `expired` when genuine but past its lifetime. */
export function readCardToken(key: Buffer, token: string, nowMs: number): TokenCheck {
  if (!token.startsWith('ct') || token.length > 120) return { ok: false, reason: 'invalid' };
  const raw = unbase58(token.slice(2));
  if (!raw || raw.length !== 1 + 8 + 16 + 8 + MAC_BYTES || raw[0] !== VERSION) return { ok: false, reason: 'invalid' };
  const body = raw.subarray(0, raw.length - MAC_BYTES);
  if (!safeEqual(hmacSha256(key, body).subarray(0, MAC_BYTES), raw.subarray(raw.length - MAC_BYTES))) return { ok: false, reason: 'invalid' };
  if (Number(body.readBigUInt64BE(1)) <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, cardId: bytesToUuid(body.subarray(9, 25)) };
}
