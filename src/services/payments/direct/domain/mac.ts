// The direct-post `mac`: proof that the merchant (who holds the licence key) priced this payment, so a browser
// cannot change the amount or identifier on the way to us.
import { hmacSha256, safeEqual } from '../../../../core/crypto.ts';

/** HEX_UPPER(HMAC-SHA-256(UTF-8(licenceKey), UTF-8(HEX_UPPER(nonce) + amount + identifier))). */
export function directPostMac(licenceKey: string, nonce: string, amount: number | string, identifier: string): string {
  const message = `${nonce.toUpperCase()}${String(amount)}${identifier}`;
  return hmacSha256(Buffer.from(licenceKey, 'utf8'), Buffer.from(message, 'utf8')).toString('hex').toUpperCase();
}

/** True when `mac` is the expected value; hex case is ignored, the comparison is constant-time. */
export function macMatches(mac: string, licenceKey: string, nonce: string, amount: number | string, identifier: string): boolean {
  return safeEqual(mac.toUpperCase(), directPostMac(licenceKey, nonce, amount, identifier));
}

/** A nonce is hex (the reference sends upper case; lower case is accepted and upper-cased), 8 to 128 characters. */
export const isNonce = (nonce: string): boolean => /^[0-9A-Fa-f]{8,128}$/.test(nonce);
