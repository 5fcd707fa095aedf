// The payer's access cookie after a successful field-guard login: one cookie per merchant account (so it is never
// shared across merchants), valid 24 hours, holding the token it opens, its expiry and a keyed digest of both.
import { safeEqual, type Vault } from '../../../core/crypto.ts';

export const ACCESS_COOKIE_MS = 24 * 3_600_000;

export const accessCookieName = (merchantid: number): string => `paylink_access_${merchantid}`;

function digest(vault: Vault, merchantid: number, token: string, expiresAt: number): string {
  return vault.lookupHash(`paylink-access|${merchantid}|${token}|${expiresAt}`);
}

/** The Set-Cookie header value granting access to `token` until now + 24 h. */
export function accessCookie(vault: Vault, merchantid: number, token: string, now: number, secure: boolean): string {
  const expiresAt = now + ACCESS_COOKIE_MS;
  const value = `${token}.${expiresAt}.${digest(vault, merchantid, token, expiresAt)}`;
  return `${accessCookieName(merchantid)}=${value}; Path=/pay/; Max-Age=${ACCESS_COOKIE_MS / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** True when the request's cookies hold a live, untampered grant for this merchant's `token`. */
export function hasAccess(vault: Vault, cookieHeader: string | undefined, merchantid: number, token: string, now: number): boolean {
  const value = readCookie(cookieHeader, accessCookieName(merchantid));
  if (!value) return false;
  const [cookieToken, expires, mac] = value.split('.');
  const expiresAt = Number(expires);
  if (cookieToken !== token || !Number.isSafeInteger(expiresAt) || expiresAt <= now || !mac) return false;
  return safeEqual(mac, digest(vault, merchantid, token, expiresAt));
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
