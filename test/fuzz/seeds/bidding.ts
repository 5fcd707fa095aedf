// What the bidding API's catch-all route serves, one seed per operation, with the body and query each one reads.
// The filter-set body is built from the service's own vocabulary (domain/vocabulary.ts), the lists its parser
// (domain/filter-set.ts) accepts, so that generated filter sets get past validation as often as not.
import {
  FILTER_ENVIRONMENTS,
  FILTER_FORMATS,
  FILTER_GRANULARITIES,
  FILTER_PLATFORMS,
} from '../../../src/services/bidding/domain/vocabulary.ts';
import type { JsonSchema, WildcardSeed } from './seed.ts';

const BIDDER = 'bidders/1000';
const ACCOUNT = `${BIDDER}/accounts/1000`;
/** The filter set every metrics seed reads: created by the create seeds under the same name now and then. */
const FILTER_SET_ID = 'fz';

const enumOf = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });
const int = (minimum: number, maximum: number): JsonSchema => ({ type: 'integer', minimum, maximum });
const object = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({ type: 'object', properties, required, additionalProperties: false });
const calendarDate = object({ year: int(2020, 2030), month: int(1, 12), day: int(1, 28) }, ['year', 'month', 'day']);

/** Exactly one of the three time ranges, as the parser demands. */
const TIME_RANGES: Record<string, JsonSchema> = {
  relativeDateRange: object({ durationDays: int(1, 60), offsetDays: int(0, 30) }, ['durationDays']),
  absoluteDateRange: object({ startDate: calendarDate, endDate: calendarDate }, ['startDate', 'endDate']),
  realtimeTimeRange: object({ startTimestamp: { type: 'string', format: 'date-time' } }, ['startTimestamp']),
};

/** A filter set created under `owner`: its name must lie under the owner; creative and deal filters are account-level only. */
function filterSet(owner: string, accountLevel: boolean): JsonSchema {
  const common: Record<string, JsonSchema> = {
    name: { anyOf: [{ const: `${owner}/filterSets/${FILTER_SET_ID}` }, { type: 'string', pattern: `^${owner}/filterSets/[A-Za-z0-9._~-]{1,24}$` }] },
    format: enumOf(Object.keys(FILTER_FORMATS)),
    formats: { type: 'array', items: enumOf(Object.keys(FILTER_FORMATS)), maxItems: 1 },
    environment: enumOf(FILTER_ENVIRONMENTS),
    platforms: { type: 'array', items: enumOf(FILTER_PLATFORMS), maxItems: 3 },
    timeSeriesGranularity: enumOf(FILTER_GRANULARITIES),
    ...(accountLevel ? { creativeId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,20}$' }, dealId: { type: 'string', pattern: '^\\d{1,19}$' } } : {}),
  };
  return { anyOf: Object.entries(TIME_RANGES).map(([range, schema]) => object({ ...common, [range]: schema }, ['name', range])) };
}

const PAGING = object({ pageSize: int(1, 1000), pageToken: { type: 'string', maxLength: 40 } });

const METRICS = ['bidMetrics', 'impressionMetrics', 'filteredBids', 'filteredBids/1/creatives', 'losingBids', 'nonBillableWinningBids', 'bidResponseErrors', 'bidResponsesWithoutBids', 'filteredBidRequests'];

function ownerSeeds(owner: string, accountLevel: boolean): WildcardSeed[] {
  return [
    { path: `${owner}/filterSets`, methods: ['POST'], schema: { body: filterSet(owner, accountLevel), querystring: object({ isTransient: { type: 'boolean' } }) } },
    { path: `${owner}/filterSets`, methods: ['GET'], schema: { querystring: PAGING } },
    { path: `${owner}/filterSets/${FILTER_SET_ID}`, methods: ['GET', 'DELETE'], schema: { querystring: object({}) } },
  ];
}

export const BIDDING_SEEDS: WildcardSeed[] = [
  ...ownerSeeds(BIDDER, false),
  ...ownerSeeds(ACCOUNT, true),
  ...METRICS.map((collection): WildcardSeed => ({ path: `${BIDDER}/filterSets/${FILTER_SET_ID}/${collection}`, methods: ['GET'], schema: { querystring: PAGING } })),
];
