// Error reporting: report ingestion with the dev API key, and groupStats over a project seeded with 3,000 events in 30
// groups spread over the last day.
import type { BenchScenario, RequestFactory } from '../scenario.ts';

const KEY = 'bench-dev-api-key';
const TOKEN = 'bench-dev-token';
const FUNCTIONS = ['render', 'save', 'load', 'charge', 'notify', 'parse'];

const traceOf = (n: number) =>
  `TypeError: request ${n} failed\n    at ${FUNCTIONS[n % FUNCTIONS.length]} (/srv/app/${FUNCTIONS[n % FUNCTIONS.length]}.js:${10 + (n % 50)}:7)\n    at handle (/srv/app/server.js:88:3)`;

async function seed(url: string, project: string, count: number): Promise<void> {
  const now = Date.now();
  for (let start = 0; start < count; start += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - start) }, async (_, i) => {
        const n = start + i;
        const body = {
          serviceContext: { service: `svc-${n % 5}`, version: `v${n % 3}` },
          message: traceOf(n).replace('TypeError', ['TypeError', 'RangeError', 'SyntaxError', 'Error', 'URIError'][n % 5]),
          eventTime: new Date(now - (n % 1440) * 60_000).toISOString(),
          context: { user: `user-${n % 97}` },
        };
        const res = await fetch(`${url}/v1beta1/projects/${project}/events:report?key=${KEY}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!res.ok) throw new Error(`seeding errorreporting failed: ${res.status} ${await res.text()}`);
      }),
    );
  }
}

/** Each report a different trace (runs in the load generator). */
export const reports: RequestFactory = () => {
  let n = 0;
  return (req) => ({ ...req, body: JSON.stringify({ serviceContext: { service: 'web' }, message: traceOf(n++) }) });
};

export const scenarios: BenchScenario[] = [
  {
    name: 'errorreporting.report',
    service: 'errorreporting',
    async setup() {
      return {
        requests: [
          {
            method: 'POST',
            path: `/v1beta1/projects/bench-ingest/events:report?key=${KEY}`,
            headers: { 'content-type': 'application/json' },
            computedBy: { module: import.meta.url, factory: 'reports' },
          },
        ],
      };
    },
  },
  {
    name: 'errorreporting.groupStats',
    service: 'errorreporting',
    async setup(env) {
      await seed(env.url('errorreporting'), 'bench-stats', 3000);
      return {
        requests: [{ path: '/v1beta1/projects/bench-stats/groupStats?timeRange.period=PERIOD_1_DAY&timedCountDuration=3600s&pageSize=20' }],
        headers: { authorization: `Bearer ${TOKEN}` },
      };
    },
  },
];
