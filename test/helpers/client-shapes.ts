// Checks a response against the googleapis type definitions of one API version, read with the TypeScript parser:
// every field must be one its `Schema$...` interface (or an object type written inline in it) declares, with the JSON
// type given there (int64 values are strings, as on the wire). Maps (`[key: string]: T`) take any key.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';

type Schemas = Map<string, ts.InterfaceDeclaration>;

function parse(api: string, version: string): Schemas {
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('googleapis/package.json')), `build/src/apis/${api}/${version}.d.ts`);
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const out: Schemas = new Map();
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) && node.name.text.startsWith('Schema$')) out.set(node.name.text.slice('Schema$'.length), node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

export interface ShapeChecker {
  /** Where `value` departs from `Schema$<name>`: one line per unknown field or wrong JSON type, nested objects included. */
  mismatches(name: string, value: unknown): string[];
  /** Fails the test where `value` departs from `Schema$<name>`. */
  assert(name: string, value: unknown): void;
  /** Reads every page of a list through `nextPageToken`, checking each page against `Schema$<name>`. */
  allPages<T>(name: string, field: string, read: (pageToken: string | undefined) => Promise<{ data: Record<string, any> }>): Promise<{ items: T[]; pages: number }>;
}

/**
 * The checker of one API version's answers (`clientShapes('content', 'v2.1')`). `prepare` may take out of an answer
 * what the test checks itself (a field the spec adds and the client's types lack) before the check.
 */
export function clientShapes(api: string, version: string, prepare: (name: string, value: any) => unknown = (_, value) => value): ShapeChecker {
  let schemas: Schemas | undefined;
  const mismatches = (name: string, value: unknown) => new Checker((schemas ??= parse(api, version))).schema(name, value, name);
  const check = (name: string, value: unknown) => assert.deepEqual(mismatches(name, prepare(name, value)), [], JSON.stringify(value));
  return {
    mismatches,
    assert: check,
    async allPages<T>(name: string, field: string, read: (pageToken: string | undefined) => Promise<{ data: Record<string, any> }>) {
      const items: T[] = [];
      let pageToken: string | undefined;
      let pages = 0;
      do {
        const { data } = await read(pageToken);
        check(name, data);
        items.push(...((data[field] as T[] | undefined) ?? []));
        pageToken = data.nextPageToken ?? undefined;
        pages += 1;
      } while (pageToken);
      return { items, pages };
    },
  };
}

class Checker {
  readonly #schemas: Schemas;

  constructor(schemas: Schemas) {
    this.#schemas = schemas;
  }

  schema(name: string, value: unknown, path: string): string[] {
    const schema = this.#schemas.get(name);
    if (!schema) return [`${path}: no Schema$${name} in the type definitions`];
    return this.#members(schema.members, value, path, `Schema$${name}`);
  }

  #members(members: ts.NodeArray<ts.TypeElement>, value: unknown, path: string, owner: string): string[] {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`];
    const fields = new Map(members.filter(ts.isPropertySignature).map((m) => [(m.name as ts.Identifier).text, m.type!]));
    const map = members.find(ts.isIndexSignatureDeclaration)?.type;
    return Object.entries(value).flatMap(([key, v]) => {
      const type = fields.get(key) ?? map;
      return type ? this.#typed(type, v, `${path}.${key}`) : [`${path}.${key}: not a field of ${owner}`];
    });
  }

  #typed(type: ts.TypeNode, value: unknown, path: string): string[] {
    const t = withoutNull(type);
    if (ts.isTypeLiteralNode(t)) return this.#members(t.members, value, path, 'the inline type');
    if (ts.isArrayTypeNode(t) || (ts.isTypeReferenceNode(t) && (t.typeName as ts.Identifier).text === 'Array')) {
      if (!Array.isArray(value)) return [`${path}: expected an array`];
      const item = ts.isArrayTypeNode(t) ? t.elementType : t.typeArguments![0];
      return value.flatMap((v, i) => this.#typed(item, v, `${path}[${i}]`));
    }
    if (ts.isTypeReferenceNode(t)) {
      const name = (t.typeName as ts.Identifier).text;
      return name.startsWith('Schema$') ? this.schema(name.slice('Schema$'.length), value, path) : [];
    }
    const kind = JSON_KINDS[t.kind];
    if (kind && typeof value !== kind) return [`${path}: ${JSON.stringify(value)} is not a ${kind}`];
    return [];
  }
}

const JSON_KINDS: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.StringKeyword]: 'string',
  [ts.SyntaxKind.NumberKeyword]: 'number',
  [ts.SyntaxKind.BooleanKeyword]: 'boolean',
};

/** `T | null` as `T`: the types allow null for every field, and an answer leaves a field out instead. */
const withoutNull = (type: ts.TypeNode): ts.TypeNode =>
  ts.isUnionTypeNode(type) ? (type.types.find((t) => !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword)) ?? type) : type;
