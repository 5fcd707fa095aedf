// Load runner: drives each scenario with autocannon on loopback and reports every figure as a ratio to a bare route
// served by the same process, driven just before and just after the scenario. Usage: npm run bench [-- <name-filter>] (BENCH_SECONDS, BENCH_CONNECTIONS).
// Every scenario is driven from a child process (bench/load.ts), so the client's work, fresh payment keys included, is
// neither counted against the services nor done on their event loop.
import { execFile } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAdmin } from '../src/admin/index.ts';
import { createListener } from '../src/core/http/listener.ts';
import { Runtime, loopbackOptions } from '../src/core/runtime.ts';
import { whenWarm } from '../src/core/warm-up.ts';
import type { ServiceId } from '../src/core/service.ts';
import { manifestOf } from '../src/services/index.ts';
import { requestTemplate, type BenchEnv, type BenchRequest, type BenchScenario } from './scenario.ts';

const here = dirname(fileURLToPath(import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Seconds of the bare route driven after each scenario: a machine's speed drifts over a run of many minutes. */
const bareSeconds = Number(process.env.BENCH_BARE_SECONDS ?? 2);
const filter = process.argv[2];
/** A folder to write a CPU profile of the services' process per scenario to (its drive only, not the bare route's). */
const profileDir = process.env.BENCH_CPU_PROFILE;
/**
 * Handler costs the calibration rows add to the bare route. Waking an idle client on loopback is charged to the
 * server's socket write, so the ratio falls faster than the work alone would say: these rows show what a goal demands.
 */
const CALIBRATION_US = [5, 10, 20, 40];

interface Figures {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  ratio?: number;
  /** CPU the services' process spent per request (all its threads). */
  cpuUsPerReq?: number;
  extra?: Record<string, number | string>;
}

async function loadScenarios(): Promise<BenchScenario[]> {
  const dir = join(here, 'scenarios');
  const all: BenchScenario[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts')).sort()) {
    const mod = (await import(join(dir, file))) as { scenarios: BenchScenario[] };
    all.push(...mod.scenarios);
  }
  return filter ? all.filter((s) => s.name.includes(filter)) : all;
}

/** Drives one scenario and adds the process CPU per request: unlike req/s, it hardly moves when the machine is busy. */
async function drive(name: string, origin: string, requests: BenchRequest[], headers: Record<string, string> = {}, conns = connections, duration = seconds): Promise<Figures> {
  const before = process.cpuUsage();
  const config = { url: origin, connections: conns, duration, headers, requests: requests.map(requestTemplate) };
  const figures: Figures = { name, ...(await driveFromChild(config)) };
  const spent = process.cpuUsage(before);
  figures.cpuUsPerReq = figures.reqPerSec > 0 ? Math.round((spent.user + spent.system) / (figures.reqPerSec * duration)) : undefined;
  return figures;
}

function driveFromChild(config: object): Promise<Omit<Figures, 'name'>> {
  return new Promise((resolve, reject) => {
    // The configuration goes on stdin: request bodies (a 1,000-entry batch) exceed what argv may hold.
    const child = execFile(process.execPath, ['--import', 'tsx', join(here, 'load.ts')], { maxBuffer: 1 << 20 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(JSON.parse(stdout));
    });
    child.stdin!.end(JSON.stringify(config));
  });
}

/**
 * The durable writes made while a scenario ran: commits, and units of work per commit (the batching the group commit
 * achieved; on PostgreSQL each unit is its own commit). Undefined when nothing was written.
 */
function unitsPerCommit(before: { commits: number; units: number }, after: { commits: number; units: number }): { commits: number; unitsPerCommit: number } | undefined {
  const commits = after.commits - before.commits;
  if (commits === 0) return undefined;
  return { commits, unitsPerCommit: Math.round(((after.units - before.units) / commits) * 10) / 10 };
}

/** Starts V8's sampling profiler on this thread; the function returned stops it and writes the profile. */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

async function main(): Promise<void> {
  const scenarios = await loadScenarios();
  const services = [...new Set(scenarios.flatMap((s) => [s.service, ...(s.needs ?? [])]))] as ServiceId[];
  const dataDir = mkdtempSync(join(tmpdir(), 'twinstack-bench-'));
  const rt = await Runtime.start(
    loopbackOptions(dataDir, process.env.BENCH_DATABASE ?? join(dataDir, 'bench.db'), {
      sqliteSynchronous: process.env.BENCH_SQLITE_SYNCHRONOUS === 'NORMAL' ? 'NORMAL' : 'FULL',
      devApiKey: 'bench-dev-api-key',
      devToken: 'bench-dev-token',
    }),
    services.map(manifestOf),
    buildAdmin,
  );
  // The bare route: the same listener factory, no service hooks, no database.
  const bare = createListener({ name: 'bare', log: rt.log });
  bare.get('/bare', async () => ({}));
  // The bare route plus a fixed amount of synchronous work: the ratio a handler of that cost can reach on this machine.
  bare.get<{ Params: { us: string } }>('/busy/:us', async (req) => {
    const until = process.hrtime.bigint() + BigInt(Number(req.params.us) * 1000);
    while (process.hrtime.bigint() < until);
    return {};
  });
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

  // Services load their data behind open listeners (the entity graph, the book catalog): measuring before that ends
  // would count the loading's CPU against the bare route and the scenarios.
  await whenWarm([...rt.services.values()].map((s) => s.ctx));
  const env: BenchEnv = { rt, url: (id) => rt.services.get(id)!.url, adminUrl: rt.admin!.url };
  const rows: Figures[] = [];
  try {
    console.log(`bench: ${seconds}s per scenario, ${connections} connections, database ${rt.db.dialect}`);
    const baseline = await drive('bare route', bareUrl, [{ path: '/bare' }]);
    baseline.ratio = 1;
    rows.push(baseline);
    // Each scenario's ratio is to the bare route measured just before and just after it, averaged.
    let bareBefore = baseline.reqPerSec;
    if (!filter || 'calibration'.includes(filter)) {
      for (const us of CALIBRATION_US) {
        const figures = await drive(`calibration: bare + ${us} µs of work`, bareUrl, [{ path: `/busy/${us}` }]);
        figures.ratio = Math.round((figures.reqPerSec / bareBefore) * 1000) / 1000;
        rows.push(figures);
      }
    }
    for (const s of scenarios) {
      const { requests, headers } = await s.setup(env);
      const background = await s.background?.(env);
      const profiling = profileDir ? await startProfile() : undefined;
      const writesBefore = rt.db.writeStats();
      const [figures, behind] = await Promise.all([
        drive(s.name, env.url(s.service), requests, headers, s.connections),
        background ? drive('background', env.url(background.service), background.requests, background.headers, background.connections) : undefined,
      ]);
      const writes = unitsPerCommit(writesBefore, rt.db.writeStats());
      if (profiling) await profiling(join(profileDir!, `${s.name}.cpuprofile`));
      const bareAfter = (await drive('bare route', bareUrl, [{ path: '/bare' }], {}, connections, bareSeconds)).reqPerSec;
      const bareAround = (bareBefore + bareAfter) / 2;
      bareBefore = bareAfter;
      figures.ratio = Math.round((figures.reqPerSec / bareAround) * 1000) / 1000;
      figures.extra = { bareAround: Math.round(bareAround) };
      if (s.extra) figures.extra = { ...figures.extra, ...(await s.extra(env)) };
      if (behind) figures.extra = { ...figures.extra, backgroundReqPerSec: behind.reqPerSec, backgroundP99: behind.p99 };
      if (writes) figures.extra = { ...figures.extra, ...writes };
      rows.push(figures);
    }
  } finally {
    await bare.close();
    await rt.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const table = [['scenario', 'req/s', 'p50 ms', 'p99 ms', 'ratio', 'cpu µs/req', 'errors', 'non-2xx']];
  for (const r of rows) table.push([r.name, String(r.reqPerSec), String(r.p50), String(r.p99), r.ratio!.toFixed(3), String(r.cpuUsPerReq ?? ''), String(r.errors), String(r.non2xx)]);
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  for (const row of table) console.log(row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
  for (const r of rows) if (r.extra) console.log(`${r.name}: ${Object.entries(r.extra).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  const out = join(here, 'results', 'latest.json');
  mkdirSync(dirname(out), { recursive: true });
  const rssMb = Math.round(process.memoryUsage().rss / 1048576);
  console.log(`rss after the run: ${rssMb} MB`);
  writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), seconds, connections, node: process.version, rssMb, rows }, null, 2) + '\n');
  console.log(`written: ${out}`);
}

await main();
