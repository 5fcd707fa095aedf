import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const BIN = join(import.meta.dirname, '../../bin/twinstack.js');
const run = (args: string[]) => spawnSync(process.execPath, [BIN, 'entities', ...args], { encoding: 'utf8', timeout: 120_000 });

describe('twinstack entities', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'twinstack-entities-cli-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('builds the world graph at first opening, again on request with a progress bar, then loads a file beside it', () => {
    const config = join(dataDir, 'config.json');
    writeFileSync(config, JSON.stringify({ services: { entities: { minPopulation: 1_000_000 } } }));
    // Opening a fresh data directory builds the configured graph; the command does not build it twice.
    let res = run(['build', '--config', config, '--data-dir', dataDir]);
    assert.equal(res.status, 0, res.stderr);
    const [, first] = /built (\d+) entities \((\d+) in the graph\)/.exec(res.stdout) ?? [];
    assert.ok(Number(first) > 1000 && Number(first) < 2000, res.stdout);
    assert.doesNotMatch(res.stderr, /building the entity graph/);
    // A build with fewer cities replaces the previous one, dropping the cities it leaves out.
    res = run(['build', '--min-population', '2000000', '--data-dir', dataDir]);
    assert.equal(res.status, 0, res.stderr);
    const [, built, total] = /built (\d+) entities \((\d+) in the graph\)/.exec(res.stdout) ?? [];
    assert.ok(Number(built) < Number(first), res.stdout);
    assert.equal(total, built);
    assert.match(res.stderr, /building the entity graph/);

    const file = join(dataDir, 'extra.ndjson');
    writeFileSync(file, `${JSON.stringify({ id: '/g/extra_1', types: ['Place'], names: { en: 'Extra Place' } })}\n`);
    res = run(['load', file, '--data-dir', dataDir]);
    assert.equal(res.status, 0, res.stderr);
    assert.match(res.stdout, new RegExp(`loaded 1 entities \\(${Number(built) + 1} in the graph\\)`));

    writeFileSync(file, `${JSON.stringify({ id: 'bad id', types: [], names: { en: 'x' } })}\n`);
    res = run(['load', file, '--data-dir', dataDir]);
    assert.notEqual(res.status, 0);
    assert.match(res.stderr, /entity 0: \/id/);
  });
});
