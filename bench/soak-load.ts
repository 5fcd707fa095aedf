// The soak's load generator, a child process so that its work is not counted in the services' memory or on their
// event loop. Reads `{ duration, targets: [{ url, connections, rate?, headers?, requests }] }` on stdin, drives every
// target at once with autocannon (at `rate` requests per second when given) and prints one result per target.
import { text } from 'node:stream/consumers';
import autocannon from 'autocannon';
import { withComputedRequests } from './computed.ts';

interface Target {
  name: string;
  url: string;
  connections: number;
  rate?: number;
  headers?: Record<string, string>;
  requests: object[];
}

const { duration, targets } = JSON.parse(await text(process.stdin)) as { duration: number; targets: Target[] };
const results = await Promise.all(
  targets.map(async (t) => {
    const result = await autocannon({
      url: t.url,
      connections: t.connections,
      duration,
      headers: t.headers,
      requests: (await withComputedRequests(t.requests as Array<Record<string, unknown>>)) as any,
      ...(t.rate ? { overallRate: t.rate } : {}),
    });
    return {
      name: t.name,
      requests: result.requests.total,
      reqPerSec: Math.round(result.requests.average),
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      status5xx: result['5xx'],
    };
  }),
);
process.stdout.write(JSON.stringify(results) + '\n');
