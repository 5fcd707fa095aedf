// Query parameters of the Books methods, read strictly: a bad value is a 400 naming the parameter, before anything
// is read or changed. Enumerations accept Books' lower-case values and the discovery document's upper-case ones.
import { GoogleError, invalidArgument } from '../../../core/google/index.ts';

export type Query = Record<string, unknown>;

/** The first value of a parameter (repeated parameters keep the first, as Google's front end does). */
export function param(query: Query, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) return param({ [name]: v[0] }, name);
  return typeof v === 'string' ? v : undefined;
}

export function integerParam(query: Query, name: string, min: number, max: number, fallback: number): number {
  const raw = param(query, name);
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d{1,10}$/.test(raw.trim())) throw invalidArgument(`Invalid value '${raw}' for ${name}: not an integer.`, name);
  const n = Number(raw.trim());
  if (n < min || n > max) throw invalidArgument(`Invalid value '${raw}'. Values must be within the range: [${min}, ${max}]`, name);
  return n;
}

export function enumParam<T extends string>(query: Query, name: string, values: readonly T[], fallback: T): T;
export function enumParam<T extends string>(query: Query, name: string, values: readonly T[]): T | undefined;
export function enumParam<T extends string>(query: Query, name: string, values: readonly T[], fallback?: T): T | undefined {
  const raw = param(query, name);
  if (raw === undefined || raw === '') return fallback;
  const value = raw.toLowerCase().replace(/_/g, '-');
  // The discovery document's placeholders (PROJECTION_UNDEFINED, ORDER_BY_UNDEFINED, ...) mean the default.
  if (value === `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-undefined`) return fallback;
  const found = values.find((v) => v === value);
  if (!found) throw invalidArgument(`Invalid value '${raw}' for ${name}. Allowed values: ${values.join(', ')}.`, name);
  return found;
}

export function booleanParam(query: Query, name: string): boolean | undefined {
  const raw = param(query, name);
  if (raw === undefined || raw === '') return undefined;
  if (raw !== 'true' && raw !== 'false') throw invalidArgument(`Invalid value '${raw}' for ${name}: expected true or false.`, name);
  return raw === 'true';
}

export const PROJECTIONS = ['full', 'lite'] as const;
export type Projection = (typeof PROJECTIONS)[number];

export interface Page {
  startIndex: number;
  maxResults: number;
}

/** startIndex (from 0) and maxResults (default 10, at most 40). */
export const pageOf = (query: Query): Page => ({
  startIndex: integerParam(query, 'startIndex', 0, 2_147_483_647, 0),
  maxResults: integerParam(query, 'maxResults', 0, 40, 10),
});

export const projectionOf = (query: Query): Projection => enumParam(query, 'projection', PROJECTIONS, 'full');

/** The id of a volume a mutation names (volumeId is a query parameter of the mylibrary methods). */
export function requiredParam(query: Query, name: string): string {
  const v = param(query, name);
  if (v === undefined || v.trim() === '') throw new GoogleError(400, `Required parameter: ${name}`, { reason: 'required', location: name, locationType: 'parameter' });
  return v;
}

/**
 * Refuses a NUL character in any path or query parameter: PostgreSQL text cannot hold one, and no id, name or query
 * of Books contains one, so both databases answer alike.
 */
export function refuseNul(params: unknown, query: unknown): void {
  for (const source of [params, query]) {
    for (const [name, value] of Object.entries((source ?? {}) as Record<string, unknown>)) {
      const values = Array.isArray(value) ? value : [value];
      if (values.some((v) => typeof v === 'string' && v.includes('\u0000'))) throw invalidArgument(`Invalid value for ${name}: it holds a NUL character.`, name);
    }
  }
}
