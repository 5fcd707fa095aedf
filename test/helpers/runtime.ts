// Starts a real runtime for a test: ephemeral ports, a fresh data directory, SQLite or a fresh PostgreSQL schema.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import pg from 'pg';
import { buildAdmin } from '../../src/admin/index.ts';
import { Runtime, loopbackOptions, type RuntimeOptions } from '../../src/core/runtime.ts';
import type { ServiceId, ServiceManifest } from '../../src/core/service.ts';
import { manifestOf } from '../../src/services/index.ts';

export const DEV_API_KEY = 'test-dev-api-key';
export const DEV_TOKEN = 'test-dev-token';

/** The databases every black-box suite runs on: SQLite always, PostgreSQL when TWINSTACK_TEST_DATABASE_URL names one. */
export const DATABASES: Array<'sqlite' | 'postgres'> = process.env.TWINSTACK_TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestRuntimeOptions {
  services: Array<ServiceId | ServiceManifest>;
  database: 'sqlite' | 'postgres';
  clock?: 'system' | 'manual';
  clockStart?: number;
  settings?: RuntimeOptions['settings'];
  listenerLimits?: RuntimeOptions['listenerLimits'];
  caches?: RuntimeOptions['caches'];
  principals?: RuntimeOptions['principals'];
}

export interface TestRuntime {
  rt: Runtime;
  /** Base URL of a running service. */
  url(id: ServiceId): string;
  adminUrl: string;
  dataDir: string;
  /** Stops and starts again on the same data (a restart). */
  restart(): Promise<void>;
  /** Stops and deletes the data. */
  close(): Promise<void>;
}

export async function startTestRuntime(options: TestRuntimeOptions): Promise<TestRuntime> {
  const dataDir = mkdtempSync(join(tmpdir(), 'twinstack-test-'));
  let schema: string | undefined;
  let databaseUrl = join(dataDir, 'test.db');
  if (options.database === 'postgres') {
    const base = process.env.TWINSTACK_TEST_DATABASE_URL;
    if (!base) throw new Error('TWINSTACK_TEST_DATABASE_URL is not set');
    schema = `t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const url = new URL(base);
    url.searchParams.set('schema', schema);
    databaseUrl = url.toString();
  }
  const manifests = options.services.map((s) => (typeof s === 'string' ? manifestOf(s) : s));
  const runtimeOptions: RuntimeOptions = loopbackOptions(dataDir, databaseUrl, {
    clock: options.clock ?? 'system',
    clockStart: options.clockStart,
    logger: pino({ level: process.env.TWINSTACK_TEST_LOG ?? 'silent' }),
    devApiKey: DEV_API_KEY,
    devToken: DEV_TOKEN,
    principals: options.principals,
    settings: { entities: { graph: 'samples' }, ...options.settings }, // the full entity graph only where a test asks for it
    tickMs: 100,
    listenerLimits: options.listenerLimits,
    caches: options.caches,
  });
  const boot = () => Runtime.start(runtimeOptions, manifests, buildAdmin);
  let rt = await boot();
  const handle: TestRuntime = {
    get rt() {
      return rt;
    },
    url: (id) => {
      const s = rt.services.get(id);
      if (!s) throw new Error(`service ${id} is not running`);
      return s.url;
    },
    get adminUrl() {
      return rt.admin!.url;
    },
    dataDir,
    async restart() {
      await rt.close();
      rt = await boot();
    },
    async close() {
      await rt.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (schema) await dropSchema(schema);
    },
  };
  return handle;
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TWINSTACK_TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** fetch + JSON body, for black-box assertions. */
export async function call(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  let body: string | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(url, { method: init.method ?? (body !== undefined ? 'POST' : 'GET'), headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** Moves a manual clock on through the admin API (`by`: a duration such as `1h`), failing the test if refused. */
export async function advanceClock(t: Pick<TestRuntime, 'adminUrl'>, by: string): Promise<void> {
  const r = await call(`${t.adminUrl}/clock`, { body: { advance: by } });
  if (r.status !== 200) throw new Error(`POST /clock answered ${r.status}: ${r.text}`);
}

/**
 * The notifications a Google-style watch channel has queued (the admin outbox), as `"<resource state> <message
 * number>"`, in message order.
 */
export async function webhookNotices(t: Pick<TestRuntime, 'adminUrl'>, service: string, channelId: string): Promise<string[]> {
  const res = await call(`${t.adminUrl}/outbox?service=${service}&channel=webhook&correlation=${encodeURIComponent(`channel:${channelId}`)}`);
  const messages: any[] = res.body.messages ?? res.body.items ?? res.body;
  return messages
    .map((m) => `${m.headers['X-Goog-Resource-State']} ${m.headers['X-Goog-Message-Number']}`)
    .sort((a, b) => Number(a.split(' ')[1]) - Number(b.split(' ')[1]));
}
