// Shamir's secret sharing over GF(2^8) (the AES field, polynomial x^8+x^4+x^3+x+1). Each byte of the secret is the
// constant term of its own random polynomial of degree threshold-1; a share is the polynomial values at one
// distinct non-zero x, followed by that x (so a 32-byte secret gives 33-byte shares).
import { randomBytes } from 'node:crypto';

const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
(() => {
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    // multiply by the generator 3: x*2 xor x, reduced by the field polynomial
    x ^= (x << 1) ^ (x & 0x80 ? 0x11b : 0);
    x &= 0xff;
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255]!;
})();

export const gfMul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!);
export const gfDiv = (a: number, b: number): number => {
  if (b === 0) throw new Error('division by zero');
  return a === 0 ? 0 : EXP[(LOG[a]! + 255 - LOG[b]!) % 255]!;
};

/** Evaluates the polynomial with coefficients `coeffs` (constant first) at `x`. */
function evaluate(coeffs: Uint8Array, x: number): number {
  let y = 0;
  for (let i = coeffs.length - 1; i >= 0; i--) y = gfMul(y, x) ^ coeffs[i]!;
  return y;
}

export function split(secret: Buffer, shares: number, threshold: number): Buffer[] {
  if (secret.length === 0) throw new Error('cannot split an empty secret');
  if (threshold < 2 || shares < threshold || shares > 255) throw new Error('invalid share parameters');
  // distinct random non-zero x coordinates
  const xs: number[] = [];
  while (xs.length < shares) {
    const x = randomBytes(1)[0]!;
    if (x !== 0 && !xs.includes(x)) xs.push(x);
  }
  const out = xs.map((x) => {
    const share = Buffer.alloc(secret.length + 1);
    share[secret.length] = x;
    return share;
  });
  for (let i = 0; i < secret.length; i++) {
    const coeffs = new Uint8Array(threshold);
    coeffs[0] = secret[i]!;
    coeffs.set(randomBytes(threshold - 1), 1);
    for (let s = 0; s < shares; s++) out[s]![i] = evaluate(coeffs, xs[s]!);
  }
  return out;
}

/** Lagrange interpolation at x = 0. Throws on malformed or duplicate shares; wrong shares give a wrong secret. */
export function combine(parts: Buffer[]): Buffer {
  if (parts.length < 2) throw new Error('less than two parts cannot be used to reconstruct the secret');
  const length = parts[0]!.length;
  if (length < 2 || parts.some((p) => p.length !== length)) throw new Error('all parts must be the same length');
  const xs = parts.map((p) => p[length - 1]!);
  if (new Set(xs).size !== xs.length) throw new Error('duplicate part detected');
  const secret = Buffer.alloc(length - 1);
  for (let i = 0; i < length - 1; i++) {
    let value = 0;
    for (let j = 0; j < parts.length; j++) {
      let basis = 1;
      for (let m = 0; m < parts.length; m++) {
        if (m === j) continue;
        basis = gfMul(basis, gfDiv(xs[m]!, xs[m]! ^ xs[j]!));
      }
      value ^= gfMul(parts[j]![i]!, basis);
    }
    secret[i] = value;
  }
  return secret;
}
