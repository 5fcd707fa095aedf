// Soak: a mix of services driven at half their measured capacity for a number of minutes, printing the process's
// memory (RSS, heap) and the worst service's p99 each minute, so growth in either shows.
// Usage: npm run soak -- --minutes N [--capacity-seconds S]  (SOAK_DATABASE=postgres://... for PostgreSQL)
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics } from 'node:v8';
import { buildAdmin } from '../src/admin/index.ts';
import { Runtime, loopbackOptions } from '../src/core/runtime.ts';
import type { ServiceId } from '../src/core/service.ts';
import { manifestOf } from '../src/services/index.ts';
import { requestTemplate, type BenchEnv, type BenchScenario } from './scenario.ts';

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

const UNMAP_GRACE_MS = 1000;

/** The main heap's spaces, used of committed MB each: which one grows when the committed heap does. */
const heapSpaces = () =>
  getHeapSpaceStatistics()
    .filter((s) => s.space_size > 1048576)
    .map((s) => `${s.space_name} ${mb(s.space_used_size)}/${mb(s.space_size)}`)
    .join(', ');

/**
 * Resident memory as the kernel maps it, in MB: the main thread's malloc heap (brk), the other threads' malloc arenas
 * (glibc aligns each to 64 MiB), V8's regular heap pages (each mapped on its own, 256 KiB), other anonymous mappings
 * (new space, large objects and buffers) and file-backed pages. Empty off Linux.
 */
function residentSplit(): Record<'brk' | 'arenas' | 'pages' | 'anon' | 'file', string> {
  const ARENA = 64 * 1048576;
  try {
    const totals = { brk: 0, arenas: 0, pages: 0, anon: 0, file: 0 };
    let kind: keyof typeof totals = 'anon';
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const mapping = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (mapping) {
        const [from, to, name] = [parseInt(mapping[1]!, 16), parseInt(mapping[2]!, 16), mapping[3]!];
        if (name === '[heap]') kind = 'brk';
        else if (name.startsWith('/')) kind = 'file';
        else if (name) kind = 'anon';
        else if (to - from === 262144) kind = 'pages';
        else kind = from % ARENA === 0 && to - from <= ARENA ? 'arenas' : 'anon';
      } else if (line.startsWith('Rss:')) totals[kind] += Number(line.split(/\s+/)[1]);
    }
    const mbOf = (kb: number) => String(Math.round(kb / 1024));
    return { brk: mbOf(totals.brk), arenas: mbOf(totals.arenas), pages: mbOf(totals.pages), anon: mbOf(totals.anon), file: mbOf(totals.file) };
  } catch {
    return { brk: '-', arenas: '-', pages: '-', anon: '-', file: '-' };
  }
}

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
      const templates = requests.map(requestTemplate);
      targets.push({ name: s.name, url: env.url(s.service), connections: CONNECTIONS_PER_TARGET, headers, requests: templates });
    }
    const capacity = await load(capacitySeconds, targets);
    const total = capacity.reduce((n, r) => n + r.reqPerSec, 0);
    console.log(`soak: ${rt.db.dialect}, ${targets.length} scenarios; capacity of the mix ${total} req/s over ${capacitySeconds}s; driving ${Math.round(total / 2)} req/s for ${minutes} min`);
    for (const r of capacity) console.log(`  ${r.name}: capacity ${r.reqPerSec} req/s, p99 ${r.p99} ms`);
    const paced = targets.map((t, i) => ({ ...t, rate: Math.max(1, Math.floor(capacity[i]!.reqPerSec / 2)) }));
    console.log('minute  rss MB  (malloc  arenas  v8 pages  other  file)  heap MB (of)  readers MB (of)  external MB  req/s  worst p99 ms (scenario)  errors  non-2xx  5xx  db MB');
    for (let minute = 1; minute <= minutes; minute++) {
      const results = await load(60, paced);
      const worst = results.reduce((a, b) => (b.p99 > a.p99 ? b : a));
      // Sampled after a full collection when the process can ask for one (`npm run soak` passes --expose-gc), so
      // the figures are what stays alive rather than where the collector happened to be.
      (globalThis as { gc?: () => void }).gc?.();
      // V8 unmaps the pages a collection freed on a background thread: read once it has had a moment, or RSS counts
      // pages already on their way out (seen as RSS 100 MB above the mappings' sum read just after).
      await new Promise((resolve) => setTimeout(resolve, UNMAP_GRACE_MS));
      const memory = process.memoryUsage();
      const sum = (k: 'reqPerSec' | 'errors' | 'non2xx' | 'status5xx') => results.reduce((n, r) => n + r[k], 0);
      const split = residentSplit();
      const readers = await rt.db.readerHeaps();
      const readerHeap = `${mb(readers.reduce((n, r) => n + r.used, 0))} (${mb(readers.reduce((n, r) => n + r.total, 0))})`;
      const dbFiles = ['soak.db', 'soak.db-wal'].map((f) => join(dataDir, f)).filter((f) => existsSync(f));
      const dbSize = dbFiles.reduce((n, f) => n + statSync(f).size, 0);
      console.log(
        `${String(minute).padStart(6)}  ${String(mb(memory.rss)).padStart(6)}  ${split.brk.padStart(7)}  ${split.arenas.padStart(6)}  ${split.pages.padStart(8)}  ${split.anon.padStart(5)}  ${split.file.padStart(4)}  ${`${mb(memory.heapUsed)} (${mb(memory.heapTotal)})`.padStart(12)}  ${readerHeap.padStart(14)}  ${String(mb(memory.external)).padStart(11)}  ${String(sum('reqPerSec')).padStart(5)}  ${`${worst.p99} (${worst.name})`.padStart(23)}  ${String(sum('errors')).padStart(6)}  ${String(sum('non2xx')).padStart(7)}  ${String(sum('status5xx')).padStart(3)}  ${String(mb(dbSize)).padStart(5)}`,
      );
      if (minute === 1 || minute % 10 === 0 || minute === minutes) console.log(`        heap spaces, used/committed MB: ${heapSpaces()}`);
    }
  } finally {
    await rt.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
