// Checks a response against the googleapis type definitions of one API version: every field must be one the
// resource's `Schema$...` interface declares, with its JSON type (int64 values are strings there, as on the wire).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

type FieldType = { kind: 'string' | 'number' | 'boolean' | 'any' } | { kind: 'schema'; name: string };
interface Field {
  type: FieldType;
  array: boolean;
}

type Schemas = Map<string, Map<string, Field>>;

function parse(api: string, version: string): Schemas {
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('googleapis/package.json')), `build/src/apis/${api}/${version}.d.ts`);
  const text = readFileSync(file, 'utf8');
  const out = new Map<string, Map<string, Field>>();
  for (const m of text.matchAll(/export interface Schema\$(\w+) \{([\s\S]*?)\n {4}\}/g)) {
    const fields = new Map<string, Field>();
    for (const f of m[2].matchAll(/^ {8}(\w+)\?: ([^;]+);/gm)) {
      const raw = f[2].replace(/ \| null$/, '');
      const array = raw.endsWith('[]');
      const base = array ? raw.slice(0, -2) : raw;
      const schema = /^Schema\$(\w+)$/.exec(base);
      const type: FieldType = schema ? { kind: 'schema', name: schema[1] } : base === 'string' || base === 'number' || base === 'boolean' ? { kind: base } : { kind: 'any' };
      fields.set(f[1], { type, array });
    }
    out.set(m[1], fields);
  }
  return out;
}

/**
 * The checker of one API version's answers (`clientShapes('content', 'v2.1')`): where a value departs from
 * `Schema$<name>`, one line per unknown field or wrong JSON type.
 */
export function clientShapes(api: string, version: string): (name: string, value: unknown) => string[] {
  let schemas: Schemas | undefined;
  return (name, value) => mismatches((schemas ??= parse(api, version)), name, value, name);
}

function mismatches(schemas: Schemas, name: string, value: unknown, path: string): string[] {
  const fields = schemas.get(name);
  if (!fields) return [`${path}: no Schema$${name} in the type definitions`];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`];
  const problems: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const field = fields.get(key);
    if (!field) {
      problems.push(`${path}.${key}: not a field of Schema$${name}`);
      continue;
    }
    if (field.array !== Array.isArray(v)) {
      problems.push(`${path}.${key}: ${field.array ? 'expected an array' : 'unexpected array'}`);
      continue;
    }
    const items = field.array ? (v as unknown[]) : [v];
    items.forEach((item, i) => {
      const at = field.array ? `${path}.${key}[${i}]` : `${path}.${key}`;
      if (field.type.kind === 'any') return;
      if (field.type.kind === 'schema') problems.push(...mismatches(schemas, field.type.name, item, at));
      else if (typeof item !== field.type.kind) problems.push(`${at}: ${JSON.stringify(item)} is not a ${field.type.kind}`);
    });
  }
  return problems;
}
