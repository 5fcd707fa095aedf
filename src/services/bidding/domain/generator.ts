// A seeded, deterministic generator of realistic bid traffic: a daily cycle of volume, a mix of formats, environments
// and platforms, a few creatives per account, some deal traffic, and outcome rates that narrow from bids to views.
import type { BidEvent } from './events.ts';
import { HOUR_MS, hourOf } from './rollup.ts';

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
      let outcomes = 0;
      if (random() < 0.9) {
        outcomes |= 1; // bid
        if (random() < 0.85) {
          outcomes |= 2; // in auction
          if (random() < (video ? 0.15 : 0.22) + (deal ? 0.1 : 0)) {
            outcomes |= 4; // won
            if (random() < 0.95) outcomes |= 8; // billed
            if (random() < 0.8) {
              outcomes |= 16; // measurable
              if (random() < (platform === 1 ? 0.75 : 0.6)) outcomes |= 32; // viewable
            }
          }
        }
      }
      yield { at: hourStart + offsets[i], bidder: options.bidder, account, format, environment, platform, creative, deal, outcomes };
    }
  }
}
