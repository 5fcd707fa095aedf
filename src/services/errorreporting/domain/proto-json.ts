// Reading request bodies the way Google's JSON-to-proto binding does: unknown names and wrong types are 400s whose
// messages name the field by its proto path (`event.service_context.service`).
import { GoogleError, protoName } from '../../../core/google/index.ts';

const TYPE_PREFIX = 'type.googleapis.com/google.devtools.clouderrorreporting.v1beta1.';

const child = (path: string, key: string) => `${path}.${protoName(key)}`;

const bad = (message: string) => new GoogleError(400, message, { reason: 'badRequest', rpcStatus: 'INVALID_ARGUMENT' });

export const invalidValue = (path: string, type: string, value: unknown) =>
  bad(`Invalid value at '${path}' (${type.startsWith('TYPE_') || type.includes('/') ? type : TYPE_PREFIX + type}), ${JSON.stringify(value)}`);

/**
 * A JSON object with only the named fields; `null` reads as absent, as in proto3 JSON. Proto3 JSON also accepts a
 * field under its proto name (`service_context` for `serviceContext`): the record returned names every field as `known`
 * does.
 */
export function readObject(value: unknown, path: string, type: string, known: readonly string[]): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidValue(path, type, value);
  const record = value as Record<string, unknown>;
  let renamed: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    if (known.includes(key)) continue;
    const where = path.includes('.') ? ` at '${path}'` : '';
    const name = known.find((k) => protoName(k) === key);
    if (name === undefined) throw bad(`Invalid JSON payload received. Unknown name "${key}"${where}: Cannot find field.`);
    if (Object.hasOwn(record, name)) throw bad(`Invalid JSON payload received. Field "${name}"${where} is given twice, also as "${key}".`);
    renamed ??= { ...record };
    renamed[name] = record[key];
    delete renamed[key];
  }
  return renamed ?? record;
}

export function readString(record: Record<string, unknown> | undefined, key: string, path: string): string | undefined {
  const value = record?.[key];
  if (value === undefined || value === null) return undefined;
  // NUL cannot be stored in PostgreSQL text; refusing it everywhere keeps both databases alike.
  if (typeof value !== 'string' || value.includes('\u0000')) throw invalidValue(child(path, key), 'TYPE_STRING', value);
  return value;
}

/** int32 fields accept a JSON number or a decimal string, as proto3 JSON does. */
export function readInt32(record: Record<string, unknown> | undefined, key: string, path: string): number | undefined {
  const value = record?.[key];
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < -2147483648 || n > 2147483647) throw invalidValue(child(path, key), 'TYPE_INT32', value);
  return n;
}

export function readArray(record: Record<string, unknown> | undefined, key: string, path: string, type: string): unknown[] {
  const value = record?.[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidValue(child(path, key), type, value);
  return value;
}

export const fieldPath = child;
export const required = (path: string) => bad(`${path} must be set.`);
export const invalidBody = bad;
