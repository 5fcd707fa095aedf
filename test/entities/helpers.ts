// The runtime most entity search suites share: the entities service with the sample graph, started before the suite's
// tests and closed after them.
import { after, before } from 'node:test';
import { DEV_API_KEY, call, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

export interface SamplesSuite {
  /** The runtime (read inside the tests). */
  readonly t: TestRuntime;
  /** The service's address now (a restart may move it). */
  readonly base: string;
  /** `entities:search` with `query` (the rest of a query string) and an API key. */
  search(query: string, key?: string): ReturnType<typeof call>;
}

export function samplesSuite(database: 'sqlite' | 'postgres'): SamplesSuite {
  let runtime: TestRuntime | undefined;
  before(async () => {
    runtime = await startTestRuntime({ services: ['entities'], database, settings: { entities: { graph: 'samples' } } });
  });
  after(async () => runtime?.close());
  const suite: SamplesSuite = {
    get t() {
      if (!runtime) throw new Error('the suite has not started');
      return runtime;
    },
    get base() {
      return suite.t.url('entities');
    },
    search: (query, key = DEV_API_KEY) => call(`${suite.base}/v1/entities:search?key=${key}&${query}`),
  };
  return suite;
}
