// The "First requests" block that opens each service's page runs, as written, against a fresh `npm start`: the
// program is started as a user starts it (its own data directory, default settings) and each line must succeed.
// Only the port block (the default 4400-4409 may be taken on a test machine) and the `npx` lookup are substituted.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BIN, freePortBase, waitForOutput } from '../helpers/processes.ts';

const DOCS = join(import.meta.dirname, '../../docs');

/** The first sh block after the "## First requests" heading of each page that has one. */
function firstRequestBlocks(): Array<{ page: string; script: string }> {
  const blocks: Array<{ page: string; script: string }> = [];
  for (const page of readdirSync(DOCS).filter((f) => f.endsWith('.md')).sort()) {
    const text = readFileSync(join(DOCS, page), 'utf8');
    const match = /^## First requests\n[\s\S]*?^```sh\n([\s\S]*?)^```/m.exec(text);
    if (match) blocks.push({ page, script: match[1] });
  }
  return blocks;
}

describe('first requests of every service page', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'twinstack-first-'));
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TWINSTACK_')));
  let base: number;
  let child: ChildProcess;

  before(async () => {
    base = await freePortBase();
    env.TWINSTACK_PORT_BASE = String(base);
    child = spawn(process.execPath, [BIN, 'start'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    await waitForOutput(child, /Press Ctrl\+C/, 180_000); // a first start builds the entity graph and loads the books
  });
  after(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(cwd, { recursive: true, force: true });
  });

  const blocks = firstRequestBlocks();
  it('finds a block on every service page', () => {
    const pages = blocks.map((b) => b.page.replace(/\.md$/, ''));
    for (const id of ['secrets', 'bidding', 'entities', 'errorreporting', 'payments', 'catalog', 'files', 'books', 'calendar']) {
      assert.ok(pages.includes(id), `docs/${id}.md has no "First requests" block`);
    }
  });

  for (const { page, script } of blocks) {
    it(`runs the block of ${page}`, () => {
      const local = script
        .replace(/127\.0\.0\.1:44(\d\d)/g, (_, n: string) => `127.0.0.1:${base + Number(n)}`)
        .replace(/\bnpx twinstack\b/g, `"${process.execPath}" "${BIN}"`);
      const res = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', local], { cwd, env, encoding: 'utf8', timeout: 120_000 });
      assert.equal(res.status, 0, `docs/${page} failed:\n${res.stderr}\n${res.stdout.slice(0, 2000)}`);
      assert.ok(res.stdout.trim().length > 0, `docs/${page} printed nothing`);
    });
  }
});
