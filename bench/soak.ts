// Soak: a mix of services driven at half their measured capacity for a number of minutes, printing the process's
// memory (RSS, heap) and the worst service's p99 each minute, so growth in either shows.
// Usage: npm run soak -- --minutes N [--capacity-seconds S]  (SOAK_DATABASE=postgres://... for PostgreSQL)
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildAdmin } from '../src/admin/index.ts';
import { Runtime, loopbackOptions } from '../src/core/runtime.ts';
import type { ServiceId } from '../src/core/service.ts';
import { manifestOf } from '../src/services/index.ts';
import type { BenchEnv, BenchScenario } from './scenario.ts';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({ options: { minutes: { type: 'string', default: '30' }, 'capacity-seconds': { type: 'string', default: '15' } } });
const minutes = Number(values.minutes);
const capacitySeconds = Number(values['capacity-seconds']);

/** The mix: reads and writes on seven services, each a bench scenario whose requests are static (driven from the child). */
const MIX = [
  ['secrets.ts', 'secrets.kv2-read'],
  ['secrets.ts', 'secrets.kv2-write'],
  ['errorreporting.ts', 'errorreporting.groupStats'],
  ['entities.ts', 'entities.search.name'],
  ['files.ts', 'files.get metadata'],
  ['calendar.ts', 'calendar.event.get'],
  ['catalog.ts', 'catalog.products.get'],
] as const;
const CONNECTIONS_PER_TARGET = 4;

interface TargetResult {
  name: string;
  requests: number;
  reqPerSec: number;
  p99: number;
  errors: number;
  non2xx: number;
  status5xx: number;
}

function load(duration: number, targets: object[]): Promise<TargetResult[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['--import', 'tsx', join(here, 'soak-load.ts')], { maxBuffer: 1 << 20 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(JSON.parse(stdout));
    });
    child.stdin!.end(JSON.stringify({ duration, targets }));
  });
}

async function scenario(file: string, name: string): Promise<BenchScenario> {
  const mod = (await import(join(here, 'scenarios', file))) as { scenarios: BenchScenario[] };
  const found = mod.scenarios.find((s) => s.name === name);
  if (!found) throw new Error(`no bench scenario ${name}`);
  return found;
}

const mb = (bytes: number) => Math.round(bytes / 1048576);

async function main(): Promise<void> {
  const scenarios = await Promise.all(MIX.map(([file, name]) => scenario(file, name)));
  const services = [...new Set(scenarios.map((s) => s.service))] as ServiceId[];
  const dataDir = mkdtempSync(join(tmpdir(), 'twinstack-soak-'));
  const rt = await Runtime.start(
    loopbackOptions(dataDir, process.env.SOAK_DATABASE ?? join(dataDir, 'soak.db'), { devApiKey: 'bench-dev-api-key', devToken: 'bench-dev-token' }),
    services.map(manifestOf),
    buildAdmin,
  );
  const env: BenchEnv = { rt, url: (id) => rt.services.get(id)!.url, adminUrl: rt.admin!.url };
  try {
    const targets = [];
    for (const s of scenarios) {
      const { requests, headers } = await s.setup(env);
      if (requests.some((r) => r.setupRequest)) throw new Error(`${s.name} computes its requests; the soak mix takes static ones`);
      const templates = requests.map((r) => Object.fromEntries(Object.entries({ method: r.method ?? 'GET', path: r.path, headers: r.headers, body: r.body }).filter(([, v]) => v !== undefined)));
      targets.push({ name: s.name, url: env.url(s.service), connections: CONNECTIONS_PER_TARGET, headers, requests: templates });
    }
    const capacity = await load(capacitySeconds, targets);
    const total = capacity.reduce((n, r) => n + r.reqPerSec, 0);
    console.log(`soak: ${rt.db.dialect}, ${targets.length} scenarios; capacity of the mix ${total} req/s over ${capacitySeconds}s; driving ${Math.round(total / 2)} req/s for ${minutes} min`);
    for (const r of capacity) console.log(`  ${r.name}: capacity ${r.reqPerSec} req/s, p99 ${r.p99} ms`);
    const paced = targets.map((t, i) => ({ ...t, rate: Math.max(1, Math.floor(capacity[i]!.reqPerSec / 2)) }));
    console.log('minute  rss MB  heap MB  req/s  worst p99 ms (scenario)  errors  non-2xx  5xx');
    for (let minute = 1; minute <= minutes; minute++) {
      const results = await load(60, paced);
      const worst = results.reduce((a, b) => (b.p99 > a.p99 ? b : a));
      const memory = process.memoryUsage();
      const sum = (k: 'reqPerSec' | 'errors' | 'non2xx' | 'status5xx') => results.reduce((n, r) => n + r[k], 0);
      console.log(
        `${String(minute).padStart(6)}  ${String(mb(memory.rss)).padStart(6)}  ${String(mb(memory.heapUsed)).padStart(7)}  ${String(sum('reqPerSec')).padStart(5)}  ${`${worst.p99} (${worst.name})`.padStart(23)}  ${String(sum('errors')).padStart(6)}  ${String(sum('non2xx')).padStart(7)}  ${String(sum('status5xx')).padStart(3)}`,
      );
    }
  } finally {
    await rt.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
