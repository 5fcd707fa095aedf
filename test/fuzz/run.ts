// `npm run fuzz -- --runs N [--seed S]`: the route fuzzer with N generated requests per route instead of the suite's few.
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '100' }, seed: { type: 'string' } } });
process.env.FUZZ_RUNS = values.runs;
if (values.seed !== undefined) process.env.FUZZ_SEED = values.seed;
await import('./routes.test.ts');
