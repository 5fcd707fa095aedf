// Runs in the load generator's process: turns each request's `computedBy` into the `setupRequest` autocannon calls
// before every sending, by importing the module that names the factory.
import type { ComputedBy, RequestFactory } from './scenario.ts';

export async function withComputedRequests(requests: Array<Record<string, unknown>>): Promise<Array<Record<string, unknown>>> {
  return Promise.all(
    requests.map(async ({ computedBy, ...request }) => {
      if (!computedBy) return request;
      const { module, factory, args } = computedBy as ComputedBy;
      const make = (await import(module))[factory] as RequestFactory | undefined;
      if (typeof make !== 'function') throw new Error(`${module} exports no request factory ${factory}`);
      return { ...request, setupRequest: make(args) };
    }),
  );
}
