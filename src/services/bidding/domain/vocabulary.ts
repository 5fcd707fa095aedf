// The enumerations of filter sets and bid events, and the small integer codes the aggregate tables store.

/** Creative formats an event records (the real API's FilterSet.Format values other than UNSPECIFIED). */
export const EVENT_FORMATS = ['NATIVE_DISPLAY', 'NATIVE_VIDEO', 'NON_NATIVE_DISPLAY', 'NON_NATIVE_VIDEO'] as const;
export const ENVIRONMENTS = ['WEB', 'APP'] as const;
export const PLATFORMS = ['DESKTOP', 'TABLET', 'MOBILE'] as const;
export const GRANULARITIES = ['HOURLY', 'DAILY'] as const;

export type Granularity = (typeof GRANULARITIES)[number];

/** Stored code of a value: its 1-based position in the list (0 is never stored). */
export const codeOf = (list: readonly string[], value: string): number => list.indexOf(value) + 1;

/** The spec's short format names, accepted in events as the non-native formats. */
export const EVENT_FORMAT_ALIASES: Record<string, (typeof EVENT_FORMATS)[number]> = {
  DISPLAY: 'NON_NATIVE_DISPLAY',
  VIDEO: 'NON_NATIVE_VIDEO',
};

/**
 * Which stored format codes a filter-set format value selects: DISPLAY and VIDEO (the spec's values) select the native
 * and non-native kinds alike; the real API's specific values select themselves; UNSPECIFIED selects everything.
 */
export const FILTER_FORMATS: Record<string, number[] | undefined> = {
  FORMAT_UNSPECIFIED: undefined,
  DISPLAY: [codeOf(EVENT_FORMATS, 'NATIVE_DISPLAY'), codeOf(EVENT_FORMATS, 'NON_NATIVE_DISPLAY')],
  VIDEO: [codeOf(EVENT_FORMATS, 'NATIVE_VIDEO'), codeOf(EVENT_FORMATS, 'NON_NATIVE_VIDEO')],
  ...Object.fromEntries(EVENT_FORMATS.map((f) => [f, [codeOf(EVENT_FORMATS, f)]])),
};

export const FILTER_ENVIRONMENTS = ['ENVIRONMENT_UNSPECIFIED', ...ENVIRONMENTS] as const;
export const FILTER_PLATFORMS = ['PLATFORM_UNSPECIFIED', ...PLATFORMS] as const;
export const FILTER_GRANULARITIES = ['TIME_SERIES_GRANULARITY_UNSPECIFIED', ...GRANULARITIES] as const;
export const FILTER_BREAKDOWN_DIMENSIONS = ['BREAKDOWN_DIMENSION_UNSPECIFIED', 'PUBLISHER_IDENTIFIER'] as const;

/** The six counters of a bid metrics row, in storage order. */
export const METRICS = ['bids', 'bidsInAuction', 'impressionsWon', 'billedImpressions', 'measurableImpressions', 'viewableImpressions'] as const;
export type MetricName = (typeof METRICS)[number];

/** Account and bidder ids in names and events. */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** The last segment of a filter-set name, chosen by the client. */
export const FILTER_SET_ID_PATTERN = /^[A-Za-z0-9._~-]{1,255}$/;
