// `twinstack bidding load <file.ndjson>` and `twinstack bidding simulate ...`: bulk data on the configured database.
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { InvalidArgumentError, type Command } from 'commander';
import cliProgress from 'cli-progress';
import type { ServiceContext } from '../../core/service.ts';
import { instantToMs, parseRfc3339 } from '../../core/time.ts';
import { biddingOf } from './bidding.ts';
import { EventError, eventToJson, parseEvent, type BidEvent } from './domain/events.ts';
import { hourlyCounts, simulate, type SimulationOptions } from './domain/generator.ts';
import { ID_PATTERN } from './domain/vocabulary.ts';
import { ingestAll } from './ingest.ts';

type Open = () => Promise<{ ctx: ServiceContext; close(): Promise<void> }>;

const positive = (v: string) => {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a positive number');
  return n;
};
const integer = (v: string) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('must be an integer');
  return n;
};
const id = (v: string) => {
  if (!ID_PATTERN.test(v)) throw new InvalidArgumentError('must be an account id (letters, digits, _ or -)');
  return v;
};

function progressBar(label: string, total: number): cliProgress.SingleBar {
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% | {value}/{total} events | {rate} events/s | ETA {eta_formatted}`, hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000 },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { rate: 0 });
  return bar;
}

/** Reads NDJSON events; stops at the first invalid line with its number. */
async function* readEvents(file: string): AsyncGenerator<BidEvent> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let n = 0;
  for await (const text of lines) {
    n++;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new EventError(`line ${n}: not JSON`);
    }
    try {
      yield parseEvent(value);
    } catch (err) {
      if (err instanceof EventError) throw new EventError(`line ${n}: ${err.message}`);
      throw err;
    }
  }
}

export function biddingCommands(group: Command, open: Open): void {
  group
    .command('load <file>')
    .description('validate a file of bid events (NDJSON, one event per line), then add them to the stored events and aggregates')
    .action(async (file: string) => {
      // First pass: validate everything, so a bad line stores nothing.
      let total = 0;
      try {
        for await (const _ of readEvents(file)) total++;
      } catch (err) {
        if (err instanceof EventError) throw new Error(`${file}: ${err.message}; nothing was loaded`);
        throw err;
      }
      const { ctx, close } = await open();
      try {
        const b = biddingOf(ctx);
        const bar = progressBar('loading', total);
        const started = performance.now();
        const stored = await ingestAll(b.store, readEvents(file), b.keepEvents, (n) => bar.update(n, { rate: Math.round(n / ((performance.now() - started) / 1000)) }));
        bar.stop();
        const seconds = (performance.now() - started) / 1000;
        console.log(`loaded ${stored} events in ${seconds.toFixed(1)} s (${Math.round(stored / seconds)} events/s)`);
      } finally {
        await close();
      }
    });

  group
    .command('simulate')
    .description('generate realistic, deterministic bid traffic for a bidder and load it (or write it as NDJSON with --out)')
    .requiredOption('--bidder <id>', 'bidder account id', id)
    .option('--accounts <ids>', 'comma-separated accounts the traffic is spread over (default: the bidder alone)')
    .option('--days <n>', 'days of traffic, ending at --end', positive, 7)
    .option('--rate <n>', 'mean events per hour', positive, 1000)
    .option('--seed <n>', 'seed of the generator (same seed, same events)', integer, 1)
    .option('--end <time>', 'end of the window, RFC 3339 (default: now on the service clock)')
    .option('--out <file>', 'write NDJSON to this file instead of loading it')
    .action(async (opts: { bidder: string; accounts?: string; days: number; rate: number; seed: number; end?: string; out?: string }) => {
      const accounts = opts.accounts ? opts.accounts.split(',').map((a) => id(a.trim())) : undefined;
      let end: number | undefined;
      if (opts.end !== undefined) {
        const instant = parseRfc3339(opts.end);
        if (!instant) throw new Error(`--end is not an RFC 3339 timestamp: ${opts.end}`);
        end = instantToMs(instant);
      }
      const { ctx, close } = await open();
      try {
        const b = biddingOf(ctx);
        const options: SimulationOptions = { bidder: opts.bidder, accounts, days: opts.days, rate: opts.rate, seed: opts.seed, end: end ?? ctx.clock.now() };
        const total = hourlyCounts(options).counts.reduce((a, n) => a + n, 0);
        const bar = progressBar(opts.out ? 'writing' : 'simulating', total);
        const started = performance.now();
        const tick = (n: number) => bar.update(n, { rate: Math.round(n / ((performance.now() - started) / 1000)) });
        let count: number;
        if (opts.out) {
          count = await writeNdjson(opts.out, simulate(options), tick);
        } else {
          count = await ingestAll(b.store, simulate(options), b.keepEvents, tick);
        }
        bar.stop();
        const seconds = (performance.now() - started) / 1000;
        console.log(`${opts.out ? `wrote ${count} events to ${opts.out}` : `loaded ${count} events`} in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} events/s)`);
      } finally {
        await close();
      }
    });
}

async function writeNdjson(file: string, events: Iterable<BidEvent>, tick: (n: number) => void): Promise<number> {
  const out = createWriteStream(file);
  let n = 0;
  for (const ev of events) {
    if (!out.write(JSON.stringify(eventToJson(ev)) + '\n')) await once(out, 'drain');
    if (++n % 10_000 === 0) tick(n);
  }
  tick(n);
  out.end();
  await once(out, 'finish');
  return n;
}
