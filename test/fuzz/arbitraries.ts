// fast-check arbitraries for whole HTTP requests against one route: path parameters, query, body and credentials,
// each either plausible (derived from the route's pattern and, where it declares one, its JSON schema) or hostile
// (deep nesting, huge strings, wrong types, invalid UTF-8, NUL, path traversal, repeated query keys, wrong methods).
import fc from 'fast-check';
import type { CredentialKind } from './credentials.ts';
import type { FuzzRoute } from './routes.ts';
import { WILDCARD_SEEDS } from './routes.ts';
import type { WildcardSeed } from './seeds/seed.ts';

export interface RequestPlan {
  method: string;
  /** Path segments already encoded (or deliberately raw bytes). */
  target: Buffer;
  query: Array<[string, string]>;
  contentType?: string;
  body?: Buffer;
  credential: CredentialKind;
}

type Schema = Record<string, any>;

/** Names every plain object inherits: a handler that looks a request's string up in a table must not find them. */
const INHERITED_NAMES = ['constructor', '__proto__', 'valueOf', 'toString', 'hasOwnProperty'];

/** Strings for a string schema, now and then an inherited name the schema admits. */
function stringFor(schema: Schema): fc.Arbitrary<string> {
  const plain = schemaString(schema);
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  let pattern: RegExp | undefined;
  try {
    pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : undefined;
  } catch {
    pattern = undefined;
  }
  const admitted = schema.format ? [] : INHERITED_NAMES.filter((n) => n.length >= min && n.length <= max && (!pattern || pattern.test(n)));
  return admitted.length === 0 ? plain : fc.oneof({ arbitrary: plain, weight: 9 }, { arbitrary: fc.constantFrom(...admitted), weight: 1 });
}

/** Strings for a string schema: its pattern (when fast-check can generate it) and length bounds, or its format. */
function schemaString(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, 200);
  const fits = (s: string) => s.length >= min && s.length <= (schema.maxLength ?? Infinity);
  if (schema.format === 'date-time') return fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'date' && !schema.pattern) return fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
    } catch {
      // a pattern fast-check cannot generate from: plain strings within the bounds
    }
  }
  return fc.string({ minLength: min, maxLength: Math.max(min, max) });
}

/** Objects for an object schema: declared properties (required ones always), and keys of its patternProperties. */
function objectFor(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  const props = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, fromSchema(s as Schema, depth + 1)]));
  const declared = fc.record(props, { requiredKeys: (schema.required ?? []).filter((k: string) => k in props) });
  const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, Schema>);
  if (patterns.length === 0) return declared;
  const extra = fc.oneof(...patterns.map(([key, value]) => fc.dictionary(stringFor({ type: 'string', pattern: key, maxLength: 20 }), fromSchema(value, depth + 1), { maxKeys: 4 })));
  return fc.tuple(declared, extra).map(([own, more]) => ({ ...(more as object), ...(own as object) }));
}

/** Values for a JSON schema (TypeBox output): objects, arrays, scalars, enums, unions; anything else any JSON. */
export function fromSchema(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.jsonValue({ maxDepth: 2 });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) {
    const listed = fc.constantFrom(...schema.enum);
    // A handler that looks an enum value up in a table must refuse the names every object inherits.
    return schema.enum.every((v: unknown) => typeof v === 'string') ? fc.oneof({ arbitrary: listed, weight: 9 }, { arbitrary: fc.constantFrom(...INHERITED_NAMES), weight: 1 }) : listed;
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return fc.oneof(...union.map((s: Schema) => fromSchema(s, depth + 1)));
  switch (schema.type) {
    case 'object':
      return objectFor(schema, depth);
    case 'array':
      return fc.array(fromSchema(schema.items, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'string':
      return stringFor(schema);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Field names the services read, so that random objects reach past "unknown field" checks now and then. */
const FIELD_NAMES = [
  'name', 'id', 'title', 'summary', 'description', 'kind', 'type', 'data', 'options', 'config', 'policies', 'ttl',
  'increment', 'token', 'amount', 'merchantid', 'identifier', 'cardnumber', 'expmonth', 'expyear', 'csc', 'currency',
  'accountid', 'start', 'end', 'dateTime', 'timeZone', 'recurrence', 'attendees', 'role', 'scope', 'mimeType',
  'parents', 'labels', 'message', 'serviceContext', 'eventTime', 'context', 'resolutionStatus', 'filterSet',
  'realtimeTimeRange', 'absoluteDateRange', 'offerId', 'channel', 'contentLanguage', 'targetCountry', 'price',
  'entries', 'batchId', 'method', 'volumeId', 'password', 'role_id', 'secret_id', 'version', 'cas', 'metadata',
];

const jsonText = (v: unknown) => Buffer.from(JSON.stringify(v) ?? 'null');
const nested = (depth: number) => Buffer.from('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));

/** Bodies with the content type they are sent under. */
export function bodyArbitrary(route: FuzzRoute): fc.Arbitrary<{ contentType?: string; body?: Buffer }> {
  const json = (b: fc.Arbitrary<Buffer>) => b.map((body) => ({ contentType: 'application/json', body }));
  const declared = route.schema?.body as Schema | undefined;
  const plausible = declared
    ? fromSchema(declared)
    : fc.dictionary(fc.constantFrom(...FIELD_NAMES), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });
  return fc.oneof(
    { arbitrary: fc.constant({}), weight: 2 },
    { arbitrary: json(plausible.map(jsonText)), weight: 6 },
    { arbitrary: json(fc.jsonValue().map(jsonText)), weight: 2 }, // wrong types at the top
    { arbitrary: json(fc.constantFrom(200, 5_000, 50_000).map(nested)), weight: 1 },
    { arbitrary: json(fc.constantFrom(1, 3).map((mb) => jsonText({ name: 'x'.repeat(mb * 1024 * 1024) }))), weight: 1 },
    { arbitrary: json(fc.string({ maxLength: 30 }).map((s) => Buffer.from(`{"name": ${s}`))), weight: 1 }, // broken JSON
    { arbitrary: json(fc.constant(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]))), weight: 1 },
    { arbitrary: json(fc.constant(jsonText({ name: 'a\u0000b', id: '\u0000' }))), weight: 1 },
    { arbitrary: json(fc.constant(Buffer.alloc(0))), weight: 1 },
    { arbitrary: fc.constantFrom(20, 5_000).map((d) => ({ contentType: 'text/xml', body: Buffer.from(`<R>${'<a>'.repeat(d)}x${'</a>'.repeat(d)}</R>`) })), weight: 1 },
    { arbitrary: fc.constant({ contentType: 'text/xml', body: Buffer.from('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "y">]><r>&x;</r>') }), weight: 1 },
    {
      arbitrary: fc.array(fc.tuple(fc.constantFrom(...FIELD_NAMES, 'a[b][c]', '__proto__'), fc.string({ maxLength: 20 })), { maxLength: 8 }).map((pairs) => ({
        contentType: 'application/x-www-form-urlencoded',
        body: Buffer.from(new URLSearchParams(pairs).toString()),
      })),
      weight: 1,
    },
    { arbitrary: fc.constant({ contentType: 'multipart/related; boundary=zz', body: Buffer.from('--zz\r\nContent-Type: application/json\r\n\r\n{"title":1}\r\n--zz\r\n\r\nabc\r\n--zz--') }), weight: 1 },
    { arbitrary: fc.constantFrom('text/plain', 'application/octet-stream', 'application/json; charset=latin9', 'foo/bar').map((contentType) => ({ contentType, body: Buffer.from('{"name":"x"}') })), weight: 1 },
  );
}

/** A path-parameter value, URL-encoded as a client would send it, or hostile. */
const segmentArbitrary: fc.Arbitrary<Buffer> = fc.oneof(
  { arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/).map((s) => Buffer.from(s)), weight: 4 },
  { arbitrary: fc.nat().map((n) => Buffer.from(String(n))), weight: 2 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }).map((s) => Buffer.from(encodeURIComponent(s))), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      '..', '%2e%2e', '..%2f..%2f..%2fetc%2fpasswd', '%2e%2e%5c%2e%2e%5cwindows', '%00', 'a%00b', '%ff%fe', '%c0%af', '%ed%a0%80',
      '%', '%zz', '-1', '99999999999999999999999', '1e309', 'NaN', 'null', '__proto__', 'constructor', '%20', '*', ';', 'x'.repeat(3_000),
    ).map((s) => Buffer.from(s)),
    weight: 3,
  },
  { arbitrary: fc.constantFrom(Buffer.from([0x61, 0xff, 0xfe]), Buffer.from([0x61, 0x00, 0x62]), Buffer.from([0xc3, 0x28])), weight: 1 }, // raw bytes
);

const QUERY_KEYS = [
  'alt', 'fields', 'prettyPrint', 'quotaUser', '$.xgafv', 'pageSize', 'pageToken', 'maxResults', 'q', 'orderBy',
  'list', 'help', 'version', 'timeMin', 'timeMax', 'syncToken', 'updatedMin', 'showDeleted', 'singleEvents',
  'supportsAllDrives', 'corpora', 'startIndex', 'projection', 'groupId', 'timeRange.period', 'serviceFilter.service',
];
const queryValue = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9]{0,12}$/),
  fc.constantFrom('-1', '0', '1e309', 'true', 'maybe', '(((', 'items(id', 'json', 'media', 'proto', '2026-13-45T99:99:99Z', '%00', '%ff', '\u0000', 'constructor:x'),
  fc.constantFrom(...INHERITED_NAMES),
  fc.string({ maxLength: 30 }),
  fc.constant('q'.repeat(5_000)),
);

/** Query pairs, repeated keys included (`?a=1&a=2`); a route's declared querystring schema adds its own fields. */
function queryArbitrary(route: FuzzRoute): fc.Arbitrary<Array<[string, string]>> {
  const declared = route.schema?.querystring as Schema | undefined;
  const fromDeclared = declared?.properties
    ? fromSchema(declared).map((q) => Object.entries((q ?? {}) as Record<string, unknown>).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
    : fc.constant<Array<[string, string]>>([]);
  const loose = fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), queryValue), { maxLength: 5 });
  return fc.tuple(fromDeclared, loose, fc.boolean()).map(([own, pairs, repeat]) => {
    const all = [...own, ...pairs];
    return repeat && all.length ? [...all, all[0]!] : all;
  });
}

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND', 'MKCOL'];

/** The path of a route with its parameters and wildcard filled. */
function pathArbitrary(route: FuzzRoute): fc.Arbitrary<Buffer> {
  const parts = route.url.split('/');
  const filled = parts.map((part): fc.Arbitrary<Buffer> => {
    // An unseeded wildcard: any path below it (seeded operations are drawn by requestArbitrary).
    if (part === '*') return fc.array(segmentArbitrary, { minLength: 1, maxLength: 4 }).map((segs) => Buffer.concat(segs.flatMap((s, i) => (i ? [Buffer.from('/'), s] : [s]))));
    // `:a::b` is a literal colon; `:name` a parameter, possibly followed by a literal suffix (`events::report`).
    const literal = part.replaceAll('::', '\u0001');
    const param = /^(.*?):([A-Za-z_][\w]*)(.*)$/.exec(literal);
    if (!param) return fc.constant(Buffer.from(literal.replaceAll('\u0001', ':')));
    const [, prefix, , suffix] = param;
    return segmentArbitrary.map((v) => Buffer.concat([Buffer.from(prefix!.replaceAll('\u0001', ':')), v, Buffer.from(suffix!.replaceAll('\u0001', ':'))]));
  });
  return fc.tuple(...filled).map((segs) => Buffer.concat(segs.flatMap((s, i) => (i ? [Buffer.from('/'), s] : [s]))));
}

/** A request for one route whose path, methods and schema are fixed (a wildcard already filled by a seed, or none). */
function planArbitrary(route: FuzzRoute): fc.Arbitrary<RequestPlan> {
  const method = fc.oneof({ arbitrary: fc.constantFrom(...route.methods), weight: 4 }, { arbitrary: fc.constantFrom(...ALL_METHODS), weight: 1 });
  const credential = fc.oneof(
    { arbitrary: fc.constant<CredentialKind>('valid'), weight: 4 },
    { arbitrary: fc.constantFrom<CredentialKind>('wrong', 'missing'), weight: 1 },
  );
  return fc.record({ method, path: pathArbitrary(route), query: queryArbitrary(route), body: bodyArbitrary(route), credential }).map(({ method, path, query, body, credential }) => ({
    method,
    target: path,
    query,
    credential,
    ...(method === 'GET' || method === 'HEAD' ? {} : body),
  }));
}

/** The route with its wildcard standing for one seeded operation: that operation's path, methods and schemas. */
export function seededRoute(route: FuzzRoute, seed: WildcardSeed): FuzzRoute {
  return { ...route, url: route.url.replace(/\*$/, seed.path), methods: seed.methods ?? route.methods, schema: seed.schema };
}

export function requestArbitrary(route: FuzzRoute): fc.Arbitrary<RequestPlan> {
  const seeds = route.url.endsWith('*') ? (WILDCARD_SEEDS[route.service] ?? []) : [];
  if (seeds.length === 0) return planArbitrary(route);
  // Mostly a seeded operation with requests from its schema; now and then any path under the wildcard.
  return fc.oneof(
    { arbitrary: fc.constantFrom(...seeds).chain((seed) => planArbitrary(seededRoute(route, seed))), weight: 3 },
    { arbitrary: planArbitrary(route), weight: 1 },
  );
}
