// XML feeds: RSS 2.0 (`<item>`s) or Atom 1.0 (`<entry>`s) with attributes in the g: namespace
// (http://base.google.com/ns/1.0). Grouped attributes (shipping, tax) come as sub-elements.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { MAX_XML_DEPTH, xmlTooDeep } from '../../../core/http/xml-body.ts';
import { dictionary } from '../../../core/own.ts';
import { normaliseAttributeName } from './datafeed-format-attributes.ts';
import { feedIssue, type FeedReading, type RawEntry } from './datafeed-format-types.ts';

// The parser throws on an element or attribute named `constructor`, `__proto__` or `prototype` and renames
// `toString` and the like; a feed may name an attribute so, so such names are marked while parsing and restored when
// read. A NUL cannot occur in an XML name, so a marked name never collides with a real one.
const MARK = '\u0000';
const markReserved = (name: string): string => (name === 'prototype' || Object.hasOwn(Object.prototype, name) ? MARK + name : name);
const elementName = (key: string): string => normaliseAttributeName(key.startsWith(MARK) ? key.slice(MARK.length) : key);

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  transformTagName: markReserved,
  transformAttributeName: markReserved,
});

type Node = string | { [key: string]: Node | Node[] };

/** Text of an element: its content, or for Atom's `<link href="..."/>` the address. */
function textOf(node: Node): string | undefined {
  if (typeof node === 'string') return node;
  if (typeof node['#text'] === 'string') return node['#text'];
  if (typeof node['@_href'] === 'string') return node['@_href'];
  return undefined;
}

function entriesOf(item: Record<string, Node | Node[]>): RawEntry[] {
  const entries: RawEntry[] = [];
  for (const [key, raw] of Object.entries(item)) {
    if (key.startsWith('@_') || key === '#text') continue;
    const name = elementName(key);
    for (const node of Array.isArray(raw) ? raw : [raw]) {
      const value = textOf(node);
      if (value !== undefined) {
        entries.push({ name, value });
      } else if (typeof node === 'object') {
        // Keyed by the file's element names, which may be `__proto__`.
        const parts = dictionary<string>();
        for (const [sub, child] of Object.entries(node)) {
          const childText = Array.isArray(child) ? undefined : textOf(child);
          if (!sub.startsWith('@_') && childText !== undefined) parts[elementName(sub)] = childText;
        }
        entries.push({ name, value: parts });
      }
    }
  }
  return entries;
}

/** Line numbers of the item elements, in document order (the parser keeps no positions). */
function itemLines(body: string, tag: string): number[] {
  const lines: number[] = [];
  const pattern = new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${tag}[\\s>/]`, 'g');
  let line = 1;
  let from = 0;
  for (let m = pattern.exec(body); m; m = pattern.exec(body)) {
    for (let i = from; i < m.index; i++) if (body.charCodeAt(i) === 10) line++;
    from = m.index;
    lines.push(line);
  }
  return lines;
}

export function readXml(body: string): FeedReading {
  // Checked first: the validator and the parser both recurse once per level.
  if (xmlTooDeep(body)) return { items: [], issues: [feedIssue('error', 'parse/invalid_xml', 'Invalid XML', `XML nesting is deeper than ${MAX_XML_DEPTH} levels`, 1)] };
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    return { items: [], issues: [feedIssue('error', 'parse/invalid_xml', 'Invalid XML', valid.err.msg, valid.err.line)] };
  }
  const doc = parser.parse(body) as Record<string, any>;
  const rssItems = doc.rss?.channel?.item;
  const atomItems = doc.feed?.entry;
  const tag = rssItems !== undefined ? 'item' : 'entry';
  const raw = rssItems ?? atomItems;
  if (raw === undefined) {
    const found = doc.rss ? 'an RSS channel without items' : doc.feed ? 'an Atom feed without entries' : 'neither RSS nor Atom';
    return { items: [], issues: [feedIssue('error', 'parse/no_items', 'No items in feed', `The document is ${found}`, 0)] };
  }
  const lines = itemLines(body, tag);
  const items = (Array.isArray(raw) ? raw : [raw]).map((item: Node, i: number) => ({
    lineNumber: lines[i] ?? 0,
    entries: typeof item === 'object' ? entriesOf(item as Record<string, Node | Node[]>) : [],
  }));
  return { items, issues: [] };
}
