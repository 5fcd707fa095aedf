// XML bodies for the text/xml variant of the API: the root element is the model name, children are the snake_case
// fields, repeated elements are arrays. Values come in as text; the field validators coerce them (see TEXTUAL).
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { MAX_XML_DEPTH, xmlTooDeep } from '../../core/http/xml-body.ts';

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
});

const builder = new XMLBuilder({ ignoreAttributes: true, format: false, suppressEmptyNode: false, processEntities: true });

/** Parses an XML document into `{ root, body }`; throws on malformed input. */
export function parseXml(text: string): { root: string; body: unknown } {
  // No document types: they would let a request declare entities that expand without bound.
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new Error('document type declarations are not accepted');
  if (xmlTooDeep(text)) throw new Error(`XML nesting is deeper than ${MAX_XML_DEPTH} levels`);
  const doc = parser.parse(text, true) as Record<string, unknown>;
  const roots = Object.keys(doc);
  if (roots.length !== 1) throw new Error('an XML body has exactly one root element');
  const root = roots[0];
  return { root, body: doc[root] === '' ? {} : doc[root] };
}

/** Serialises `body` under a root element named `root`. */
export function toXml(root: string, body: unknown): string {
  return `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ [root]: prepare(body) })}`;
}

// Booleans and numbers print as text; undefined fields are left out.
function prepare(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(prepare);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) out[k] = prepare(v);
    return out;
  }
  return typeof value === 'boolean' || typeof value === 'number' ? String(value) : value;
}
