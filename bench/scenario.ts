// What a benchmark scenario is. Each service adds `bench/scenarios/<service>.ts` exporting `scenarios`.
import type { Runtime } from '../src/core/runtime.ts';
import type { ServiceId } from '../src/core/service.ts';

export interface BenchEnv {
  rt: Runtime;
  url(id: ServiceId): string;
  adminUrl: string;
}

/** One autocannon request template; `setupRequest` may vary each request (ids, bodies). */
export interface BenchRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: any, context: any) => any;
}

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
