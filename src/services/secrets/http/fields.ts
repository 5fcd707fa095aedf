// Lenient field decoding as Vault clients rely on it: durations as seconds or Go duration strings, booleans and
// integers as strings, lists as arrays or comma-separated strings. Each decoder throws a 400 naming the field.
import { ExactNumber, numberOrValue } from '../exact-numbers.ts';
import { badRequest } from '../contract.ts';

const UNIT_SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600, d: 86400 };

/**
 * The body's fields without those sent as `null`: Vault reads a null field as an absent one, and clients rely on it
 * (hvac sends every optional argument, unused ones as null). Paths that store the body as data keep it whole.
 */
export function withoutNullFields(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    if (v !== null) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Seconds from `30`, `"30"`, `"1h30m"`, `"1.5h"`, `"500ms"` (rounded down to whole seconds). */
export function parseDurationSeconds(given: unknown, field: string): number {
  const value = numberOrValue(given);
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw badRequest(`invalid duration for ${field}`);
    return Math.floor(value);
  }
  if (typeof value !== 'string') throw badRequest(`invalid duration for ${field}`);
  const text = value.trim();
  if (text === '') return 0;
  if (/^\d+$/.test(text)) return Number(text);
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * UNIT_SECONDS[m[2]!]!;
    consumed = re.lastIndex;
  }
  if (consumed !== text.length) throw badRequest(`invalid duration for ${field}: ${JSON.stringify(value)}`);
  return Math.floor(total + 1e-9);
}

/** Go's ParseBool plus JSON booleans. */
export function parseBool(given: unknown, field: string): boolean {
  const value = numberOrValue(given);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' && (value === 0 || value === 1)) return value === 1;
  if (typeof value === 'string') {
    if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value)) return true;
    if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(value)) return false;
  }
  throw badRequest(`invalid boolean for ${field}: ${JSON.stringify(value)}`);
}

/** Integers as numbers or decimal strings. */
export function parseInteger(given: unknown, field: string): number {
  const value = numberOrValue(given);
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  throw badRequest(`invalid integer for ${field}: ${JSON.stringify(value)}`);
}

/** Arrays of strings or comma-separated strings (spaces trimmed, empties dropped). */
export function parseStringList(value: unknown, field: string): string[] {
  if (Array.isArray(value)) {
    if (!value.every((v) => typeof v === 'string')) throw badRequest(`invalid list for ${field}`);
    return value.map((v) => v.trim()).filter(Boolean);
  }
  if (typeof value === 'string') return value.split(',').map((v) => v.trim()).filter(Boolean);
  throw badRequest(`invalid list for ${field}`);
}

/** A map of string to string (custom_metadata). */
export function parseStringMap(value: unknown, field: string): Record<string, string> {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest(`invalid map for ${field}`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw badRequest(`${field} values must be strings; ${JSON.stringify(k)} is not`);
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Formats seconds as a Go duration string (`0s`, `1h0m0s`, `90s` → `1m30s`). */
export function formatDuration(seconds: number): string {
  if (seconds === 0) return '0s';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h) return `${h}h${m}m${s}s`;
  if (m) return `${m}m${s}s`;
  return `${s}s`;
}

/** Formats a millisecond time as Go's RFC3339Nano in UTC: trailing fractional zeros dropped, no fraction at all on a whole second. */
export const formatGoTime = (ms: number): string => new Date(ms).toISOString().replace(/\.?0*Z$/, 'Z');

/**
 * A scalar as Vault's weak decoding turns it into a string (numbers in decimal form, booleans as "1" and "0", null as
 * ""), or undefined for a list or a map, which cannot be one.
 */
export function weakText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  // A number kept as sent is written as sent (Vault weakly decodes a json.Number to its own text).
  if (value instanceof ExactNumber) return value.text;
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (value === null) return '';
  return undefined;
}
