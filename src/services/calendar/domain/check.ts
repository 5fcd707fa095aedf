// Small field checks shared by the request readers: each refuses a wrong type or an over-long value with a 400 that
// names the field.
import { badRequest } from './errors.ts';

export type Obj = Record<string, unknown>;

export function obj(v: unknown, field: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badRequest(`Invalid value for ${field}: an object is required.`, field);
  return v as Obj;
}

export function only(o: Obj, keys: readonly string[], field: string): void {
  for (const k of Object.keys(o)) if (!keys.includes(k)) throw badRequest(`Unknown field ${field}.${k}.`, `${field}.${k}`);
}

export function str(v: unknown, field: string, max: number): string {
  if (typeof v !== 'string') throw badRequest(`Invalid value for ${field}: a string is required.`, field);
  if (v.length > max) throw badRequest(`Invalid value for ${field}: at most ${max} characters are allowed.`, field);
  return v;
}

export const optStr = (v: unknown, field: string, max: number): string | undefined => (v === undefined || v === null ? undefined : str(v, field, max));

export function bool(v: unknown, field: string): boolean {
  if (typeof v !== 'boolean') throw badRequest(`Invalid value for ${field}: a boolean is required.`, field);
  return v;
}

export function oneOf<T extends string>(v: unknown, field: string, values: readonly T[]): T {
  if (typeof v !== 'string' || !values.includes(v as T)) throw badRequest(`Invalid value for ${field}: ${JSON.stringify(v)}.`, field);
  return v as T;
}

export function int(v: unknown, field: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw badRequest(`Invalid value for ${field}: an integer from ${min} to ${max} is required.`, field);
  return v;
}

export function arr(v: unknown, field: string, max: number): unknown[] {
  if (!Array.isArray(v)) throw badRequest(`Invalid value for ${field}: an array is required.`, field);
  if (v.length > max) throw badRequest(`Invalid value for ${field}: at most ${max} entries are allowed.`, field);
  return v;
}

export function httpUrl(v: unknown, field: string, max: number): string {
  const s = str(v, field, max);
  let ok = false;
  try {
    const u = new URL(s);
    ok = u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    ok = false;
  }
  if (!ok) throw badRequest(`Invalid value for ${field}: an http or https URL is required.`, field);
  return s;
}

const ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** An addr-spec of RFC 5322 in its common dot-atom form (what mail systems accept). */
export function isEmail(v: string): boolean {
  if (v.length > 254) return false;
  const at = v.lastIndexOf('@');
  if (at < 1) return false;
  const local = v.slice(0, at);
  const domain = v.slice(at + 1);
  return local.length <= 64 && ATOM.test(local) && isDomainName(domain);
}

/** A host name: dot-separated labels of letters, digits and inner hyphens. */
export function isDomainName(v: string): boolean {
  return v.length <= 253 && v.split('.').every((l) => LABEL.test(l));
}
