// Field rules that go beyond JSON types: required values, lengths, enumerations, formats. Each throws the API's 400.
import { GoogleError } from '../../../core/google/index.ts';

export const badRequest = (message: string, reason = 'invalid') => new GoogleError(400, message, { reason });

export function requireValue(value: unknown, path: string): void {
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) {
    throw badRequest(`Required field missing: ${path}`, 'required');
  }
}

export function maxLength(value: unknown, max: number, path: string): void {
  if (typeof value === 'string' && [...value].length > max) throw badRequest(`Value of ${path} is too long: at most ${max} characters.`);
}

export function oneOf(value: unknown, allowed: readonly string[], path: string): void {
  if (value !== undefined && !allowed.includes(value as string)) {
    throw badRequest(`Invalid value for ${path}: ${JSON.stringify(value)}; expected one of ${allowed.join(', ')}.`);
  }
}

export function inRange(value: unknown, min: number, max: number, path: string): void {
  if (value === undefined) return;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw badRequest(`Invalid value for ${path}: ${JSON.stringify(value)}; must be between ${min} and ${max}.`);
}

const COUNTRY = /^[A-Z]{2}$/;
const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const CURRENCY = /^[A-Z]{3}$/;

export function country(value: unknown, path: string, required = false): void {
  if (required) requireValue(value, path);
  if (value !== undefined && !COUNTRY.test(String(value))) throw badRequest(`Invalid country code for ${path}: ${JSON.stringify(value)} (CLDR territory code, e.g. US).`);
}

export function language(value: unknown, path: string, required = false): void {
  if (required) requireValue(value, path);
  if (value !== undefined && !LANGUAGE.test(String(value))) throw badRequest(`Invalid language code for ${path}: ${JSON.stringify(value)} (ISO 639-1, e.g. en).`);
}

export function price(value: { value?: string; currency?: string } | undefined, path: string, required = false): void {
  if (value === undefined) {
    if (required) requireValue(value, path);
    return;
  }
  requireValue(value.value, `${path}.value`);
  requireValue(value.currency, `${path}.currency`);
  if (!/^-?\d+(\.\d+)?$/.test(String(value.value))) throw badRequest(`Invalid value for ${path}.value: ${JSON.stringify(value.value)}; a decimal number was expected.`);
  if (!CURRENCY.test(String(value.currency))) throw badRequest(`Invalid currency for ${path}.currency: ${JSON.stringify(value.currency)} (ISO 4217, e.g. USD).`);
}

export function httpUrl(value: unknown, path: string, required = false): void {
  if (required) requireValue(value, path);
  if (value === undefined) return;
  let ok = false;
  try {
    const u = new URL(String(value));
    ok = u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    ok = false;
  }
  if (!ok) throw badRequest(`Invalid URL for ${path}: ${JSON.stringify(value)} (an http or https URL is expected).`);
}

export function email(value: unknown, path: string, required = false): void {
  if (required) requireValue(value, path);
  if (value !== undefined && !isEmailAddress(String(value))) throw badRequest(`Invalid e-mail address for ${path}: ${JSON.stringify(value)}.`);
}

/**
 * `local@domain.tld`: one @, no whitespace, something before the @ and on both sides of a dot after it. Checked by
 * position: /^[^@\s]+@[^@\s]+\.[^@\s]+$/ tried every dot of the domain against the rest, quadratic in a long run
 * of dots.
 */
function isEmailAddress(text: string): boolean {
  const at = text.indexOf('@');
  if (at < 1 || text.indexOf('@', at + 1) >= 0 || /\s/.test(text)) return false;
  const domain = text.slice(at + 1);
  return domain.slice(1, -1).includes('.');
}

/** A numeric id path or body parameter (merchant and account ids are unsigned 64-bit integers). */
export function numericId(value: unknown, name: string): string {
  const text = String(value ?? '');
  if (!/^\d{1,20}$/.test(text)) throw new GoogleError(400, `Invalid value for ${name}: ${JSON.stringify(value ?? '')}`, { reason: 'invalid', location: name, locationType: 'parameter' });
  return text.replace(/^0+(?=\d)/, '');
}
