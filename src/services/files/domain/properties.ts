// Custom file properties: a key, a value and a visibility (PRIVATE to the app by default, or PUBLIC). Drive limits
// key plus value to 124 bytes of UTF-8 and a file to 100 properties (30 of each visibility per app).
import { invalidValue, requiredValue } from '../errors.ts';

export type Visibility = 'PRIVATE' | 'PUBLIC';

export interface PropertyInput {
  key: string;
  value: string;
  visibility: Visibility;
}

export const MAX_PROPERTY_BYTES = 124;
export const MAX_PER_VISIBILITY = 30;

export function readVisibility(raw: unknown, location = 'visibility'): Visibility {
  if (raw === undefined || raw === null || raw === '') return 'PRIVATE';
  if (raw === 'PRIVATE' || raw === 'PUBLIC') return raw;
  throw invalidValue(location, `Invalid value for ${location}: ${String(raw)}`);
}

export function checkKey(key: unknown, location = 'key'): string {
  if (key === undefined || key === null || key === '') throw requiredValue(location, 'Property key is required.');
  if (typeof key !== 'string' || !/^[A-Za-z0-9.!@$%^&*()\-_/]+$/.test(key)) throw invalidValue(location, `Invalid property key: ${String(key)}`);
  return key;
}

export function checkSize(key: string, value: string, location: string): void {
  if (Buffer.byteLength(key + value, 'utf8') > MAX_PROPERTY_BYTES) {
    throw invalidValue(location, `The property key and value together must be at most ${MAX_PROPERTY_BYTES} bytes of UTF-8.`);
  }
}

/** A property in a body; `requireValue` for inserts (a patch may leave the value as stored). */
export function readPropertyInput(raw: unknown, location: string, requireValue: boolean): PropertyInput {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalidValue(location, `Invalid value for ${location}: expected a Property.`);
  const p = raw as Record<string, unknown>;
  const key = checkKey(p.key, `${location}.key`);
  if (p.value !== undefined && p.value !== null && typeof p.value !== 'string') throw invalidValue(`${location}.value`, `Invalid value for ${location}.value`);
  if (requireValue && typeof p.value !== 'string') throw requiredValue(`${location}.value`, 'Property value is required.');
  const value = typeof p.value === 'string' ? p.value : '';
  checkSize(key, value, location);
  return { key, value, visibility: readVisibility(p.visibility, `${location}.visibility`) };
}
