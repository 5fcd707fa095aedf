// `twinstack bidding simulate` and `twinstack bidding load` on a real database, checked against the file's events.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { openDatabase } from '../../src/core/db/index.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { totals, type WireEvent } from './helpers.ts';

const BIN = join(import.meta.dirname, '../../bin/twinstack.js');

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
        return { events: Number(events.n), sums: Object.values(sums).map((v) => Number(v ?? 0)) };
      } finally {
        await db.close();
      }
    };

    it('simulates deterministically to NDJSON and loads the file into events and aggregates', async () => {
      const file = join(dir, 'events.ndjson');
      const args = ['simulate', '--bidder', '1000', '--accounts', '1000,1001', '--days', '1', '--rate', '200', '--seed', '5', '--end', '2026-01-10T00:00:00Z'];
      let res = run(...args, '--out', file);
      assert.equal(res.status, 0, res.stderr);
      assert.match(res.stdout, /wrote \d+ events/);
      const text = readFileSync(file, 'utf8');
      assert.equal(run(...args, '--out', join(dir, 'again.ndjson')).status, 0);
      assert.equal(readFileSync(join(dir, 'again.ndjson'), 'utf8'), text, 'same seed, same events');
      const events = text.trim().split('\n').map((l) => JSON.parse(l) as WireEvent);

      res = run('load', file);
      assert.equal(res.status, 0, res.stderr);
      assert.match(res.stdout, new RegExp(`loaded ${events.length} events`));
      const expected = Object.values(totals(events));
      assert.deepEqual(await stored(), { events: events.length, sums: expected });

      // A file with one bad line loads nothing.
      appendFileSync(file, '{"time":"2026-01-09T00:00:00Z","bidder":"1000"}\n');
      res = run('load', file);
      assert.notEqual(res.status, 0);
      assert.match(res.stderr, new RegExp(`line ${events.length + 1}: .*nothing was loaded`));
      assert.deepEqual(await stored(), { events: events.length, sums: expected });

      // Simulating straight into the database adds the same traffic again.
      res = run(...args);
      assert.equal(res.status, 0, res.stderr);
      assert.deepEqual(await stored(), { events: 2 * events.length, sums: expected.map((n) => 2 * n) });
    });

    it('refuses bad options', () => {
      const res = run('simulate', '--bidder', 'no/slash', '--days', '1');
      assert.notEqual(res.status, 0);
      assert.match(res.stderr, /account id/);
    });
  });
}
