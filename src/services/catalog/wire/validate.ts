// Checks a request body against the resource's wire shape the way Google's JSON front end does: unknown names and
// values of the wrong JSON type are refused with 400 before anything else runs. proto3 JSON rules apply: null means
// absent, int64 values may come as numbers or strings (normalised to strings), numbers may come as numeric strings.
// The type definitions do not mark int64 and uint32 fields, so they are recognised by name (ids, counts, quantities;
// custombatch entry ids).
import { GoogleError } from '../../../core/google/index.ts';
import { own } from '../../../core/own.ts';
import { requireValue } from './rules.ts';
import { WIRE_TYPES } from './types.ts';

/** Fields that are int64/uint64 in the API (strings on the wire that parsers also accept as integers). */
export const INT64_FIELD = /^(id|\w*Id|\w*Ids|\w*[qQ]uantity|\w*HandlingTime|expiresIn|\w*Micros|\w*[cC]ount)$/;
/** Fields that are uint32 in the API: a custombatch entry's `batchId`. */
export const UINT32_FIELD = /^batchId$/;
export const UINT32_MAX = 4_294_967_295;

/** How a scalar field is read beyond its JSON type. */
type IntegerKind = 'int64' | 'uint32' | undefined;
// uint32 first: `batchId` is also named like an int64 id.
const integerKindOf = (name: string): IntegerKind => (UINT32_FIELD.test(name) ? 'uint32' : INT64_FIELD.test(name) ? 'int64' : undefined);

const PROTO_TYPE: Record<string, string> = { s: 'TYPE_STRING', n: 'TYPE_DOUBLE', b: 'TYPE_BOOL' };

const invalidPayload = (message: string) => new GoogleError(400, `Invalid JSON payload received. ${message}`, { reason: 'invalid' });
const invalidValue = (path: string, code: string, value: unknown, protoType = PROTO_TYPE[code] ?? 'TYPE_MESSAGE') =>
  new GoogleError(400, `Invalid value at '${path}' (${protoType}), ${JSON.stringify(value)}`, { reason: 'invalid' });

/** Validates `value` as the wire resource `type` and returns a normalised copy (nulls dropped, int64 as strings). */
export function checkWire<T = Record<string, unknown>>(value: unknown, type: string, path: string): T {
  return checkMessage(value, type, path) as T;
}

function checkMessage(value: unknown, type: string, path: string): Record<string, unknown> {
  const fields = WIRE_TYPES[type];
  if (!fields) throw new Error(`unknown wire type ${type}`);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalidValue(path, type, value);
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    // Own names only: a body naming `valueOf` or `constructor` must not find Object.prototype's.
    const code = own(fields, name);
    if (code === undefined) throw invalidPayload(`Unknown name "${name}" at '${path}': Cannot find field.`);
    if (v === null || v === undefined) continue;
    out[name] = checkField(v, code, `${path}.${name}`, integerKindOf(name));
  }
  return out;
}

function checkField(v: unknown, code: string, path: string, integer: IntegerKind): unknown {
  if (code === '*') return v;
  if (code.endsWith('[]')) {
    if (!Array.isArray(v)) throw invalidPayload(`Invalid value at '${path}': a list was expected.`);
    const element = code.slice(0, -2);
    return v.map((item, i) => checkField(item, element, `${path}[${i}]`, integer));
  }
  if (code === 's') {
    if (typeof v === 'string') return v;
    // int64 and uint64 fields are strings on the wire but parsers accept integers too.
    if (integer === 'int64' && typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
    throw invalidValue(path, code, v);
  }
  if (code === 'n' && integer === 'uint32') return checkUint32(v, path);
  if (code === 'n') {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
    throw invalidValue(path, code, v);
  }
  if (code === 'b') {
    if (typeof v === 'boolean') return v;
    throw invalidValue(path, code, v);
  }
  return checkMessage(v, code, path);
}

/** A uint32: a whole JSON number from 0 to 2^32-1, or its decimal digits as a string (proto3 JSON). */
function checkUint32(v: unknown, path: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  if (Number.isInteger(n) && n >= 0 && n <= UINT32_MAX) return n;
  throw invalidValue(path, 'n', v, 'TYPE_UINT32');
}

/** The body of a request: an object, or a 400 naming what came instead. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidPayload('Expected an object as the request body.');
  return body as Record<string, unknown>;
}

/**
 * A request body checked as `type`, with `required` fields present (named `<prefix><field>` in errors) and the
 * output-only `kind` dropped.
 */
export function readBody<T = Record<string, any>>(body: unknown, type: string, root: string, required: string[] = [], prefix = ''): T {
  const doc = checkWire<Record<string, any>>(bodyObject(body), type, root);
  delete doc.kind;
  for (const field of required) requireValue(doc[field], `${prefix}${field}`);
  return doc as T;
}
