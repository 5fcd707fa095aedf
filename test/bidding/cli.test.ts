// `twinstack bidding simulate` and `twinstack bidding load` on a real database, checked against the file's events.
// Each command is a process start (seconds on a busy machine): the file is written once and the refusals that never
// reach a database run once.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { openDatabase } from '../../src/core/db/index.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { totals, type WireEvent } from './helpers.ts';

const BIN = join(import.meta.dirname, '../../bin/twinstack.js');
const SIMULATE = ['simulate', '--bidder', '1000', '--accounts', '1000,1001', '--days', '1', '--rate', '200', '--seed', '5', '--end', '2026-01-10T00:00:00Z'];
/** Written by the first suite's `simulate --out`, loaded by every suite. */
let simulated: string | undefined;

for (const database of DATABASES) {
  describe(`twinstack bidding commands (${database})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'twinstack-bidding-cli-'));
    const schema = `t_cli_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    let url = join(dir, 'cli.db');
    if (database === 'postgres') {
      const u = new URL(process.env.TWINSTACK_TEST_DATABASE_URL!);
      u.searchParams.set('schema', schema);
      url = u.toString();
    }
    const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'bidding', ...args, '--data-dir', dir, '--database', url, '--log-level', 'silent'], { encoding: 'utf8', timeout: 180_000 });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      if (database === 'postgres') {
        const client = new pg.Client({ connectionString: process.env.TWINSTACK_TEST_DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    });

    const stored = async () => {
      const db = await openDatabase(url);
      try {
        const events = await db.kysely.selectFrom('bidding_events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        const sums = await db.kysely
          .selectFrom('bidding_rollup')
          .select((eb) => ['bids', 'in_auction', 'won', 'billed', 'measurable', 'viewable'].map((c) => eb.fn.sum(c).as(c)))
          .executeTakeFirstOrThrow();
        const outcomes = await db.kysely.selectFrom('bidding_outcomes').select((eb) => eb.fn.sum('n').as('n')).executeTakeFirstOrThrow();
        return { events: Number(events.n), sums: Object.values(sums).map((v) => Number(v ?? 0)), outcomes: Number(outcomes.n ?? 0) };
      } finally {
        await db.close();
      }
    };

    const file = join(dir, 'events.ndjson');
    before(() => {
      if (simulated === undefined) {
        const res = run(...SIMULATE, '--out', file);
        assert.equal(res.status, 0, res.stderr);
        assert.match(res.stdout, /wrote \d+ events/);
        simulated = readFileSync(file, 'utf8');
      } else writeFileSync(file, simulated);
    });

    it('loads a simulated NDJSON file into events and aggregates, and simulates straight into the database', async () => {
      const text = simulated!;
      const events = text.trim().split('\n').map((l) => JSON.parse(l) as WireEvent);
      let res = run('load', file);
      assert.equal(res.status, 0, res.stderr);
      assert.match(res.stdout, new RegExp(`loaded ${events.length} events`));
      const expected = Object.values(totals(events));
      assert.deepEqual(await stored(), { events: events.length, sums: expected, outcomes: events.length });

      // Simulating straight into the database adds the same traffic again (the same seed gives the same events).
      res = run(...SIMULATE);
      assert.equal(res.status, 0, res.stderr);
      assert.deepEqual(await stored(), { events: 2 * events.length, sums: expected.map((n) => 2 * n), outcomes: 2 * events.length });
    });

    if (database !== DATABASES[0]) return;

    it('loads nothing from a file with one bad line', async () => {
      const bad = join(dir, 'bad.ndjson');
      writeFileSync(bad, simulated + '{"time":"2026-01-09T00:00:00Z","bidder":"1000"}\n');
      const before = await stored();
      const res = run('load', bad);
      assert.notEqual(res.status, 0);
      assert.match(res.stderr, new RegExp(`line ${simulated!.trim().split('\n').length + 1}: .*nothing was loaded`));
      assert.deepEqual(await stored(), before);
    });

    it('refuses bad options', () => {
      const res = run('simulate', '--bidder', 'no/slash', '--days', '1');
      assert.notEqual(res.status, 0);
      assert.match(res.stderr, /account id/);
    });
  });
}
