// Books declares most of a volume's parts as object types written inline in `Schema$Volume` (volumeInfo, saleInfo,
// accessInfo, userInfo, ...), which clientShapes takes as any value. This reads the same type definitions with the
// TypeScript parser and checks the answer through them, inline types and the named schemas they hold included.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { clientShapes } from '../helpers/client-shapes.ts';

const named = clientShapes('books', 'v1');

function parse(): Map<string, ts.InterfaceDeclaration> {
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('googleapis/package.json')), 'build/src/apis/books/v1.d.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const out = new Map<string, ts.InterfaceDeclaration>();
  const visit = (node: ts.Node): void => {
    if (ts.isInterfaceDeclaration(node) && node.name.text.startsWith('Schema$')) out.set(node.name.text.slice('Schema$'.length), node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

let schemas: Map<string, ts.InterfaceDeclaration> | undefined;

/** Where `value` departs from `Schema$<name>`, nested inline object types included: one line per problem. */
export function bookShapes(name: string, value: unknown): string[] {
  return [...new Set([...named(name, value), ...schemaShape(name, value, name)])];
}

function schemaShape(name: string, value: unknown, path: string): string[] {
  const schema = (schemas ??= parse()).get(name);
  if (!schema) return [`${path}: no Schema$${name} in the type definitions`];
  return membersOf(schema.members, value, path, `Schema$${name}`);
}

function membersOf(members: ts.NodeArray<ts.TypeElement>, value: unknown, path: string, owner: string): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [`${path}: not an object`];
  const fields = new Map(members.filter(ts.isPropertySignature).map((m) => [(m.name as ts.Identifier).text, m.type!]));
  return Object.entries(value).flatMap(([key, v]) => {
    const type = fields.get(key);
    return type ? typed(type, v, `${path}.${key}`) : [`${path}.${key}: not a field of ${owner}`];
  });
}

const withoutNull = (type: ts.TypeNode): ts.TypeNode =>
  ts.isUnionTypeNode(type) ? (type.types.find((t) => !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword)) ?? type) : type;

function typed(type: ts.TypeNode, value: unknown, path: string): string[] {
  const t = withoutNull(type);
  if (ts.isTypeLiteralNode(t)) return membersOf(t.members, value, path, 'the inline type');
  if (ts.isArrayTypeNode(t) || (ts.isTypeReferenceNode(t) && (t.typeName as ts.Identifier).text === 'Array')) {
    if (!Array.isArray(value)) return [`${path}: expected an array`];
    const item = ts.isArrayTypeNode(t) ? t.elementType : t.typeArguments![0];
    return value.flatMap((v, i) => typed(item, v, `${path}[${i}]`));
  }
  if (ts.isTypeReferenceNode(t)) return schemaShape((t.typeName as ts.Identifier).text.slice('Schema$'.length), value, path);
  const kind = { [ts.SyntaxKind.StringKeyword]: 'string', [ts.SyntaxKind.NumberKeyword]: 'number', [ts.SyntaxKind.BooleanKeyword]: 'boolean' }[t.kind as number];
  if (kind && typeof value !== kind) return [`${path}: ${JSON.stringify(value)} is not a ${kind}`];
  return [];
}
