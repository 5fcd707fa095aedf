// One service never stalls another: KV v2 reads measured while bidMetrics over a large data set runs at the same time
// on the bidding listener of the same process (MIXED_BENCH_EVENTS sizes the bidding data, default 2,000,000), and while
// error reports are written as fast as they come (group commits, their fsyncs and the log's checkpoints), and while
// month lists of a calendar of 50,000 events run (series expanded and merged on the event loop), while groupStats
// over 3,000 events runs, and while 200-path HCL policies are written.
import type { BenchScenario } from '../scenario.ts';
import { biddingOf } from '../../src/services/bidding/bidding.ts';
import { simulate } from '../../src/services/bidding/domain/generator.ts';
import { ingestAll } from '../../src/services/bidding/ingest.ts';
import { scenarios as books } from './books.ts';
import { scenarios as calendar } from './calendar.ts';
import { scenarios as catalog } from './catalog.ts';
import { scenarios as entities } from './entities.ts';
import { scenarios as errorReporting } from './errorreporting.ts';
import { scenarios as files } from './files.ts';
import { kvReads, scenarios as secrets } from './secrets.ts';

const EVENTS = Number(process.env.MIXED_BENCH_EVENTS ?? 2_000_000);
const DAYS = 30;
const BIDDER = { authorization: 'Bearer bidding-demo-bidder-token' };
const FILTER_SET = 'bidders/1000/filterSets/mixed-30d';

export const scenarios: BenchScenario[] = [
  {
    name: 'mixed.kv2-read-during-bidMetrics',
    service: 'secrets',
    needs: ['bidding'],
    connections: 20,
    setup: kvReads,
    async background(env) {
      const ctx = env.rt.services.get('bidding')!.ctx;
      const b = biddingOf(ctx);
      await ingestAll(b.store, simulate({ bidder: '1000', accounts: ['1000', '1001'], end: ctx.clock.now(), days: DAYS, rate: EVENTS / (DAYS * 24), seed: 7 }), b.keepEvents);
      const res = await fetch(`${env.url('bidding')}/v2beta1/bidders/1000/filterSets`, {
        method: 'POST',
        headers: { ...BIDDER, 'content-type': 'application/json' },
        body: JSON.stringify({ name: FILTER_SET, relativeDateRange: { durationDays: DAYS } }),
      });
      if (!res.ok) throw new Error(`creating ${FILTER_SET} failed: ${res.status} ${await res.text()}`);
      return { service: 'bidding', connections: 20, headers: BIDDER, requests: [{ path: `/v2beta1/${FILTER_SET}/bidMetrics` }] };
    },
  },
  kvReadsDuring('mixed.kv2-read-during-report-writes', errorReporting, 'errorreporting.report'),
  kvReadsDuring('mixed.kv2-read-during-calendar-month', calendar, 'calendar.month.singleEvents (50k events)'),
  kvReadsDuring('mixed.kv2-read-during-groupStats', errorReporting, 'errorreporting.groupStats'),
  kvReadsDuring('mixed.kv2-read-during-policy-writes', secrets, 'secrets.policy-write-200-paths'),
  // BENCH_MIXED_WITH=<scenario>[,<scenario>]: KV reads beside any other read scenario, on demand.
  ...(process.env.BENCH_MIXED_WITH ?? '')
    .split(',')
    .filter(Boolean)
    .map((other) => kvReadsDuring(`mixed.kv2-read-during-${other}`, [...books, ...catalog, ...entities, ...files], other)),
];

/** KV reads at 20 connections while another scenario of the benchmark runs at 20 connections in the background. */
function kvReadsDuring(name: string, from: BenchScenario[], backgroundName: string): BenchScenario {
  const behind = from.find((s) => s.name === backgroundName);
  if (!behind) throw new Error(`no scenario named ${backgroundName}`);
  return {
    name,
    service: 'secrets',
    needs: [behind.service],
    connections: 20,
    setup: kvReads,
    async background(env) {
      return { service: behind.service, connections: 20, ...(await behind.setup(env)) };
    },
  };
}
