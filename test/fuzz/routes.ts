// The routes to fuzz, collected from Fastify itself: every service's register() runs with an onRoute hook installed
// first, so each route (plugins and HEAD twins included) is recorded with its methods, URL pattern and schema.
import type { FastifySchema, RouteOptions } from 'fastify';
import type { ServiceId, ServiceManifest } from '../../src/core/service.ts';
import { BIDDING_SEEDS } from './seeds/bidding.ts';
import type { WildcardSeed } from './seeds/seed.ts';
import { SECRETS_SEEDS } from './seeds/secrets.ts';

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
 * The operations behind catch-all routes, which route by reading the path themselves: each seed is a concrete path a
 * client reaches through the wildcard, with the schemas of what that operation reads (seeds/).
 */
export const WILDCARD_SEEDS: Partial<Record<ServiceId, WildcardSeed[]>> = {
  secrets: SECRETS_SEEDS,
  bidding: BIDDING_SEEDS,
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
  const seed = WILDCARD_SEEDS[route.service]?.[0]?.path ?? value;
  return route.url
    .split('/')
    .map((part) => (part === '*' ? seed : part.replaceAll('::', '\u0001').replace(/:[A-Za-z_]\w*/g, value).replaceAll('\u0001', ':')))
    .join('/');
}

const declares = (schema: { body?: unknown; querystring?: unknown; params?: unknown } | undefined): boolean =>
  Boolean(schema && (schema.body || schema.querystring || schema.params));

export interface SchemaCoverage {
  routes: number;
  withSchema: number;
  /** Operations behind the service's catch-all routes, and how many of them carry a schema. */
  seeds: number;
  seedsWithSchema: number;
}

/** How many of a service's routes (and wildcard seeds) declare a schema the fuzzer derives requests from. */
export function schemaCoverage(service: ServiceId, routes: FuzzRoute[]): SchemaCoverage {
  const mine = routes.filter((r) => r.service === service);
  const seeds = mine.some((r) => r.url.endsWith('*')) ? (WILDCARD_SEEDS[service] ?? []) : [];
  return {
    routes: mine.length,
    withSchema: mine.filter((r) => declares(r.schema as Record<string, unknown> | undefined)).length,
    seeds: seeds.length,
    seedsWithSchema: seeds.filter((s) => declares(s.schema)).length,
  };
}

export function describeCoverage(service: ServiceId, c: SchemaCoverage): string {
  const wildcard = c.seeds ? `; wildcard operations: ${c.seedsWithSchema}/${c.seeds} with a schema` : '';
  return `${service}: ${c.withSchema}/${c.routes} routes with a declared schema${wildcard}`;
}
