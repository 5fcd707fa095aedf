// Password hashing with scrypt (random 16-byte salt, N=16384, r=8, p=1) and constant-time verification.
import { randomBytes, scrypt as scryptCb, type ScryptOptions } from 'node:crypto';
import { safeEqual } from '../../../core/crypto.ts';

const PARAMS: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

const scrypt = (password: string, salt: Buffer) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, KEY_LENGTH, PARAMS, (err, key) => (err ? reject(err) : resolve(key))));

/** `scrypt$<salt b64>$<hash b64>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${(await scrypt(password, salt)).toString('base64')}`;
}

/** Checks a password; with no stored hash it still spends the same work, so unknown users take as long as known ones. */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const [scheme, salt, hash] = (stored ?? '').split('$');
  if (scheme !== 'scrypt' || !salt || !hash) {
    await scrypt(password, randomBytes(16));
    return false;
  }
  return safeEqual(await scrypt(password, Buffer.from(salt, 'base64')), Buffer.from(hash, 'base64'));
}
