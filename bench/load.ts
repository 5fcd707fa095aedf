// The load generator as a child process, so that its own CPU work is not done on the event loop of the services it
// measures. Reads one autocannon configuration as JSON on stdin (requests that change each time name the factory that
// makes them) and prints the result.
import { text } from 'node:stream/consumers';
import autocannon from 'autocannon';
import { withComputedRequests } from './computed.ts';

const config = JSON.parse(await text(process.stdin));
const result = await autocannon({ ...config, requests: await withComputedRequests(config.requests) });
process.stdout.write(
  JSON.stringify({
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }) + '\n',
);
