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
  /** Optional figures measured outside HTTP (for example a bulk ingestion rate). */
  extra?(env: BenchEnv): Promise<Record<string, number | string>>;
}
