// `twinstack catalog simulate`: deterministic daily clicks, impressions and conversions for a merchant's products,
// stored for reports.search and recommendations.
import { InvalidArgumentError, type Command } from 'commander';
import cliProgress from 'cli-progress';
import type { ServiceContext } from '../../core/service.ts';
import { catalogOf } from './catalog.ts';
import { simulatePerformance } from './performance.ts';

type Open = () => Promise<{ ctx: ServiceContext; close(): Promise<void> }>;

const days = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 366) throw new InvalidArgumentError('must be a whole number from 1 to 366');
  return n;
};
const merchant = (v: string) => {
  if (!/^\d{1,20}$/.test(v)) throw new InvalidArgumentError('must be a numeric merchant id');
  return v;
};
const date = (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v))) throw new InvalidArgumentError('must be a YYYY-MM-DD date');
  return v;
};

export function catalogCommands(group: Command, open: Open): void {
  group
    .command('simulate')
    .description("simulate daily performance (clicks, impressions, conversions) of a merchant's products and store it for reports")
    .requiredOption('--merchant <id>', 'merchant account id', merchant)
    .option('--days <n>', 'days of traffic, ending at --end', days, 30)
    .option('--end <date>', 'last day, YYYY-MM-DD (default: yesterday on the service clock)', date)
    .option('--seed <text>', 'seed of the simulator (same seed, same numbers)', '1')
    .action(async (opts: { merchant: string; days: number; end?: string; seed: string }) => {
      const { ctx, close } = await open();
      try {
        const cat = catalogOf(ctx);
        if (!(await cat.store.account(opts.merchant))) throw new Error(`merchant ${opts.merchant} does not exist`);
        const bar = new cliProgress.SingleBar({ format: 'simulating [{bar}] {percentage}% | {value}/{total} days | ETA {eta_formatted}', hideCursor: true, noTTYOutput: true, notTTYSchedule: 5000 }, cliProgress.Presets.shades_classic);
        bar.start(opts.days, 0);
        const result = await simulatePerformance(cat, opts.merchant, { days: opts.days, end: opts.end, seed: opts.seed, onDay: (n) => bar.update(n) });
        bar.stop();
        console.log(`stored ${result.records} daily records for ${result.days} days (${result.start} to ${result.end}) of merchant ${opts.merchant}`);
      } finally {
        await close();
      }
    });
}
