// A filter set as the API answers it. Proto3 JSON lets a request write a field as null (unset), an int32 as a
// numeric string and an int64 as a JSON number; the answer carries each field in its one output form, the JSON type
// the API's FilterSet gives it, whatever form the request used.

/** The int32 fields (by path; a list's path names its items) and the int64 ones, answered as numbers and strings. */
const INT32 = new Set([
  'relativeDateRange.durationDays',
  'relativeDateRange.offsetDays',
  ...['startDate', 'endDate'].flatMap((d) => ['year', 'month', 'day'].map((part) => `absoluteDateRange.${d}.${part}`)),
  'sellerNetworkIds',
]);
const INT64 = new Set(['dealId']);

/**
 * A filter set `parseFilterSet` accepted, in its output form: fields holding null left out (at any depth), int32
 * values as JSON numbers, int64 values as decimal strings. Everything else is kept as submitted.
 */
export function filterSetJson(body: Record<string, unknown>): Record<string, unknown> {
  return outputForm(body, '') as Record<string, unknown>;
}

function outputForm(value: unknown, path: string): unknown {
  if (Array.isArray(value)) return value.map((item) => outputForm(item, path));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) if (v !== null) out[key] = outputForm(v, path ? `${path}.${key}` : key);
    return out;
  }
  if (INT32.has(path)) return Number(value);
  if (INT64.has(path)) return String(value);
  return value;
}
