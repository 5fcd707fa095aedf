// Requests derived from the documented schemas of a service's routes (its query string and JSON body, through the
// route fuzzer's fromSchema), sent with valid credentials to fixtures the suite made, so that plausible values reach
// the handlers' own checks. Used by the files and books suites; answers 5xx are returned for the suite to assert on.
// Unlike openapi-requests.ts, which reads the served OpenAPI document, this reads the routes as they were registered.
import fc from 'fast-check';
import type { FastifySchema } from 'fastify';
import type { ServiceManifest } from '../../src/core/service.ts';
import { fromSchema } from '../fuzz/arbitraries.ts';
import { recordingRoutes, type FuzzRoute } from '../fuzz/routes.ts';

/** Query parameters that would swap the caller's credentials or the answer's format for a random one. */
const KEPT_AS_SENT = new Set(['key', 'access_token', 'oauth_token', 'callback', 'fields', 'alt', 'prettyPrint', '$.xgafv']);

/** The manifest, recording every route it registers into `into`. */
export const recording = (manifest: ServiceManifest, into: FuzzRoute[]): ServiceManifest => recordingRoutes([manifest], into)[0]!;

export interface SchemaFuzzOptions {
  /** The service's base URL. */
  base: string;
  routes: FuzzRoute[];
  /** Which recorded routes to send (one prefix of several, no DELETE that would remove the fixtures). */
  include: (route: FuzzRoute, method: string) => boolean;
  /** The value of a path parameter: a fixture's id. */
  pathValue: (name: string) => string;
  headers: Record<string, string>;
  /** Query parameters every request carries (an API key). */
  query?: Record<string, string>;
  runs: number;
  seed?: number;
}

const asText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** Sends `runs` requests per route and method: a line per 5xx answer, and how many answers had each status. */
export async function sendSchemaRequests(options: SchemaFuzzOptions): Promise<{ failures: string[]; statuses: Record<number, number> }> {
  const failures: string[] = [];
  const statuses: Record<number, number> = {};
  for (const route of options.routes) {
    const schema = (route.schema ?? {}) as FastifySchema & { body?: Record<string, unknown>; querystring?: Record<string, unknown> };
    const json = schema.body && !('content' in schema.body);
    const plan = fc.record({ query: fromSchema(schema.querystring ?? { type: 'object' }), body: json ? fromSchema(schema.body) : fc.constant(undefined) });
    const path = route.url.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(options.pathValue(name)));
    for (const method of route.methods.filter((m) => m !== 'HEAD' && options.include(route, m))) {
      for (const { query, body } of fc.sample(plan, { numRuns: options.runs, seed: options.seed })) {
        const pairs = Object.entries((query ?? {}) as Record<string, unknown>).filter(([k]) => !KEPT_AS_SENT.has(k));
        const search = new URLSearchParams([...pairs.map(([k, v]): [string, string] => [k, asText(v)]), ...Object.entries(options.query ?? {})]);
        const sendsBody = method !== 'GET' && body !== undefined;
        const res = await fetch(`${options.base}${path}?${search}`, {
          method,
          headers: { ...options.headers, ...(sendsBody ? { 'content-type': 'application/json' } : {}) },
          body: sendsBody ? JSON.stringify(body) : undefined,
        });
        const text = await res.text();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 500) failures.push(`${method} ${path}?${search} ${sendsBody ? JSON.stringify(body).slice(0, 300) : ''} -> ${res.status} ${text.slice(0, 300)}`);
      }
    }
  }
  return { failures, statuses };
}
