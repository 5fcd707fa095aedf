// Measures `twinstack start` as a user sees it: time from spawning the program to the start table, to the first
// `GET /health` answering 200 on the admin port, and to the end of the loading that runs behind the listeners;
// then the resident size 5 s after the loading and again 30 s after it. The CPU time used until the table and until
// healthy is printed too: on a busy machine the wall times stretch, the CPU time much less. First on a fresh data directory, then `RUNS` times on the
// same one.
//
//   node scripts/measure-start.mjs [program]   (bin/twinstack.js by default; PORT_BASE=31700 RUNS=3 IDLE_MS=5000 SETTLED_MS=30000)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const BIN = process.argv[2] ?? fileURLToPath(new URL('../bin/twinstack.js', import.meta.url));
const PORT_BASE = Number(process.env.PORT_BASE ?? 31700);
const RUNS = Number(process.env.RUNS ?? 3);
const IDLE_MS = Number(process.env.IDLE_MS ?? 5000);
const SETTLED_MS = Number(process.env.SETTLED_MS ?? 30000);

/** CPU time (user and system, every thread) the process has used: what a start costs whatever else the machine runs. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Math.round(((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS);
}
const CLOCK_TICKS = 100;

async function measure(dataDir) {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  const child = spawn(process.execPath, [BIN, 'start', '--data-dir', dataDir, '--port-base', String(PORT_BASE)], { stdio: ['ignore', 'pipe', 'ignore'] });
  const result = {};
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
    if (result.tableMs === undefined && out.includes('Press Ctrl+C')) {
      result.tableMs = since();
      result.tableCpuMs = cpuMs(child.pid);
    }
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${out}`);
      const res = await fetch(`http://127.0.0.1:${PORT_BASE}/health`).catch(() => undefined);
      if (res?.status === 200) {
        if (result.healthyMs === undefined) {
          result.healthyMs = since();
          result.healthyCpuMs = cpuMs(child.pid);
        }
        const { services } = await res.json();
        if (!Object.values(services).some((s) => s.graph === 'warming' || s.catalog === 'warming')) break;
      }
      await sleep(10);
    }
    result.loadedMs = since();
    const rssMB = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024);
    await sleep(IDLE_MS);
    result.idleRssMB = rssMB();
    // V8 returns unused heap pages once its memory reducer sees the process idle, some seconds later.
    if (SETTLED_MS > IDLE_MS) {
      await sleep(SETTLED_MS - IDLE_MS);
      result.settledRssMB = rssMB();
    }
    result.peakRssMB = Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024);
    result.load = loadavg()[0].toFixed(1);
    return result;
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'twinstack-measure-'));
try {
  console.log('fresh   ', JSON.stringify(await measure(dataDir)));
  for (let i = 0; i < RUNS; i++) console.log('existing', JSON.stringify(await measure(dataDir)));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
