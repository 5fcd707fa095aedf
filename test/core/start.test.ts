// `twinstack start` as scripts run it: through `npm start` or the bin, with a pid file, stopped by a signal or by its
// parent going away. Every check is on the real process and its sockets.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { DATABASES, DEV_API_KEY, call, startTestRuntime } from '../helpers/runtime.ts';

const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/twinstack.js');
const LISTENERS = ['admin', 'secrets', 'bidding', 'entities', 'errorreporting', 'payments', 'catalog', 'files', 'books', 'calendar'];
/** Every listener on a port the system picks: the start table says which. */
const ANY_PORTS = LISTENERS.flatMap((id) => [`--port-${id}`, '0']);
/** A generous bound on how long a start or a stop may take on a loaded machine (not a timing assertion). */
const PATIENCE_MS = 120_000;

/** The options of `twinstack start` for a fresh data directory. */
function startOptions(dataDir: string, pidFile: string): string[] {
  return ['--data-dir', dataDir, '--pid-file', pidFile, ...ANY_PORTS];
}

/** Waits for the start table and returns each listener's port. */
function waitForTable(child: ChildProcess): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (chunk) => (err += chunk));
    const timer = setTimeout(() => reject(new Error(`no start table in output:\n${out}${err}`)), PATIENCE_MS);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (!/Press Ctrl\+C/.test(out)) return;
      clearTimeout(timer);
      resolve(new Map([...out.matchAll(/^(\w+)\s+https?:\/\/127\.0\.0\.1:(\d+)/gm)].map((m) => [m[1], Number(m[2])])));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${out}${err}`));
    });
  });
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntilGone(pid: number): Promise<boolean> {
  const deadline = Date.now() + PATIENCE_MS;
  while (isRunning(pid) && Date.now() < deadline) await sleep(100);
  return !isRunning(pid);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: '127.0.0.1', port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

describe('twinstack start in scripts', () => {
  const dirs: string[] = [];
  const strays: number[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'twinstack-start-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const pid of strays) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('stops, frees its ports and removes its pid file when the npm start that ran it is killed', async () => {
    const work = tempDir();
    const pidFile = join(work, 'twinstack.pid');
    const npm = spawn('npm', ['start', '--silent', '--', ...startOptions(join(work, 'data'), pidFile)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let pid = 0;
    try {
      const ports = await waitForTable(npm);
      assert.deepEqual([...ports.keys()].sort(), [...LISTENERS].sort());
      pid = Number(readFileSync(pidFile, 'utf8'));
      strays.push(pid);
      assert.notEqual(pid, npm.pid, 'the pid file names twinstack itself, not npm');
      assert.equal((await fetch(`http://127.0.0.1:${ports.get('admin')}/health`)).status, 200);

      npm.kill('SIGTERM');
      await exitOf(npm);
      assert.ok(await waitUntilGone(pid), `twinstack (pid ${pid}) is still running after npm was killed`);
      assert.equal(existsSync(pidFile), false, 'the pid file is removed');
      for (const [id, port] of ports) assert.ok(await portIsFree(port), `${id}'s port ${port} is still held`);
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  });

  it('writes its own pid to the pid file and removes it when stopped with SIGTERM', async () => {
    const work = tempDir();
    const pidFile = join(work, 'run', 'twinstack.pid');
    const missingDir = spawn(process.execPath, [BIN, 'start', ...startOptions(join(work, 'data'), pidFile)], { stdio: ['ignore', 'pipe', 'pipe'] });
    assert.equal(await exitOf(missingDir), 2, 'a pid file that cannot be written stops the start');
    assert.equal(existsSync(join(work, 'data')), false, 'before anything else is written');

    const flatPidFile = join(work, 'twinstack.pid');
    const child = spawn(process.execPath, [BIN, 'start', ...startOptions(join(work, 'data'), flatPidFile)], { stdio: ['ignore', 'pipe', 'pipe'] });
    strays.push(child.pid!);
    const ports = await waitForTable(child);
    assert.equal(readFileSync(flatPidFile, 'utf8').trim(), String(child.pid));
    child.kill('SIGTERM');
    assert.equal(await exitOf(child), 0);
    assert.equal(existsSync(flatPidFile), false, 'the pid file is removed');
    assert.ok(await portIsFree(ports.get('admin')!));
  });
});

describe('the bundle built ahead of time', () => {
  // Inside the checkout, as dist/ is: the packages kept out of the bundle resolve from its node_modules.
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const work = mkdtempSync(join(ROOT, 'dist', 'test-bundle-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  it('serves what the sources serve, finding the files beside the sources (samples, catalog, read worker)', async () => {
    const outdir = join(work, 'dist');
    const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { env: { ...process.env, TWINSTACK_BUILD_DIR: outdir }, encoding: 'utf8' });
    assert.equal(built.status, 0, `${built.stdout}${built.stderr}`);
    const config = join(work, 'twinstack.config.json');
    writeFileSync(config, JSON.stringify({ services: { entities: { graph: 'samples' }, books: { catalog: 'sample' } } }));
    const child = spawn(process.execPath, [join(outdir, 'cli.js'), 'start', '--config', config, ...startOptions(join(work, 'data'), join(work, 'pid'))], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const ports = await waitForTable(child);
      const key = 'twinstack-dev-api-key';
      // The sample entities come from entities/seed.json.
      const entities = await call(`http://127.0.0.1:${ports.get('entities')}/v1/entities:search?query=taylor%20swift&limit=1&key=${key}`);
      assert.equal(entities.status, 200, entities.text);
      assert.equal(entities.body.itemListElement[0].result.name, 'Taylor Swift');
      // The catalog comes from data/books; a search runs on a read worker (core/db/read-worker.js).
      const books = await call(`http://127.0.0.1:${ports.get('books')}/books/v1/volumes?q=adventures&key=${key}`);
      assert.equal(books.status, 200, books.text);
      assert.ok(books.body.totalItems > 0);
    } catch (err) {
      child.kill('SIGKILL');
      throw err;
    }
    const exited = exitOf(child);
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});

/** Texts in the shipped book catalog. */
const SHIPPED_VOLUMES = 7535;

for (const database of DATABASES) {
  describe(`loading behind open listeners (${database})`, () => {
    it('answers the first requests as a finished start would, and a reset during the load still ends with the whole catalog', async () => {
      const t = await startTestRuntime({ services: ['books'], database, settings: { books: { catalog: 'shipped' } } });
      try {
        // Issued at once: the shipped catalog is still being stored.
        const reset = await call(`${t.adminUrl}/reset`, { body: { service: 'books' } });
        assert.equal(reset.status, 200, reset.text);
        const counted = await call(`${t.adminUrl}/services/books/volumes`);
        assert.equal(counted.body.total, SHIPPED_VOLUMES);
        const listed = await call(`${t.url('books')}/books/v1/volumes?q=${encodeURIComponent('pride and prejudice')}&key=${DEV_API_KEY}`);
        assert.equal(listed.status, 200, listed.text);
        assert.ok(listed.body.totalItems > 0);
        const health = await call(`${t.adminUrl}/health`);
        assert.equal(health.status, 200);
        assert.equal(health.body.services.books.catalog, 'ready');
        assert.equal(health.body.services.books.volumes, SHIPPED_VOLUMES);
      } finally {
        await t.close();
      }
    });
  });
}
