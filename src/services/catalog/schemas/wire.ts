// JSON schemas of the wire resources (wire/types.ts), for route documentation. They say what wire/validate.ts
// accepts: unknown field names are refused (additionalProperties: false), fields named like int64 ones take text or
// an integer, uint32 fields (batchId) a whole number, numbers a JSON number (numeric strings pass too, but are not
// advertised). Each resource is converted once and shared by every route that embeds it; rules the code enforces
// beyond JSON types (lengths, enumerations, formats) are added per field by the resource's schema file.
import { Type, type SchemaOptions, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { WIRE_TYPES } from '../wire/types.ts';
import { INT64_FIELD, UINT32_FIELD, UINT32_MAX } from '../wire/validate.ts';

/** Documentation and enforced rules of some fields of a wire resource, by field name. */
export type FieldRules = Record<string, SchemaOptions>;

/** Descriptions of shared sub-resources (formats are enforced per route, so they are added there). */
const SHARED_RULES: Record<string, FieldRules> = {
  Price: {
    value: { description: 'The amount as a decimal number, e.g. "9.99".' },
    currency: { description: 'ISO 4217 currency code, e.g. "USD".' },
  },
};

/** How deep a resource that contains itself (CustomAttribute groups) is spelled out before it is left open. */
const SELF_NESTING = 2;

const converted = new Map<string, TObject>();

function scalar(code: string, name: string, rules: SchemaOptions | undefined): TSchema {
  if (code === 's') {
    if (INT64_FIELD.test(name) && !rules?.enum && !rules?.pattern) {
      // Named like an int64 field (ids, counts), so a JSON integer is accepted too and kept as its decimal string.
      const { description, ...text } = rules ?? {};
      return Type.Union([Type.String(text), Type.Integer()], { description: description ?? 'Text; a JSON integer is accepted too (kept as its decimal string).' });
    }
    return Type.String(rules);
  }
  if (code === 'n' && UINT32_FIELD.test(name)) return Type.Integer({ minimum: 0, maximum: UINT32_MAX, ...rules });
  if (code === 'n') return Type.Number(rules);
  if (code === 'b') return Type.Boolean(rules);
  return Type.Unknown(rules);
}

function fieldSchema(code: string, name: string, rules: SchemaOptions | undefined, trail: string[]): TSchema {
  if (code.endsWith('[]')) {
    const element = code.slice(0, -2);
    // Rules of a list field describe its elements (e.g. the length of each label id), the description the list.
    const { description, ...elementRules } = rules ?? {};
    return Type.Array(fieldSchema(element, name, Object.keys(elementRules).length ? elementRules : undefined, trail), description ? { description } : {});
  }
  if (!WIRE_TYPES[code]) return scalar(code, name, rules);
  if (trail.filter((t) => t === code).length >= SELF_NESTING) return Type.Object({}, { additionalProperties: true, description: `A further ${code}.` });
  const nested = trail.includes(code) ? build(code, {}, [...trail, code]) : wireSchema(code);
  return rules?.description ? { ...nested, description: rules.description } : nested;
}

export interface BodySpec {
  /** Rules by field path (`offerId`, `address.city`, `entries.method`: a list's path names its elements). */
  rules?: FieldRules;
  /** Fields replaced by another schema, by top-level name. */
  nested?: Record<string, TSchema>;
  /** Fields the route requires, by path; a required string must not be empty. */
  required?: string[];
  description?: string;
}

/** The part of `paths` under `head` (`address.city` under `address` is `city`). */
function under<T>(entries: Array<[string, T]>, head: string): Array<[string, T]> {
  return entries.filter(([path]) => path.startsWith(`${head}.`)).map(([path, v]) => [path.slice(head.length + 1), v]);
}

function build(type: string, spec: BodySpec, trail: string[]): TObject {
  const fields = WIRE_TYPES[type];
  if (!fields) throw new Error(`unknown wire type ${type}`);
  const shared = SHARED_RULES[type] ?? {};
  const rules = Object.entries(spec.rules ?? {});
  const required = (spec.required ?? []).map((path): [string, true] => [path, true]);
  for (const [path] of [...rules, ...required, ...Object.entries(spec.nested ?? {})]) {
    if (!(path.split('.')[0] in fields)) throw new Error(`${type} has no field ${path}`);
  }
  const props: TProperties = {};
  for (const [name, code] of Object.entries(fields)) {
    const element = code.replace(/\[\]$/, '');
    const deeper = { rules: Object.fromEntries(under(rules, name)), required: under(required, name).map(([path]) => path) };
    let schema: TSchema;
    if (spec.nested?.[name]) schema = spec.nested[name];
    else if (WIRE_TYPES[element] && (Object.keys(deeper.rules).length > 0 || deeper.required.length > 0)) {
      const description = spec.rules?.[name]?.description;
      const object = build(element, { ...deeper, description: code.endsWith('[]') ? undefined : description }, [...trail, element]);
      schema = code.endsWith('[]') ? Type.Array(object, description ? { description } : {}) : object;
    } else {
      const own = spec.rules?.[name] ?? shared[name];
      const isRequired = required.some(([path]) => path === name);
      schema = fieldSchema(code, name, isRequired && code === 's' ? { minLength: 1, ...own } : own, trail);
    }
    props[name] = required.some(([path]) => path === name) ? schema : Type.Optional(schema);
  }
  return Type.Object(props, { additionalProperties: false, ...(spec.description ? { description: spec.description } : {}) });
}

/** The plain schema of a wire resource (no per-route rules), converted once. */
export function wireSchema(type: string): TObject {
  let schema = converted.get(type);
  if (!schema) {
    schema = build(type, {}, [type]);
    converted.set(type, schema);
  }
  return schema;
}

/**
 * A wire resource as one route takes it: rules the route enforces on some fields, sub-resources replaced by `nested`,
 * and the fields it requires.
 */
export function wireBody(type: string, spec: BodySpec = {}): TObject {
  return build(type, spec, [type]);
}
