// Turns a fetched datafeed file (tab-separated or XML) into Content API products: each item is built from its
// attributes, an item whose values cannot be read is reported by line and left out, the others are returned.
// Data-quality rules (title length, GTIN check digit, ...) are not checked here: they become product issues.
import type { content_v2_1 } from 'googleapis';
import { own } from '../../../core/own.ts';
import { ATTRIBUTES, type RawValue } from './datafeed-format-attributes.ts';
import { readTsv } from './datafeed-format-tsv.ts';
import { feedIssue, type FeedIssue, type RawItem } from './datafeed-format-types.ts';
import { readXml } from './datafeed-format-xml.ts';
import type { Product } from './product-rules-types.ts';

export type { FeedIssue } from './datafeed-format-types.ts';
export { ATTRIBUTES as FEED_ATTRIBUTES } from './datafeed-format-attributes.ts';

export const OFFER_ID_MAX = 50;

export interface FeedOptions {
  contentLanguage: string;
  targetCountry?: string;
  feedLabel?: string;
  channel?: 'online' | 'local';
  /** Detected from the body when absent: XML starts with `<`. */
  format?: 'tsv' | 'xml';
}

export interface FeedProduct {
  lineNumber: number;
  product: Product;
}

export interface ParsedFeed {
  format: 'tsv' | 'xml';
  products: FeedProduct[];
  errors: FeedIssue[];
  warnings: FeedIssue[];
  itemsTotal: number;
  itemsValid: number;
}

const display = (value: RawValue): string => (typeof value === 'string' ? value : Object.entries(value).map(([k, v]) => `${k}=${v}`).join(' '));

/** Merchant Center strips and collapses whitespace in an item id. */
const normaliseOfferId = (id: string): string => id.trim().replace(/\s+/g, ' ');

export function restId(product: Product): string {
  return `${product.channel}:${product.contentLanguage}:${product.targetCountry ?? product.feedLabel}:${product.offerId}`;
}

function buildProduct(item: RawItem, options: FeedOptions, issues: FeedIssue[], unknownSeen: Set<string>): Product | undefined {
  const product: Record<string, unknown> = {};
  const custom: content_v2_1.Schema$CustomAttribute[] = [];
  const problems: FeedIssue[] = [];
  const idEntry = item.entries.find((e) => e.name === 'id');
  const itemId = typeof idEntry?.value === 'string' ? normaliseOfferId(idEntry.value) || undefined : undefined;

  for (const entry of item.entries) {
    if (typeof entry.value === 'string' && entry.value.trim() === '') continue;
    // The name is the feed file's: `constructor` is an unknown attribute, not Object.prototype's.
    const spec = own(ATTRIBUTES, entry.name);
    if (!spec) {
      custom.push({ name: entry.name, value: display(entry.value) });
      if (!unknownSeen.has(entry.name)) {
        unknownSeen.add(entry.name);
        issues.push(feedIssue('warning', 'parse/unknown_attribute', `Unrecognized attribute [${entry.name}]`, 'Kept as a custom attribute', item.lineNumber, { attribute: entry.name, itemId }));
      }
      continue;
    }
    const raws = spec.repeated === 'comma' && typeof entry.value === 'string' ? entry.value.split(',').map((v) => v.trim()).filter(Boolean) : [entry.value];
    for (const raw of raws) {
      const converted = spec.convert(raw, { targetCountry: options.targetCountry, subAttributes: entry.subAttributes });
      if ('error' in converted) {
        problems.push(feedIssue('error', 'validation/invalid_value', `Invalid value [${entry.name}]`, converted.error, item.lineNumber, { attribute: entry.name, itemId, value: display(raw) }));
      } else if (spec.repeated) {
        ((product[spec.field] ??= []) as unknown[]).push(converted.value);
      } else {
        product[spec.field] = converted.value;
      }
    }
  }

  if (!itemId) {
    problems.push(feedIssue('error', 'validation/missing_required', 'Missing value [id]', 'Every item needs an id', item.lineNumber, { attribute: 'id' }));
  } else if (itemId.length > OFFER_ID_MAX) {
    problems.push(feedIssue('error', 'validation/invalid_value', 'Invalid value [id]', `The id is longer than ${OFFER_ID_MAX} characters`, item.lineNumber, { attribute: 'id', itemId, value: itemId }));
  }
  issues.push(...problems);
  if (problems.length > 0) return undefined;

  const channel = options.channel ?? 'online';
  const built: Product = {
    ...product,
    kind: 'content#product',
    offerId: itemId,
    channel,
    contentLanguage: options.contentLanguage,
    ...(options.targetCountry ? { targetCountry: options.targetCountry } : {}),
    ...(options.feedLabel ? { feedLabel: options.feedLabel } : {}),
    ...(custom.length > 0 ? { customAttributes: custom } : {}),
    source: 'feed',
  };
  built.id = restId(built);
  return built;
}

/** Reads a feed file into products plus per-line errors (the item is left out) and warnings (it is kept). */
export function parseFeed(body: string, options: FeedOptions): ParsedFeed {
  const format = options.format ?? (body.replace(/^\uFEFF/, '').trimStart().startsWith('<') ? 'xml' : 'tsv');
  const reading = format === 'xml' ? readXml(body) : readTsv(body);
  const issues = [...reading.issues];
  const products: FeedProduct[] = [];
  const seen = new Map<string, number>();
  const unknownSeen = new Set<string>();
  for (const item of reading.items) {
    const product = buildProduct(item, options, issues, unknownSeen);
    if (!product) continue;
    const first = seen.get(product.offerId!);
    if (first !== undefined) {
      issues.push(feedIssue('error', 'validation/duplicate_item', 'Duplicate item [id]', `The id is already used on line ${first}`, item.lineNumber, { attribute: 'id', itemId: product.offerId!, value: product.offerId! }));
      continue;
    }
    seen.set(product.offerId!, item.lineNumber);
    products.push({ lineNumber: item.lineNumber, product });
  }
  // Reading and building report in different passes: present them in file order.
  issues.sort((a, b) => a.lineNumber - b.lineNumber);
  return {
    format,
    products,
    errors: issues.filter((i) => i.severity === 'error'),
    warnings: issues.filter((i) => i.severity === 'warning'),
    itemsTotal: reading.items.length,
    itemsValid: products.length,
  };
}

/** Issues grouped the way datafeedstatuses reports them: one entry per code and message, a few examples each. */
export function datafeedStatusErrors(issues: FeedIssue[], maxExamples = 3): content_v2_1.Schema$DatafeedStatusError[] {
  const groups = new Map<string, content_v2_1.Schema$DatafeedStatusError & { n: number }>();
  for (const issue of issues) {
    const key = `${issue.code}\u0000${issue.message}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { code: issue.code, message: issue.message, examples: [], n: 0 }));
    group.n++;
    if (group.examples!.length < maxExamples) {
      group.examples!.push({
        lineNumber: String(issue.lineNumber),
        ...(issue.itemId !== undefined ? { itemId: issue.itemId } : {}),
        ...(issue.value !== undefined ? { value: issue.value } : {}),
      });
    }
  }
  return [...groups.values()].map(({ n, ...group }) => ({ ...group, count: String(n) }));
}
