// Optional-field readers over the store's lenient decoders: undefined when the field is absent, the decoded value
// otherwise, a 400 naming the field when the value cannot be decoded (before anything is stored).
import { parseBool, parseDurationSeconds, parseInteger, parseStringList, parseStringMap } from '../http/fields.ts';
import { badRequest } from '../contract.ts';

type Data = Record<string, unknown>;
const absent = (v: unknown) => v === undefined || v === null;

export function stringField(data: Data, name: string): string | undefined {
  const v = data[name];
  if (absent(v)) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw badRequest(`invalid string for ${name}`);
}

export const boolField = (data: Data, name: string): boolean | undefined =>
  absent(data[name]) || data[name] === '' ? undefined : parseBool(data[name], name);

export const intField = (data: Data, name: string): number | undefined =>
  absent(data[name]) || data[name] === '' ? undefined : parseInteger(data[name], name);

/** Seconds (negative values are refused by the decoder). */
export const durationField = (data: Data, name: string): number | undefined =>
  absent(data[name]) ? undefined : parseDurationSeconds(data[name], name);

export const stringListField = (data: Data, name: string): string[] | undefined =>
  absent(data[name]) ? undefined : parseStringList(data[name], name);

/** A map of strings; a JSON-encoded string is accepted too (approle secret-id metadata). */
export function stringMapField(data: Data, name: string): Record<string, string> | undefined {
  let v = data[name];
  if (absent(v) || v === '') return undefined;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      throw badRequest(`invalid map for ${name}`);
    }
  }
  return parseStringMap(v, name);
}
