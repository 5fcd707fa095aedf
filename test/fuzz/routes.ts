// The routes to fuzz, collected from Fastify itself: every service's register() runs with an onRoute hook installed
// first, so each route (plugins and HEAD twins included) is recorded with its methods, URL pattern and schema.
import type { FastifySchema, RouteOptions } from 'fastify';
import type { ServiceId, ServiceManifest } from '../../src/core/service.ts';

export interface FuzzRoute {
  service: ServiceId;
  methods: string[];
  /** Fastify's pattern: `:name` parameters, a trailing `*` wildcard. */
  url: string;
  schema?: FastifySchema;
}

/** Wraps manifests so that every route they register is appended to `into`. */
export function recordingRoutes(manifests: ServiceManifest[], into: FuzzRoute[]): ServiceManifest[] {
  return manifests.map((m) => ({
    ...m,
    register: (app, ctx) => {
      app.addHook('onRoute', (route: RouteOptions) => {
        into.push({ service: m.id, methods: ([] as string[]).concat(route.method), url: route.url, schema: route.schema });
      });
      return m.register(app, ctx);
    },
  }));
}

/**
 * Concrete paths for catch-all routes, which route by reading the path themselves: the operations a client reaches
 * through them. Paths that end the instance's usefulness for the rest of the run (sealing, revoking the root token)
 * are left out.
 */
export const WILDCARD_SEEDS: Partial<Record<ServiceId, string[]>> = {
  secrets: [
    'sys/mounts/fz',
    'sys/mounts/fz/tune',
    'sys/auth/fz',
    'sys/policies/acl/fz',
    'sys/policy/fz',
    'sys/capabilities-self',
    'sys/wrapping/wrap',
    'sys/wrapping/unwrap',
    'sys/tools/random/32',
    'sys/tools/hash',
    'sys/leases/lookup',
    'sys/internal/ui/mounts/secret',
    'sys/namespaces/fz',
    'secret/data/fz',
    'secret/metadata/fz',
    'secret/delete/fz',
    'secret/destroy/fz',
    'secret/config',
    'cubbyhole/fz',
    'auth/token/create',
    'auth/token/lookup',
    'auth/token/renew',
    'auth/token/roles/fz',
    'auth/userpass/users/fz',
    'auth/userpass/login/fz',
    'auth/approle/role/fz',
    'auth/approle/login',
  ],
  bidding: [
    'bidders/1000/filterSets',
    'bidders/1000/filterSets/fz',
    'bidders/1000/accounts/1000/filterSets',
    'bidders/1000/accounts/1000/filterSets/fz',
    'bidders/1000/filterSets/fz/bidMetrics',
    'bidders/1000/filterSets/fz/impressionMetrics',
    'bidders/1000/filterSets/fz/filteredBids',
    'bidders/1000/filterSets/fz/filteredBids/1/creatives',
    'bidders/1000/filterSets/fz/losingBids',
    'bidders/1000/filterSets/fz/nonBillableWinningBids',
    'bidders/1000/filterSets/fz/bidResponseErrors',
    'bidders/1000/filterSets/fz/bidResponsesWithoutBids',
    'bidders/1000/filterSets/fz/filteredBidRequests',
  ],
};

/**
 * Tables a refused request may still write, and why. A payments API key carries a one-time nonce, spent when the key
 * authenticates, before the body is read: a refused request must still not be replayable with the same key.
 */
export const WRITTEN_BY_AUTHENTICATION: Partial<Record<ServiceId, string[]>> = {
  payments: ['payments_nonces'],
};

/** A route's path with every parameter set to `value` and a wildcard to its first seed. */
export function plainPath(route: FuzzRoute, value = 'warm'): string {
  const seed = WILDCARD_SEEDS[route.service]?.[0] ?? value;
  return route.url
    .split('/')
    .map((part) => (part === '*' ? seed : part.replaceAll('::', '\u0001').replace(/:[A-Za-z_]\w*/g, value).replaceAll('\u0001', ':')))
    .join('/');
}
