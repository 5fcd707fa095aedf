// Runs a parsed report query over the merchant's products and recorded daily performance: performance rows are
// filtered per record, grouped by the selected segments, summed, then filtered on metrics, ordered and limited;
// product_view rows are one per product.
import type { content_v2_1 } from 'googleapis';
import type { Product, ProductStatus } from './product-rules-types.ts';
import { dayNumber, dayString, mondayOf } from './report-query-dates.ts';
import type { FieldInfo } from './report-query-fields.ts';
import { FIELDS } from './report-query-fields.ts';
import { compilePattern, likeMatches } from './report-query-patterns.ts';
import type { Condition, Literal, ReportQuery } from './report-query.ts';
import { categoryLevel, productTypeLevel, productViewValue } from './report-query-product-view.ts';

export type ReportRow = content_v2_1.Schema$ReportRow;

/** One day of one product's performance in one program. */
export interface PerformanceRecord {
  date: string;
  offerId: string;
  program: string;
  clicks: number;
  impressions: number;
  conversions: number;
  conversionValueMicros: number;
  /** Where the shoppers were; the product's country when not recorded. */
  customerCountryCode?: string;
}

export interface ReportData {
  products: Product[];
  /** Product statuses (matched by productId) for product_view's status and issue fields. */
  statuses?: ProductStatus[];
  performance?: PerformanceRecord[];
}

type Value = string | number | string[] | object | undefined;

/** A segment's value for one performance record of `product` (undefined when the product is not known). */
function segmentValue(field: FieldInfo, record: PerformanceRecord, product: Product | undefined): Value {
  const p = field.property;
  const level = /L(\d)$/.exec(p);
  if (level && p.startsWith('category')) return categoryLevel(product, Number(level[1]));
  if (level && p.startsWith('productType')) return productTypeLevel(product, Number(level[1]));
  if (p.startsWith('customLabel')) return (product?.[p as 'customLabel0'] ?? undefined) || undefined;
  switch (p) {
    case 'date': return record.date;
    case 'week': return dayString(mondayOf(dayNumber(record.date)!));
    case 'program': return record.program;
    case 'offerId': return record.offerId;
    case 'title': return product?.title ?? undefined;
    case 'brand': return product?.brand ?? undefined;
    case 'currencyCode': return product?.price?.currency ?? undefined;
    case 'customerCountryCode': return record.customerCountryCode ?? product?.targetCountry ?? 'ZZ';
    default: return undefined;
  }
}

/**
 * What a condition needs at every row, made once per condition: its list as sets (a list may hold a hundred thousand
 * values, and searching it again for every row cost the list's length times the rows) and its compiled pattern.
 */
interface Prepared {
  values?: Set<unknown>;
  strings?: Set<string>;
  pattern?: { test(value: string): boolean };
}
const preparedOf = new WeakMap<Condition, Prepared>();
function prepared(condition: Condition): Prepared {
  let p = preparedOf.get(condition);
  if (!p) preparedOf.set(condition, (p = {}));
  return p;
}
const valuesOf = (c: Condition) => (prepared(c).values ??= new Set(c.values));
const stringsOf = (c: Condition) => (prepared(c).strings ??= new Set(c.values.map(String)));
const patternOf = (c: Condition) => (prepared(c).pattern ??= compilePattern(String(c.values[0])));

/** Whether `value` satisfies the condition; string operators are case-sensitive, as documented. */
export function matches(condition: Condition, value: Value): boolean {
  const { operator, values } = condition;
  if (Array.isArray(value)) {
    // The row's list is short; each of its entries is looked up in the condition's set.
    const wanted = stringsOf(condition);
    if (operator === 'CONTAINS ALL') return new Set(value.filter((v) => wanted.has(v))).size === wanted.size;
    const any = value.some((v) => wanted.has(v));
    return operator === 'CONTAINS ANY' ? any : !any;
  }
  if (value === undefined || typeof value === 'object') return operator === '!=' || operator.startsWith('NOT');
  const v = value as Literal;
  const [a, b] = values;
  switch (operator) {
    case '=': return v === a;
    case '!=': return v !== a;
    case '<': return v < a;
    case '<=': return v <= a;
    case '>': return v > a;
    case '>=': return v >= a;
    case 'BETWEEN': return v >= a && v <= b;
    case 'IN': return valuesOf(condition).has(v);
    case 'NOT IN': return !valuesOf(condition).has(v);
    case 'LIKE': return likeMatches(String(a), String(v));
    case 'NOT LIKE': return !likeMatches(String(a), String(v));
    case 'REGEXP_MATCH': return patternOf(condition).test(String(v));
    case 'NOT REGEXP_MATCH': return !patternOf(condition).test(String(v));
    default: return false;
  }
}

interface Totals {
  clicks: number;
  impressions: number;
  conversions: number;
  conversionValueMicros: number;
}

function metricValue(property: string, t: Totals): number {
  switch (property) {
    case 'ctr': return t.impressions === 0 ? 0 : t.clicks / t.impressions;
    case 'conversionRate': return t.clicks === 0 ? 0 : t.conversions / t.clicks;
    default: return t[property as keyof Totals];
  }
}

/** Integer-valued metrics and attributes travel as int64 strings in the JSON rows. */
const INT64 = new Set(['metrics.clicks', 'metrics.impressions', 'metrics.conversion_value_micros', 'product_view.price_micros', 'product_view.creation_time', 'product_view.click_potential_rank']);

function outputValue(field: FieldInfo, value: Value): unknown {
  if (value === undefined) return undefined;
  if (field.type === 'date' && typeof value === 'string') {
    const [year, month, day] = value.split('-').map(Number);
    return { year, month, day };
  }
  if (INT64.has(field.name)) return String(Math.round(value as number));
  if (field.name === 'metrics.conversions') return Math.round((value as number) * 100) / 100;
  return value;
}

function shapeRow(fields: FieldInfo[], values: Map<FieldInfo, Value>): ReportRow {
  const row: Record<string, Record<string, unknown>> = {};
  for (const field of fields) {
    const out = outputValue(field, values.get(field));
    if (out === undefined) continue;
    (row[field.group] ??= {})[field.property] = out;
  }
  return row as ReportRow;
}

function compare(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return (a as Literal) < (b as Literal) ? -1 : 1;
}

function orderAndLimit(query: ReportQuery, rows: Map<FieldInfo, Value>[]): Map<FieldInfo, Value>[] {
  if (query.orderBy.length > 0) {
    rows.sort((x, y) => {
      for (const { field, descending } of query.orderBy) {
        const c = compare(x.get(field), y.get(field));
        // Absent values stay last whichever the direction.
        if (c !== 0) return x.get(field) === undefined || y.get(field) === undefined ? c : descending ? -c : c;
      }
      return 0;
    });
  }
  return query.limit === undefined ? rows : rows.slice(0, query.limit);
}

const CURRENCY = FIELDS.get('segments.currency_code')!;

function evaluatePerformance(query: ReportQuery, data: ReportData): ReportRow[] {
  const byOffer = new Map<string, Product>();
  for (const product of data.products) if (product.offerId && !byOffer.has(product.offerId)) byOffer.set(product.offerId, product);
  const window = query.dateWindow!;
  // Conversion value is in the product's currency, so it is always reported (and grouped) with it.
  const fields = query.fields.some((f) => f.name === 'metrics.conversion_value_micros') && !query.fields.includes(CURRENCY)
    ? [...query.fields, CURRENCY]
    : query.fields;
  const segments = fields.filter((f) => f.kind === 'segment');
  const rowConditions = query.conditions.filter((c) => c.field.kind === 'segment');
  const metricConditions = query.conditions.filter((c) => c.field.kind === 'metric');

  const groups = new Map<string, { values: Map<FieldInfo, Value>; totals: Totals }>();
  for (const record of data.performance ?? []) {
    if (record.date < window.start || record.date > window.end) continue;
    const product = byOffer.get(record.offerId);
    if (!rowConditions.every((c) => matches(c, segmentValue(c.field, record, product)))) continue;
    const values = new Map<FieldInfo, Value>(segments.map((f) => [f, segmentValue(f, record, product)]));
    const key = JSON.stringify(segments.map((f) => values.get(f) ?? null));
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { values, totals: { clicks: 0, impressions: 0, conversions: 0, conversionValueMicros: 0 } }));
    group.totals.clicks += record.clicks;
    group.totals.impressions += record.impressions;
    group.totals.conversions += record.conversions;
    group.totals.conversionValueMicros += record.conversionValueMicros;
  }

  const metrics = [...FIELDS.values()].filter((f) => f.kind === 'metric');
  const rows: Map<FieldInfo, Value>[] = [];
  for (const { values, totals } of groups.values()) {
    for (const metric of metrics) values.set(metric, metricValue(metric.property, totals));
    if (metricConditions.every((c) => matches(c, values.get(c.field)))) rows.push(values);
  }
  return orderAndLimit(query, rows).map((values) => shapeRow(fields, values));
}

function evaluateProductView(query: ReportQuery, data: ReportData): ReportRow[] {
  const statuses = new Map((data.statuses ?? []).map((s) => [s.productId, s]));
  const clicksByOffer = new Map<string, number>();
  for (const r of data.performance ?? []) clicksByOffer.set(r.offerId, (clicksByOffer.get(r.offerId) ?? 0) + r.clicks);
  const clicksOf = (p: Product) => clicksByOffer.get(p.offerId ?? '') ?? 0;
  const ranked = clicksByOffer.size === 0 ? [] : [...data.products].sort((a, b) => clicksOf(b) - clicksOf(a));
  const context = { statuses, clickRank: new Map(ranked.map((p, i) => [p, i + 1] as const)) };

  const needed = new Set<FieldInfo>([...query.fields, ...query.conditions.map((c) => c.field), ...query.orderBy.map((o) => o.field)]);
  const rows: Map<FieldInfo, Value>[] = [];
  for (const product of data.products) {
    const values = new Map<FieldInfo, Value>([...needed].map((f) => [f, productViewValue(f.property, product, context) as Value]));
    if (query.conditions.every((c) => matches(c, values.get(c.field)))) rows.push(values);
  }
  return orderAndLimit(query, rows).map((values) => shapeRow(query.fields, values));
}

/** The rows a parsed query selects from the merchant's data, shaped like Schema$ReportRow. */
export function evaluateReport(query: ReportQuery, data: ReportData): ReportRow[] {
  return query.table === 'product_view' ? evaluateProductView(query, data) : evaluatePerformance(query, data);
}
