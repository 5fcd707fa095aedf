// Validation of a submitted filter set, and its meaning as a query: the intersection of its filters (list filters as
// unions) over one time range. Messages follow the real API's wording where it is known.
import { invalidArgument } from '../../../core/google/errors.ts';
import { protoName } from '../../../core/google/parameters.ts';
import { daysInMonth, parseRfc3339, instantToMs } from '../../../core/time.ts';
import { ownerName, parseFilterSetName, type Owner } from './names.ts';
import {
  ENVIRONMENTS,
  FILTER_BREAKDOWN_DIMENSIONS,
  FILTER_ENVIRONMENTS,
  FILTER_FORMATS,
  FILTER_GRANULARITIES,
  FILTER_PLATFORMS,
  PLATFORMS,
  codeOf,
  type Granularity,
} from './vocabulary.ts';

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

export type TimeRange =
  | { kind: 'relative'; durationDays: number; offsetDays: number }
  | { kind: 'absolute'; start: CalendarDate; end: CalendarDate }
  | { kind: 'realtime'; startMs: number };

/** What a filter set selects. An absent filter selects everything; an empty `formats` list selects nothing. */
export interface FilterSetQuery {
  name: string;
  owner: Owner;
  formats?: number[];
  environment?: number;
  platforms?: number[];
  creative?: string;
  deal?: string;
  range: TimeRange;
  granularity?: Granularity;
}

const FIELDS = new Set([
  'name',
  'filterSetId',
  'format',
  'formats',
  'environment',
  'platforms',
  'relativeDateRange',
  'absoluteDateRange',
  'realtimeTimeRange',
  'timeSeriesGranularity',
  'creativeId',
  'dealId',
  'sellerNetworkIds',
  'publisherIdentifiers',
  'breakdownDimensions',
]);
const RANGES = ['relativeDateRange', 'absoluteDateRange', 'realtimeTimeRange'] as const;

const bad = (message: string) => invalidArgument(message);
const unknownName = (name: string, at: string) => bad(`Invalid JSON payload received. Unknown name "${name}" at '${at}': Cannot find field.`);
const badValue = (path: string, type: string, value: unknown) => bad(`Invalid value at '${path}' (${type}), ${JSON.stringify(value)}`);

/**
 * Validates a filter set submitted for creation under `owner` (or read back from storage, `owner` undefined).
 * Throws a 400 GoogleError describing the first problem.
 */
export function parseFilterSet(body: unknown, owner?: Owner): FilterSetQuery {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw bad('Invalid JSON payload received. Expected a filter set object.');
  const fs = body as Record<string, unknown>;
  for (const key of Object.keys(fs)) if (!FIELDS.has(key)) throw unknownName(key, 'filter_set');

  if (fs.name === undefined || fs.name === null || fs.name === '') throw bad('Filter set name is required.');
  if (typeof fs.name !== 'string') throw badValue('filter_set.name', 'TYPE_STRING', fs.name);
  const parsed = parseFilterSetName(fs.name);
  if (!parsed) {
    throw bad(`Filter set name "${fs.name}" must match bidders/*/filterSets/* or bidders/*/accounts/*/filterSets/*.`);
  }
  if (owner && ownerName(parsed.owner) !== ownerName(owner)) {
    throw bad(`Filter set name "${fs.name}" does not belong to the owner ${ownerName(owner)} it is created under.`);
  }
  const query: FilterSetQuery = { name: fs.name, owner: parsed.owner, range: timeRange(fs) };
  // Output only: accepted (a client may send back what it listed) when it is an int64, and never stored.
  if (fs.filterSetId !== undefined && fs.filterSetId !== null && !isInt64(fs.filterSetId)) {
    throw badValue('filter_set.filter_set_id', 'TYPE_INT64', fs.filterSetId);
  }

  // Formats: `format` (deprecated single value) and `formats` (a list of at most one) are intersected.
  let formats: number[] | undefined;
  const narrow = (codes: number[] | undefined) => {
    if (codes === undefined) return;
    formats = formats === undefined ? codes : formats.filter((c) => codes.includes(c));
  };
  if (fs.format !== undefined && fs.format !== null) narrow(enumValue('filter_set.format', fs.format));
  if (fs.formats !== undefined && fs.formats !== null) {
    const list = arrayOf('filter_set.formats', fs.formats);
    if (list.length > 1) throw bad('Only one format may be specified in a filter set.');
    list.forEach((v, i) => narrow(enumValue(`filter_set.formats[${i}]`, v)));
  }
  if (formats !== undefined) query.formats = formats;

  if (fs.environment !== undefined && fs.environment !== null) {
    const env = oneOf('filter_set.environment', fs.environment, FILTER_ENVIRONMENTS);
    if (env !== 'ENVIRONMENT_UNSPECIFIED') query.environment = codeOf(ENVIRONMENTS, env);
  }
  if (fs.platforms !== undefined && fs.platforms !== null) {
    const names = arrayOf('filter_set.platforms', fs.platforms).map((v, i) => oneOf(`filter_set.platforms[${i}]`, v, FILTER_PLATFORMS));
    // PLATFORM_UNSPECIFIED adds nothing to the union; a list of only that value filters nothing.
    const codes = [...new Set(names.filter((p) => p !== 'PLATFORM_UNSPECIFIED').map((p) => codeOf(PLATFORMS, p)))].sort();
    if (codes.length > 0) query.platforms = codes;
  }
  if (fs.timeSeriesGranularity !== undefined && fs.timeSeriesGranularity !== null) {
    const g = oneOf('filter_set.time_series_granularity', fs.timeSeriesGranularity, FILTER_GRANULARITIES);
    if (g !== 'TIME_SERIES_GRANULARITY_UNSPECIFIED') query.granularity = g;
  }

  // Proto3 JSON: a field holding its default value is not set, so an empty creativeId or a zero dealId (as clients
  // that send every field write them) filters nothing, at either level.
  const creative = fs.creativeId === '' ? undefined : (fs.creativeId ?? undefined);
  const deal = isInt64(fs.dealId) && Number(fs.dealId) === 0 ? undefined : (fs.dealId ?? undefined);
  if ((creative !== undefined || deal !== undefined) && parsed.owner.level === 'bidder') {
    throw bad('Creative ID and deal ID filters may be set only for account-level filter sets (bidders/*/accounts/*/filterSets/*).');
  }
  if (creative !== undefined) {
    if (typeof creative !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(creative)) throw badValue('filter_set.creative_id', 'TYPE_STRING', creative);
    query.creative = creative;
  }
  if (deal !== undefined) {
    if (!isInt64(deal)) throw badValue('filter_set.deal_id', 'TYPE_INT64', deal);
    query.deal = String(deal).replace(/^0+(?=\d)/, '');
  }
  // Dimensions the stored events do not carry: items are checked as the API types them, then only an empty list (or
  // breakdowns by BREAKDOWN_DIMENSION_UNSPECIFIED, which break down nothing) is accepted.
  const unsupported = {
    sellerNetworkIds: listOf(fs, 'sellerNetworkIds', (path, v) => int(path, v)),
    publisherIdentifiers: listOf(fs, 'publisherIdentifiers', (path, v) => {
      if (typeof v !== 'string') throw badValue(path, 'TYPE_STRING', v);
      return v;
    }),
    breakdownDimensions: listOf(fs, 'breakdownDimensions', (path, v) => oneOf(path, v, FILTER_BREAKDOWN_DIMENSIONS)).filter((d) => d !== 'BREAKDOWN_DIMENSION_UNSPECIFIED'),
  };
  for (const [field, items] of Object.entries(unsupported)) {
    if (items.length > 0) throw bad(`Filtering or breaking down by ${field} is not supported: bid events carry no such dimension.`);
  }
  return query;
}

/** The items of the optional list `field`, each read by `item`; [] when absent. */
function listOf<T>(fs: Record<string, unknown>, field: string, item: (path: string, v: unknown) => T): T[] {
  const v = fs[field];
  if (v === undefined || v === null) return [];
  const path = `filter_set.${protoName(field)}`;
  return arrayOf(path, v).map((x, i) => item(`${path}[${i}]`, x));
}

function timeRange(fs: Record<string, unknown>): TimeRange {
  const given = RANGES.filter((r) => fs[r] !== undefined && fs[r] !== null);
  if (given.length === 0) throw bad('A time range is required: set exactly one of relativeDateRange, absoluteDateRange or realtimeTimeRange.');
  if (given.length > 1) throw bad(`Only one time range may be set, got ${given.join(' and ')}.`);
  const which = given[0];
  const value = object(`filter_set.${protoName(which)}`, fs[which]);
  if (which === 'relativeDateRange') {
    only(value, ['durationDays', 'offsetDays'], 'filter_set.relative_date_range');
    const durationDays = int('filter_set.relative_date_range.duration_days', value.durationDays ?? 0);
    const offsetDays = int('filter_set.relative_date_range.offset_days', value.offsetDays ?? 0);
    if (durationDays < 1) throw bad('relativeDateRange.durationDays must be a positive number of days.');
    if (offsetDays < 0) throw bad('relativeDateRange.offsetDays must not be negative.');
    return { kind: 'relative', durationDays, offsetDays };
  }
  if (which === 'absoluteDateRange') {
    only(value, ['startDate', 'endDate'], 'filter_set.absolute_date_range');
    const start = date('filter_set.absolute_date_range.start_date', 'startDate', value.startDate);
    const end = date('filter_set.absolute_date_range.end_date', 'endDate', value.endDate);
    const key = (d: CalendarDate) => d.year * 10_000 + d.month * 100 + d.day;
    if (key(start) > key(end)) throw bad('absoluteDateRange.startDate must be on or before endDate.');
    return { kind: 'absolute', start, end };
  }
  // The spec spells the field startTimeStamp, the real API startTimestamp: both are accepted.
  only(value, ['startTimestamp', 'startTimeStamp'], 'filter_set.realtime_time_range');
  const raw = value.startTimestamp ?? value.startTimeStamp;
  if (raw === undefined || raw === null) throw bad('realtimeTimeRange.startTimestamp is required.');
  const instant = typeof raw === 'string' ? parseRfc3339(raw) : undefined;
  if (!instant) throw badValue('filter_set.realtime_time_range.start_timestamp', 'type.googleapis.com/google.protobuf.Timestamp', raw);
  return { kind: 'realtime', startMs: instantToMs(instant) };
}

function date(path: string, field: string, v: unknown): CalendarDate {
  if (v === undefined || v === null) throw bad(`absoluteDateRange.${field} is required.`);
  const d = object(path, v);
  only(d, ['year', 'month', 'day'], path);
  const year = int(`${path}.year`, d.year ?? 0);
  const month = int(`${path}.month`, d.month ?? 0);
  const day = int(`${path}.day`, d.day ?? 0);
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw bad(`absoluteDateRange.${field} is not a valid date: ${year}-${month}-${day}.`);
  }
  return { year, month, day };
}

function enumValue(path: string, v: unknown): number[] | undefined {
  const name = oneOf(path, v, Object.keys(FILTER_FORMATS));
  return FILTER_FORMATS[name];
}

function oneOf<T extends string>(path: string, v: unknown, values: readonly T[]): T {
  if (typeof v !== 'string' || !values.includes(v as T)) throw badValue(path, 'TYPE_ENUM', v);
  return v as T;
}

function arrayOf(path: string, v: unknown): unknown[] {
  if (!Array.isArray(v)) throw badValue(path, 'TYPE_LIST', v);
  return v;
}

function object(path: string, v: unknown): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw badValue(path, 'TYPE_MESSAGE', v);
  return v as Record<string, unknown>;
}

function only(v: Record<string, unknown>, fields: string[], at: string): void {
  for (const key of Object.keys(v)) if (!fields.includes(key)) throw unknownName(key, at);
}

/** int32 fields: a JSON number or a numeric string, as proto3 JSON allows. */
function int(path: string, v: unknown): number {
  const n = typeof v === 'string' && /^-?\d{1,10}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || Math.abs(n) > 2_147_483_647) throw badValue(path, 'TYPE_INT32', v);
  return n;
}

/** int64 fields: digits in a string (proto3 JSON) or a safe non-negative JSON number. */
const isInt64 = (v: unknown): boolean => (typeof v === 'string' && /^\d{1,19}$/.test(v)) || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);

