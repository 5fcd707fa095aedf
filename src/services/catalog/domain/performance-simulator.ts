// Deterministic daily performance for a merchant's products: every (seed, product, day, program) draws from its
// own seeded stream, so a product's history does not change when others are added. Each product has a lasting
// popularity, click-through and conversion rate; days vary with the weekday and with noise. Only products that
// serve on a destination get rows for its program.
import type { Product, ProductStatus } from './product-rules-types.ts';
import type { PerformanceRecord } from './report-query-evaluate.ts';
import { dayNumber, dayString } from './report-query-dates.ts';
import { Random } from './performance-simulator-random.ts';

export type { PerformanceRecord } from './report-query-evaluate.ts';

/** Shopping traffic by weekday, Monday first: strongest early in the week, lowest on Saturday. */
export const WEEKDAY_FACTOR = [1.08, 1.1, 1.05, 1.0, 0.92, 0.8, 0.95];

interface Program {
  name: string;
  /** The destination whose approval the program needs. */
  destination: string;
  /** Share of the product's visibility this program gets. */
  reach: number;
  /** Conversions are measured for free listings only, as the metric's documentation says. */
  measuresConversions: boolean;
}

const ONLINE_PROGRAMS: Program[] = [
  { name: 'SHOPPING_ADS', destination: 'Shopping', reach: 1, measuresConversions: false },
  { name: 'FREE_PRODUCT_LISTING', destination: 'SurfacesAcrossGoogle', reach: 0.45, measuresConversions: true },
];
const LOCAL_PROGRAMS: Program[] = [
  { name: 'FREE_LOCAL_PRODUCT_LISTING', destination: 'LocalSurfacesAcrossGoogle', reach: 0.3, measuresConversions: true },
];

export interface SimulationOptions {
  products: Product[];
  /** First and last day, YYYY-MM-DD, inclusive. */
  start: string;
  end: string;
  seed: string;
  /** When given, a program only runs where its destination approves the product in some country. */
  statuses?: ProductStatus[];
}

/** The lasting traits of one product under one seed. */
interface Profile {
  dailyImpressions: number;
  ctr: number;
  conversionRate: number;
  priceMicros: number;
}

function profile(seed: string, product: Product): Profile {
  const random = new Random(`${seed}|profile|${product.offerId}`);
  const price = Number(product.price?.value);
  return {
    // Log-normal popularity: most products see tens of impressions a day, a few see thousands.
    dailyImpressions: Math.exp(3.5 + 1.1 * random.gaussian()),
    ctr: 0.004 + 0.03 * random.next() ** 2,
    conversionRate: 0.01 + 0.05 * random.next(),
    priceMicros: Number.isFinite(price) && price > 0 ? Math.round(price * 1_000_000) : 0,
  };
}

function servingPrograms(product: Product, statuses: Map<string | null | undefined, ProductStatus> | undefined): Program[] {
  const programs = product.channel === 'local' ? LOCAL_PROGRAMS : ONLINE_PROGRAMS;
  if (!statuses) return programs;
  const status = statuses.get(product.id);
  const approved = new Set((status?.destinationStatuses ?? []).filter((d) => (d.approvedCountries ?? []).length > 0).map((d) => d.destination));
  return programs.filter((p) => approved.has(p.destination));
}

export interface SimulatedDay {
  date: string;
  records: PerformanceRecord[];
}

/** Day by day, so a caller can store each day and report progress. */
export function* simulateDays(options: SimulationOptions): Generator<SimulatedDay> {
  const first = dayNumber(options.start);
  const last = dayNumber(options.end);
  if (first === undefined || last === undefined) throw new RangeError('start and end must be YYYY-MM-DD dates');
  const statuses = options.statuses ? new Map(options.statuses.map((s) => [s.productId, s])) : undefined;
  const plans = options.products
    .filter((p) => p.offerId)
    .map((product) => ({ product, traits: profile(options.seed, product), programs: servingPrograms(product, statuses) }));

  for (let day = first; day <= last; day++) {
    const date = dayString(day);
    const weekday = (new Date(day * 86_400_000).getUTCDay() + 6) % 7;
    const records: PerformanceRecord[] = [];
    for (const { product, traits, programs } of plans) {
      for (const program of programs) {
        const random = new Random(`${options.seed}|${product.offerId}|${date}|${program.name}`);
        const mood = Math.exp(0.25 * random.gaussian());
        const impressions = random.poisson(traits.dailyImpressions * program.reach * WEEKDAY_FACTOR[weekday] * mood);
        if (impressions === 0) continue;
        const clicks = random.binomial(impressions, traits.ctr);
        const conversions = program.measuresConversions ? random.binomial(clicks, traits.conversionRate) : 0;
        records.push({
          date,
          offerId: product.offerId!,
          program: program.name,
          clicks,
          impressions,
          conversions,
          conversionValueMicros: conversions * traits.priceMicros,
        });
      }
    }
    yield { date, records };
  }
}

/** Every simulated record of the range, in date order. */
export function simulatePerformance(options: SimulationOptions): PerformanceRecord[] {
  const all: PerformanceRecord[] = [];
  for (const { records } of simulateDays(options)) all.push(...records);
  return all;
}
