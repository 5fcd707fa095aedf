// GS1 Global Trade Item Numbers: the lengths Merchant Center accepts (GTIN-8, UPC-A/GTIN-12, EAN/GTIN-13, GTIN-14)
// and the mod-10 check digit every one of them ends with.

export const GTIN_LENGTHS: readonly number[] = [8, 12, 13, 14];

/** The check digit for the digits before it: weights 3,1,3,... from the right, rounded up to a multiple of ten. */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

export type GtinProblem = 'format' | 'length' | 'check_digit';

/** Why `gtin` is not a valid GTIN, or undefined when it is. */
export function gtinProblem(gtin: string): GtinProblem | undefined {
  if (!/^\d+$/.test(gtin)) return 'format';
  if (!GTIN_LENGTHS.includes(gtin.length)) return 'length';
  if (gtinCheckDigit(gtin.slice(0, -1)) !== gtin.charCodeAt(gtin.length - 1) - 48) return 'check_digit';
  return undefined;
}

export const isValidGtin = (gtin: string): boolean => gtinProblem(gtin) === undefined;
