// Amounts are integers in the currency's minor unit; reports also show them as decimal text.

const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
const SYMBOLS: Record<string, string> = { GBP: '£', EUR: '€', USD: '$', JPY: '¥' };

export const minorDigits = (currency: string): number => (ZERO_DECIMAL.has(currency) ? 0 : 2);

/** 1234 GBP -> "12.34" */
export function decimalAmount(value: number, currency: string): string {
  const digits = minorDigits(currency);
  if (digits === 0) return String(value);
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** 7589 GBP -> "£75.89" */
export function displayAmount(value: number, currency: string): string {
  const text = decimalAmount(value, currency);
  const symbol = SYMBOLS[currency];
  if (!symbol) return `${currency} ${text}`;
  return text.startsWith('-') ? `-${symbol}${text.slice(1)}` : `${symbol}${text}`;
}
