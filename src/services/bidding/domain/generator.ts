// A seeded, deterministic generator of realistic bid traffic: a daily cycle of volume, a mix of formats, environments
// and platforms, a few creatives per account, some deal traffic, and outcome rates that narrow from bids to views.
import { FUNNEL, type BidEvent } from './events.ts';
import { HOUR_MS, hourOf } from './rollup.ts';
import { DETAIL_TYPE_OF_STATUS } from './stages.ts';

export interface SimulationOptions {
  bidder: string;
  /** Accounts the traffic is spread over (the bidder itself and its children); default the bidder alone. */
  accounts?: string[];
  /** Epoch ms of the end of the simulated window (exclusive; rounded down to the hour). */
  end: number;
  days: number;
  /** Mean events per hour. */
  rate: number;
  seed: number;
}

/** mulberry32: small, fast and good enough for traffic shapes; the same seed always gives the same stream. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks an index by cumulative weights. */
function pick(r: number, cumulative: number[]): number {
  for (let i = 0; i < cumulative.length; i++) if (r < cumulative[i]) return i;
  return cumulative.length - 1;
}
const cumulate = (weights: number[]) => {
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
};

// Event format codes 1..4 = NATIVE_DISPLAY, NATIVE_VIDEO, NON_NATIVE_DISPLAY, NON_NATIVE_VIDEO.
const FORMAT_WEIGHTS = cumulate([15, 10, 50, 25]);
const ENVIRONMENT_WEIGHTS = cumulate([55, 45]); // WEB, APP
const PLATFORM_WEIGHTS = cumulate([35, 10, 55]); // DESKTOP, TABLET, MOBILE
const CREATIVES_PER_ACCOUNT = 8;
const DEALS = ['90001', '90002', '90003'];

/** Reasons with weights: status ids (or 1-based reason codes) drawn for the events of one stage. */
interface ReasonMix {
  ids: number[];
  cumulative: number[];
}
const mix = (weighted: Array<[number, number]>): ReasonMix => ({ ids: weighted.map(([id]) => id), cumulative: cumulate(weighted.map(([, w]) => w)) });
// Callout statuses of requests filtered before the callout, and of failed responses (timeouts dominate).
const REQUEST_FILTER_MIX = mix([[1, 50], [7, 25], [12, 15], [28, 10]]);
const RESPONSE_ERROR_MIX = mix([[2, 60], [3, 20], [5, 12], [22, 8]]);
// RESPONSES_WITHOUT_BIDS, ..._FOR_ACCOUNT, ..._FOR_DEAL.
const NO_BID_MIX = mix([[1, 80], [2, 15], [3, 5]]);
// Creative statuses of bids filtered before the auction; several have details.
const FILTERED_MIX = mix([[3, 20], [10, 18], [14, 12], [15, 10], [17, 8], [18, 12], [19, 6], [86, 8], [87, 6]]);
// Creative statuses of bids that lost the auction: mostly outbid, some under the floor.
const LOSS_MIX = mix([[79, 70], [80, 20], [81, 10]]);
// AD_NOT_RENDERED, INVALID_IMPRESSION, FATAL_VAST_ERROR, LOST_IN_MEDIATION, OVERDELIVERED_IMPRESSION.
const NON_BILLABLE_DISPLAY_MIX = mix([[1, 55], [2, 25], [4, 15], [5, 5]]);
const NON_BILLABLE_VIDEO_MIX = mix([[1, 30], [2, 15], [3, 40], [4, 10], [5, 5]]);
/** A few detail values per detail type; VENDOR_DOMAIN details are domains, the others numeric ids. */
const DETAILS_PER_STATUS = 4;
const detailFor = (status: number, r: number): string => {
  const n = Math.floor(r * DETAILS_PER_STATUS);
  return DETAIL_TYPE_OF_STATUS.get(status) === 'VENDOR_DOMAIN' ? `vendor${n + 1}.example` : String(status * 100 + n + 1);
};

/** Number of events in each simulated hour (a daily cycle with noise), computed before generation for progress. */
export function hourlyCounts(options: SimulationOptions): { firstHour: number; counts: number[] } {
  const hours = Math.max(0, Math.round(options.days * 24));
  const firstHour = hourOf(options.end) - hours * HOUR_MS;
  const random = prng(options.seed ^ 0x5bd1e995);
  const counts: number[] = [];
  for (let h = 0; h < hours; h++) {
    const hourOfDay = new Date(firstHour + h * HOUR_MS).getUTCHours();
    // Busiest in the (UTC) evening, quietest before dawn: between 0.4 and 1.6 times the mean.
    const cycle = 1 + 0.6 * Math.sin(((hourOfDay - 14) / 24) * 2 * Math.PI);
    counts.push(Math.max(0, Math.round(options.rate * cycle * (0.9 + 0.2 * random()))));
  }
  return { firstHour, counts };
}

/** Yields the simulated events hour by hour, in time order within each hour. */
export function* simulate(options: SimulationOptions): Generator<BidEvent> {
  const accounts = options.accounts?.length ? options.accounts : [options.bidder];
  const accountWeights = cumulate(accounts.map((_, i) => (i === 0 ? Math.max(1, accounts.length - 1) : 1)));
  const { firstHour, counts } = hourlyCounts(options);
  const random = prng(options.seed);
  for (let h = 0; h < counts.length; h++) {
    const hourStart = firstHour + h * HOUR_MS;
    const n = counts[h];
    // Offsets within the hour, sorted so events arrive in time order.
    const offsets = new Float64Array(n);
    for (let i = 0; i < n; i++) offsets[i] = Math.floor(random() * HOUR_MS);
    offsets.sort();
    for (let i = 0; i < n; i++) {
      const account = accounts[pick(random(), accountWeights)];
      const format = pick(random(), FORMAT_WEIGHTS) + 1;
      const environment = pick(random(), ENVIRONMENT_WEIGHTS) + 1;
      const platform = pick(random(), PLATFORM_WEIGHTS) + 1;
      const creative = `${account}-cr${Math.floor(random() * CREATIVES_PER_ACCOUNT) + 1}`;
      const deal = random() < 0.3 ? DEALS[Math.floor(random() * DEALS.length)] : '';
      const video = format === 2 || format === 4;
      const drawn = outcomesOf(random, video, deal !== '', platform);
      yield { at: hourStart + offsets[i], bidder: options.bidder, account, format, environment, platform, creative, deal, ...drawn };
    }
  }
}

const draw = (random: () => number, m: ReasonMix) => m.ids[pick(random(), m.cumulative)];

/**
 * What became of one opportunity: the funnel (most match pretargeting, a few requests are filtered, a few responses
 * fail), then outcome rates that narrow from bids to views, and a reason wherever the event stopped.
 */
function outcomesOf(random: () => number, video: boolean, onDeal: boolean, platform: number): Pick<BidEvent, 'outcomes' | 'funnel' | 'reason' | 'detail'> {
  const none = { outcomes: 0, reason: 0, detail: '' };
  if (random() < 0.06) return { ...none, funnel: FUNNEL.notMatched };
  if (random() < 0.04) return { ...none, funnel: FUNNEL.requestFiltered, reason: draw(random, REQUEST_FILTER_MIX) };
  if (random() < (video ? 0.05 : 0.025)) return { ...none, funnel: FUNNEL.responseError, reason: draw(random, RESPONSE_ERROR_MIX) };
  if (random() >= 0.9) return { ...none, funnel: 0, reason: draw(random, NO_BID_MIX) };
  let outcomes = 1; // bid
  if (random() >= 0.85) {
    const reason = draw(random, FILTERED_MIX);
    return { outcomes, funnel: 0, reason, detail: DETAIL_TYPE_OF_STATUS.has(reason) ? detailFor(reason, random()) : '' };
  }
  outcomes |= 2; // in auction
  if (random() >= (video ? 0.15 : 0.22) + (onDeal ? 0.1 : 0)) return { outcomes, funnel: 0, reason: draw(random, LOSS_MIX), detail: '' };
  outcomes |= 4; // won
  let reason = 0;
  if (random() < 0.95) outcomes |= 8; // billed
  else reason = draw(random, video ? NON_BILLABLE_VIDEO_MIX : NON_BILLABLE_DISPLAY_MIX);
  if (random() < 0.8) {
    outcomes |= 16; // measurable
    if (random() < (platform === 1 ? 0.75 : 0.6)) outcomes |= 32; // viewable
  }
  return { outcomes, funnel: 0, reason, detail: '' };
}
