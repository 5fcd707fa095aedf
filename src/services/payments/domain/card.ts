// Card numbers: Luhn, scheme from the BIN, masking and expiry. Pure functions.

export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Appends the Luhn check digit to a partial number (used by tests and generators). */
export function withLuhnDigit(partial: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(partial + d)) return partial + d;
  throw new Error('unreachable');
}

/** `400000******0002`: first six and last four shown, the rest starred. */
export function maskPan(pan: string): string {
  if (pan.length < 11) return '*'.repeat(Math.max(0, pan.length - 4)) + pan.slice(-4);
  return pan.slice(0, 6) + '*'.repeat(pan.length - 10) + pan.slice(-4);
}

export interface BinInfo {
  scheme: string;
  scheme_id: string;
  bin_description: string;
  bin_credit: boolean;
  bin_debit: boolean;
  bin_commercial: boolean;
  bin_corporate: boolean;
  bin_country_issued: string;
  bin_currency: string;
  bin_eu: boolean;
  /** CSC length the scheme prints on its cards. */
  cscLength: 3 | 4;
}

// The sandbox BIN table: the published test cards' ranges first (most specific), then scheme ranges.
const TEST_BINS: Array<[string, Partial<BinInfo> & { scheme: string }]> = [
  ['485779', { scheme: 'Visa', bin_description: 'Visa Business Debit', bin_debit: true, bin_commercial: true, bin_corporate: true }],
  ['465901', { scheme: 'Visa', bin_description: 'Visa Debit', bin_debit: true }],
  ['450875', { scheme: 'Visa', bin_description: 'Visa Electron', bin_debit: true }],
  ['557347', { scheme: 'Mastercard', bin_description: 'Debit Mastercard', bin_debit: true }],
  ['633311', { scheme: 'Maestro', bin_description: 'Maestro', bin_debit: true }],
];

const SCHEMES: Array<{ test: (pan: string) => boolean; scheme: string; id: string; csc: 3 | 4; description: string }> = [
  { test: (p) => /^3[47]/.test(p), scheme: 'American Express', id: 'AX', csc: 4, description: 'American Express Credit' },
  { test: (p) => /^3(0[0-5]|[68])/.test(p), scheme: 'Diners Club', id: 'DC', csc: 3, description: 'Diners Club Credit' },
  { test: (p) => /^35(2[89]|[3-8]\d)/.test(p), scheme: 'JCB', id: 'JC', csc: 3, description: 'JCB Credit' },
  { test: (p) => /^4/.test(p), scheme: 'Visa', id: 'VI', csc: 3, description: 'Visa Credit' },
  { test: (p) => /^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(p), scheme: 'Mastercard', id: 'MC', csc: 3, description: 'Mastercard Credit' },
  { test: (p) => /^(6011|65|64[4-9])/.test(p), scheme: 'Discover', id: 'DI', csc: 3, description: 'Discover Credit' },
  { test: (p) => /^(50|5[6-9]|6[0-9])/.test(p), scheme: 'Maestro', id: 'MA', csc: 3, description: 'Maestro Debit' },
];

const SCHEME_IDS: Record<string, string> = { Visa: 'VI', Mastercard: 'MC', Maestro: 'MA' };

/** What the sandbox knows of a BIN (or full number); undefined when no scheme issues it. */
export function binInfo(digits: string): BinInfo | undefined {
  const base = SCHEMES.find((s) => s.test(digits));
  if (!base) return undefined;
  const special = TEST_BINS.find(([prefix]) => digits.startsWith(prefix))?.[1];
  const debit = special?.bin_debit ?? base.scheme === 'Maestro';
  return {
    scheme: special?.scheme ?? base.scheme,
    scheme_id: special ? (SCHEME_IDS[special.scheme] ?? base.id) : base.id,
    bin_description: special?.bin_description ?? base.description,
    bin_credit: !debit,
    bin_debit: debit,
    bin_commercial: special?.bin_commercial ?? false,
    bin_corporate: special?.bin_corporate ?? false,
    bin_country_issued: 'GB',
    bin_currency: 'GBP',
    bin_eu: false,
    cscLength: base.csc,
  };
}

/** True once the last day of the expiry month has passed (`now` in epoch ms, compared in UTC). */
export function isExpired(expmonth: number, expyear: number, nowMs: number): boolean {
  const now = new Date(nowMs);
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() + 1;
  return expyear < y || (expyear === y && expmonth < m);
}

/** `Visa/0002` style label of a stored card. */
export const cardLabel = (scheme: string, last4: string): string => `${scheme}/${last4}`;
