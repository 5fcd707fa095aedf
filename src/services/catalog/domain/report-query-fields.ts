// The fields each report table offers: their kind (a segment groups, a metric sums, a product attribute is read
// from the product) and their value type, which decides the operators and literals a condition may use.
import { own } from '../../../core/own.ts';

export type TableName = 'product_performance_view' | 'product_view';
export type FieldKind = 'segment' | 'metric' | 'attribute';
export type ValueType = 'string' | 'number' | 'date' | 'list' | 'object';

export interface FieldInfo {
  name: string;
  table: TableName;
  kind: FieldKind;
  type: ValueType;
  /** The property the value takes in a ReportRow (`segments.offerId`, `metrics.clicks`, `productView.priceMicros`). */
  group: 'segments' | 'metrics' | 'productView';
  property: string;
}

const camel = (snake: string): string => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const levels = (prefix: string) => [1, 2, 3, 4, 5].map((n) => `${prefix}_l${n}`);

/** Google's category and the merchant's product type, five levels each, in both tables. */
const TAXONOMY: Record<string, ValueType> = Object.fromEntries([...levels('category'), ...levels('product_type')].map((f) => [f, 'string']));

const SEGMENTS: Record<string, ValueType> = {
  date: 'date',
  week: 'date',
  program: 'string',
  offer_id: 'string',
  title: 'string',
  brand: 'string',
  currency_code: 'string',
  customer_country_code: 'string',
  ...TAXONOMY,
  ...Object.fromEntries([0, 1, 2, 3, 4].map((n) => [`custom_label${n}`, 'string'])),
};

const METRICS: Record<string, ValueType> = {
  clicks: 'number',
  impressions: 'number',
  ctr: 'number',
  conversions: 'number',
  conversion_value_micros: 'number',
  conversion_rate: 'number',
};

const PRODUCT_VIEW: Record<string, ValueType> = {
  id: 'string',
  offer_id: 'string',
  title: 'string',
  brand: 'string',
  currency_code: 'string',
  price_micros: 'number',
  language_code: 'string',
  condition: 'string',
  channel: 'string',
  availability: 'string',
  shipping_label: 'string',
  gtin: 'list',
  item_group_id: 'string',
  creation_time: 'number',
  expiration_date: 'date',
  aggregated_destination_status: 'string',
  item_issues: 'object',
  click_potential: 'string',
  click_potential_rank: 'number',
  ...TAXONOMY,
};

function entries(prefix: string, table: TableName, kind: FieldKind, group: FieldInfo['group'], types: Record<string, ValueType>): [string, FieldInfo][] {
  return Object.entries(types).map(([short, type]) => {
    const name = `${prefix}.${short}`;
    return [name, { name, table, kind, type, group, property: camel(short) }];
  });
}

export const FIELDS: ReadonlyMap<string, FieldInfo> = new Map([
  ...entries('segments', 'product_performance_view', 'segment', 'segments', SEGMENTS),
  ...entries('metrics', 'product_performance_view', 'metric', 'metrics', METRICS),
  ...entries('product_view', 'product_view', 'attribute', 'productView', PRODUCT_VIEW),
]);

/**
 * Table names as Content API v2.1 spells them (`ProductPerformanceView`, `MerchantPerformanceView`, `ProductView`)
 * and as the newer reports API does (`product_performance_view`); the merchant-level view reads the same data.
 */
const TABLES: Record<string, TableName> = {
  productperformanceview: 'product_performance_view',
  merchantperformanceview: 'product_performance_view',
  productview: 'product_view',
};

/** The table a query's FROM names; undefined for any other name (`constructor` included). */
export const tableNamed = (name: string): TableName | undefined => own(TABLES, name.toLowerCase().replace(/_/g, ''));
