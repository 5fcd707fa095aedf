// What a benchmark scenario is. Each service adds `bench/scenarios/<service>.ts` exporting `scenarios`.
import type { Runtime } from '../src/core/runtime.ts';
import type { ServiceId } from '../src/core/service.ts';

export interface BenchEnv {
  rt: Runtime;
  url(id: ServiceId): string;
  adminUrl: string;
}

/**
 * How a request that changes every time (a fresh key, a new identifier, another body) is made in the load generator's
 * process: `module` (a file URL) exports `factory`, which is called there once with `args` (JSON) and returns
 * autocannon's `setupRequest`. A closure cannot cross to that process; a module's name and arguments can.
 */
export interface ComputedBy {
  module: string;
  factory: string;
  args?: unknown;
}

/** One autocannon request template, sent as is or, with `computedBy`, rewritten before each sending. */
export interface BenchRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  computedBy?: ComputedBy;
}

/** Factories named by `ComputedBy`: given their arguments, they return the function that rewrites each request. */
export type RequestFactory = (args: any) => (req: any) => any;

export interface BenchScenario {
  /** Short name shown in the report, e.g. `errorreporting.report`. */
  name: string;
  service: ServiceId;
  /** Prepares data and returns the request(s) to drive, relative to the service's URL. */
  setup(env: BenchEnv): Promise<{ requests: BenchRequest[]; headers?: Record<string, string> }>;
  /**
   * Load run at the same time as the scenario's own (the mixed scenario: a heavy read on one service while another
   * is measured); its throughput is reported beside the scenario's figures.
   */
  background?(env: BenchEnv): Promise<{ service: ServiceId; requests: BenchRequest[]; headers?: Record<string, string>; connections: number }>;
  /** Other services the scenario needs running (its background load's). */
  needs?: ServiceId[];
  /** Connections for this scenario instead of BENCH_CONNECTIONS. */
  connections?: number;
  /** Optional figures measured outside HTTP (for example a bulk ingestion rate). */
  extra?(env: BenchEnv): Promise<Record<string, number | string>>;
}

/** The template autocannon is given: only the keys the scenario set (autocannon takes a present-but-undefined key as set). */
export function requestTemplate(r: BenchRequest): Record<string, unknown> {
  const template = { method: r.method ?? 'GET', path: r.path, headers: r.headers, body: r.body, computedBy: r.computedBy };
  return Object.fromEntries(Object.entries(template).filter(([, v]) => v !== undefined));
}
