// Bidding troubleshooting: bidMetrics and outcome collections (impressionMetrics, filteredBids by creative, losingBids) over a
// large generated data set (30 days of one bidder and two accounts), and the bulk ingestion rate. BIDDING_BENCH_EVENTS scales the data set (default 2,000,000; the target is 10,000,000).
import type { BenchEnv, BenchScenario } from '../scenario.ts';
import { biddingOf } from '../../src/services/bidding/bidding.ts';
import { simulate } from '../../src/services/bidding/domain/generator.ts';
import { ingestAll } from '../../src/services/bidding/ingest.ts';

const TOKEN = 'bidding-demo-bidder-token';
const EVENTS = Number(process.env.BIDDING_BENCH_EVENTS ?? 2_000_000);
const DAYS = 30;
const headers = { authorization: `Bearer ${TOKEN}` };

const FILTER_SETS = [
  { name: 'bidders/1000/filterSets/bench-30d', relativeDateRange: { durationDays: DAYS } },
  {
    name: 'bidders/1000/filterSets/bench-30d-daily',
    relativeDateRange: { durationDays: DAYS },
    timeSeriesGranularity: 'DAILY',
    format: 'DISPLAY',
    platforms: ['MOBILE', 'TABLET'],
  },
  { name: 'bidders/1000/accounts/1001/filterSets/bench-creative', relativeDateRange: { durationDays: DAYS }, creativeId: '1001-cr3', timeSeriesGranularity: 'HOURLY' },
];

let prepared: Promise<{ events: number; seconds: number }> | undefined;

/** Loads the data set once (generation streamed into ingestion, timed together) and creates the filter sets. */
function prepare(env: BenchEnv): Promise<{ events: number; seconds: number }> {
  prepared ??= (async () => {
    const ctx = env.rt.services.get('bidding')!.ctx;
    const b = biddingOf(ctx);
    const started = performance.now();
    const events = await ingestAll(
      b.store,
      simulate({ bidder: '1000', accounts: ['1000', '1001', '2001'], end: ctx.clock.now(), days: DAYS, rate: EVENTS / (DAYS * 24), seed: 42 }),
      b.keepEvents,
    );
    const seconds = (performance.now() - started) / 1000;
    for (const fs of FILTER_SETS) {
      const owner = fs.name.split('/filterSets/')[0];
      const res = await fetch(`${env.url('bidding')}/v2beta1/${owner}/filterSets`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(fs) });
      if (!res.ok) throw new Error(`creating ${fs.name} failed: ${res.status} ${await res.text()}`);
    }
    return { events, seconds };
  })();
  return prepared;
}

/** One request at a time: the latency of a single metrics query, without queueing behind others. */
async function serialLatency(env: BenchEnv, path: string, runs = 25): Promise<{ median: number; max: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const res = await fetch(`${env.url('bidding')}${path}`, { headers });
    await res.text();
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { median: round(times[Math.floor(times.length / 2)]), max: round(times[times.length - 1]) };
}

function scenario(name: string, filterSet: string, withIngestion: boolean, collection = 'bidMetrics'): BenchScenario {
  const path = `/v2beta1/${filterSet}/${collection}`;
  return {
    name,
    service: 'bidding',
    async setup(env) {
      await prepare(env);
      return { requests: [{ path }], headers };
    },
    async extra(env) {
      const { events, seconds } = await prepare(env);
      const latency = await serialLatency(env, path);
      const figures: Record<string, number | string> = { events, queryMsMedian: latency.median, queryMsMax: latency.max };
      if (withIngestion) {
        figures.ingestSeconds = Math.round(seconds * 10) / 10;
        figures.ingestEventsPerSec = Math.round(events / seconds);
      }
      return figures;
    },
  };
}

export const scenarios: BenchScenario[] = [
  scenario('bidding.bidMetrics', FILTER_SETS[0].name, true),
  scenario('bidding.bidMetrics.daily-filtered', FILTER_SETS[1].name, false),
  scenario('bidding.bidMetrics.account-creative-hourly', FILTER_SETS[2].name, false),
  scenario('bidding.impressionMetrics.daily-filtered', FILTER_SETS[1].name, false, 'impressionMetrics'),
  scenario('bidding.filteredBids.creatives', FILTER_SETS[0].name, false, 'filteredBids/10/creatives'),
  scenario('bidding.losingBids.daily-filtered', FILTER_SETS[1].name, false, 'losingBids'),
];
