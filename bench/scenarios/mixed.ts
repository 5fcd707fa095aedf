// One service never stalls another: KV v2 reads measured while bidMetrics over a large data set runs at the same time
// on the bidding listener of the same process (MIXED_BENCH_EVENTS sizes the bidding data, default 2,000,000), and while
// error reports are written as fast as they come (group commits, their fsyncs and the log's checkpoints), and while
// month lists of a calendar of 50,000 events run (series expanded and merged on the event loop), and while groupStats
// over 3,000 events runs.
import type { BenchScenario } from '../scenario.ts';
import { biddingOf } from '../../src/services/bidding/bidding.ts';
import { simulate } from '../../src/services/bidding/domain/generator.ts';
import { ingestAll } from '../../src/services/bidding/ingest.ts';
import { scenarios as calendar } from './calendar.ts';
import { scenarios as errorReporting } from './errorreporting.ts';
import { kvReads } from './secrets.ts';

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
  {
    name: 'mixed.kv2-read-during-report-writes',
    service: 'secrets',
    needs: ['errorreporting'],
    connections: 20,
    setup: kvReads,
    async background(env) {
      const reports = errorReporting.find((s) => s.name === 'errorreporting.report')!;
      return { service: 'errorreporting', connections: 20, ...(await reports.setup(env)) };
    },
  },
  {
    name: 'mixed.kv2-read-during-calendar-month',
    service: 'secrets',
    needs: ['calendar'],
    connections: 20,
    setup: kvReads,
    async background(env) {
      const month = calendar.find((s) => s.name.startsWith('calendar.month.singleEvents'))!;
      return { service: 'calendar', connections: 20, ...(await month.setup(env)) };
    },
  },
  {
    name: 'mixed.kv2-read-during-groupStats',
    service: 'secrets',
    needs: ['errorreporting'],
    connections: 20,
    setup: kvReads,
    async background(env) {
      const stats = errorReporting.find((s) => s.name === 'errorreporting.groupStats')!;
      return { service: 'errorreporting', connections: 20, ...(await stats.setup(env)) };
    },
  },
];
