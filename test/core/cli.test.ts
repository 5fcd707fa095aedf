import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN, freePortBase, waitForOutput } from '../helpers/processes.ts';

describe('twinstack command', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'twinstack-cli-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints help', () => {
    const res = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
    assert.equal(res.status, 0);
    assert.match(res.stdout, /start/);
    assert.match(res.stdout, /reset/);
  });

  it('starts every service, prints the table, and stops cleanly on SIGTERM', async () => {
    const base = await freePortBase();
    const child = spawn(process.execPath, [BIN, 'start', '--data-dir', dataDir, '--port-base', String(base)], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const out = await waitForOutput(child, /Press Ctrl\+C/, 90_000); // a first start builds the entity graph
      assert.match(out, new RegExp(`admin\\s+http://127\\.0\\.0\\.1:${base}`));
      assert.match(out, new RegExp(`errorreporting\\s+http://127\\.0\\.0\\.1:${base + 4}`));
      const health = await fetch(`http://127.0.0.1:${base}/health`);
      assert.equal(health.status, 200);
      const body = (await health.json()) as { database: { dialect: string }; services: Record<string, unknown> };
      assert.equal(body.database.dialect, 'sqlite');
      assert.equal(Object.keys(body.services).length, 9);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    }
  });

  it('refuses a bad configuration with a clear message', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--only', 'nothing'], /unknown service id "nothing"/],
      [['--port-admin', '99999'], /ports\/admin/],
      [['--database', 'postgres://127.0.0.1:1/none'], /cannot reach PostgreSQL/],
    ];
    for (const [args, message] of cases) {
      const res = spawnSync(process.execPath, [BIN, 'start', '--data-dir', dataDir, ...args], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(res.status, 2, args.join(' '));
      assert.match(res.stderr, message);
    }
  });
});
