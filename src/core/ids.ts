// Identifier formats shared by services.
import { randomUUID } from 'node:crypto';
import { randomPooled } from './random.ts';

export const uuid = (): string => randomUUID();

let lastStamp = 0;
let sequence = 0;

/**
 * A random id that sorts in creation order within a process (wall-clock stamp, then a sequence, then randomness):
 * rows made in the same domain millisecond (a frozen manual clock) still list in the order they were made.
 */
export function sortableId(): string {
  const stamp = performance.timeOrigin + performance.now();
  const ms = Math.floor(stamp);
  if (ms > lastStamp) {
    lastStamp = ms;
    sequence = 0;
  } else {
    sequence++;
  }
  return `${lastStamp.toString(36).padStart(9, '0')}${sequence.toString(36).padStart(4, '0')}${randomPooled(8).toString('hex')}`;
}

/** URL-safe random token with `bytes` of entropy. */
export const randomToken = (bytes = 24): string => randomPooled(bytes).toString('base64url');

/** Lower-case hex of `bytes` random bytes. */
export const randomHex = (bytes = 16): string => randomPooled(bytes).toString('hex');

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet) encoding of a byte string. */
export function base58(buf: Uint8Array): string {
  let n = 0n;
  for (const b of buf) n = (n << 8n) | BigInt(b);
  let out = '';
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of buf) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

/** Decodes base58; undefined when a character is outside the alphabet. */
export function unbase58(text: string): Buffer | undefined {
  let n = 0n;
  for (const ch of text) {
    const v = BASE58.indexOf(ch);
    if (v < 0) return undefined;
    n = n * 58n + BigInt(v);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  }
  for (const ch of text) {
    if (ch !== '1') break;
    bytes.unshift(0);
  }
  return Buffer.from(bytes);
}
