// Caches bounded by entries and by bytes: a few large values cannot hold more memory than the byte budget, many small
// ones no more entries than the entry budget; the secrets storage cache keeps within its configured budget.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Kysely, sql } from 'kysely';
import { boundedCache, cacheBudgetOf, detached, ENTRY_OVERHEAD_BYTES } from '../../src/core/cache.ts';
import { openDatabase } from '../../src/core/db/index.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { parseSettings } from '../../src/services/secrets/http/settings.ts';
import { DEV_API_KEY, call, startTestRuntime } from '../helpers/runtime.ts';
import { PhysicalStorage, storageMigrations } from '../../src/services/secrets/storage/physical.ts';
import { StorageConflictError } from '../../src/services/secrets/contract.ts';

const MB = 1024 * 1024;

describe('bounded caches', () => {
  it('evicts the least recently used entries past the byte budget', () => {
    const cache = boundedCache<string, Buffer>({ entries: 1_000, bytes: 3 * MB }, (v) => v.length);
    for (let i = 0; i < 20; i++) cache.set(`k${i}`, Buffer.alloc(MB));
    assert.ok(cache.calculatedSize <= 3 * MB);
    assert.equal(cache.size, 2, 'two 1 MB values and their bookkeeping fit in 3 MB');
    assert.ok(cache.has('k19') && cache.has('k18'));
  });

  it('evicts past the entry budget however small the entries', () => {
    const cache = boundedCache<string, string>({ entries: 100, bytes: 64 * MB }, (v) => v.length);
    for (let i = 0; i < 1_000; i++) cache.set(`k${i}`, 'v');
    assert.equal(cache.size, 100);
    assert.ok(cache.calculatedSize >= 100 * ENTRY_OVERHEAD_BYTES, 'every entry costs its bookkeeping');
  });

  it('keeps nothing larger than the whole budget', () => {
    const cache = boundedCache<string, Buffer>({ entries: 10, bytes: MB }, (v) => v.length);
    cache.set('big', Buffer.alloc(2 * MB));
    assert.equal(cache.has('big'), false);
  });

  it('answers as an empty cache until its first entry, and as a cache from then on', () => {
    const cache = boundedCache<string, string>({ entries: 50_000, bytes: 64 * MB }, (v) => v.length);
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.peek('a'), undefined);
    assert.equal(cache.has('a'), false);
    assert.equal(cache.delete('a'), false);
    cache.clear();
    assert.equal(cache.size, 0);
    assert.equal(cache.calculatedSize, 0);
    cache.set('a', 'one').set('b', 'two');
    assert.equal(cache.get('a'), 'one');
    assert.equal(cache.peek('b'), 'two');
    assert.equal(cache.size, 2);
    assert.equal(cache.calculatedSize, 2 * (3 + 2 + ENTRY_OVERHEAD_BYTES));
    assert.equal(cache.delete('a'), true);
    cache.clear();
    assert.equal(cache.has('b'), false);
    assert.equal(cache.size, 0);
  });

  it('reads budgets from settings and refuses malformed ones', () => {
    const defaults = { entries: 10, bytes: 100 };
    assert.deepEqual(cacheBudgetOf(undefined, defaults, 's'), defaults);
    assert.deepEqual(cacheBudgetOf({ bytes: 5 }, defaults, 's'), { entries: 10, bytes: 5 });
    assert.throws(() => cacheBudgetOf({ bytes: -1 }, defaults, 's.budget'), /s\.budget/);
    assert.throws(() => cacheBudgetOf({ bytes: 1, extra: 2 }, defaults, 's'), /entries, bytes/);
    assert.deepEqual(parseSettings({ storageCacheBudget: { bytes: 4 * MB } }).storageCacheBudget, { entries: 20_000, bytes: 4 * MB });
    assert.throws(() => parseSettings({ storageCacheBudget: 'big' }), /storageCacheBudget/);
  });
});

describe('secrets storage cache', () => {
  it('holds no more than its byte budget however large the values written and read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'twinstack-cache-'));
    const db = await openDatabase(join(dir, 'cache.db'));
    try {
      for (const m of Object.values(storageMigrations)) await m.up(db.kysely as Kysely<any>);
      const storage = new PhysicalStorage(db, { cache: true, cacheBudget: { entries: 20_000, bytes: 4 * MB } });
      for (let i = 0; i < 20; i++) await storage.put(`big/${i}`, Buffer.alloc(MB, i));
      for (let i = 0; i < 20; i++) assert.equal((await storage.get(`big/${i}`))?.[0], i, 'evicted values read back from the table');
      const usage = storage.cacheUsage;
      assert.ok(usage.bytes <= 4 * MB, `${usage.bytes} bytes cached`);
      assert.ok(usage.entries >= 1 && usage.entries <= 4);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps small values in memory of their own, not in the shared buffer pool a slice would hold', async () => {
    const pooled = Buffer.from('a small value');
    assert.notEqual(pooled.buffer.byteLength, pooled.byteLength, 'small buffers are pool slices');
    const own = detached(pooled);
    assert.deepEqual([own.equals(pooled), own.buffer.byteLength], [true, pooled.byteLength]);
    assert.equal(detached(own), own, 'a buffer owning its memory is not copied');

    const dir = mkdtempSync(join(tmpdir(), 'twinstack-cache-'));
    const db = await openDatabase(join(dir, 'cache.db'));
    try {
      for (const m of Object.values(storageMigrations)) await m.up(db.kysely as Kysely<any>);
      const storage = new PhysicalStorage(db, { cache: true });
      const ownsItsMemory = (b: Buffer | undefined) => b !== undefined && b.byteOffset === 0 && b.buffer.byteLength === b.byteLength;
      for (let i = 0; i < 50; i++) await storage.put(`small/${i}`, Buffer.from(`value ${i}`));
      for (let i = 0; i < 50; i++) assert.ok(ownsItsMemory(await storage.get(`small/${i}`)), 'cached from a write');
      storage.forgetCache();
      for (let i = 0; i < 50; i++) assert.ok(ownsItsMemory(await storage.get(`small/${i}`)), 'cached from a read');
      for (let i = 0; i < 50; i++) assert.equal((await storage.get(`small/${i}`))!.toString(), `value ${i}`);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('secrets storage cache across writes', () => {
  async function withStorage(run: (storage: PhysicalStorage, db: Awaited<ReturnType<typeof openDatabase>>) => Promise<void>): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'twinstack-cache-'));
    const db = await openDatabase(join(dir, 'cache.db'));
    try {
      for (const m of Object.values(storageMigrations)) await m.up(db.kysely as Kysely<any>);
      await run(new PhysicalStorage(db, { cache: true }), db);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const stored = async (db: Awaited<ReturnType<typeof openDatabase>>, path: string) =>
    (await sql<{ value: Buffer }>`select value from secrets_entries where path = ${path}`.execute(db.kysely)).rows[0]?.value.toString();

  it('answers a read during a write with the old value, and with the new one once the write is durable', async () => {
    await withStorage(async (storage, db) => {
      await storage.put('k', Buffer.from('old'));
      const writing = storage.put('k', Buffer.from('new'));
      assert.equal((await storage.get('k'))?.toString(), 'old');
      await writing;
      assert.equal((await storage.get('k'))?.toString(), 'new');
      assert.equal(await stored(db, 'k'), 'new');
    });
  });

  it('keeps no entry for a deleted path', async () => {
    await withStorage(async (storage) => {
      for (let i = 0; i < 100; i++) await storage.put(`gone/${i}`, Buffer.from('v'));
      await storage.put('kept', Buffer.from('v'));
      for (let i = 0; i < 100; i++) await storage.writeMany([{ path: `gone/${i}`, value: null }]);
      assert.equal(storage.cacheUsage.entries, 1, 'deleted paths do not take the place of live values');
      assert.equal(await storage.get('gone/7'), undefined);
    });
  });

  it('forgets the paths of a write that failed, and reads them from the table again', async () => {
    await withStorage(async (storage, db) => {
      await storage.put('guarded', Buffer.from('one'));
      await storage.put('other', Buffer.from('two'));
      // Changed behind the cache's back: the guard sees a value other than the one it expects.
      await sql`update secrets_entries set value = ${Buffer.from('changed')} where path = 'guarded'`.execute(db.kysely);
      await assert.rejects(
        storage.writeMany([{ path: 'other', value: Buffer.from('three') }, { path: 'guarded', value: Buffer.from('four') }], { path: 'guarded', expected: Buffer.from('one') }),
        StorageConflictError,
      );
      assert.equal((await storage.get('guarded'))?.toString(), 'changed');
      assert.equal((await storage.get('other'))?.toString(), 'two', 'the failed write changed nothing');
    });
  });
});

describe('credential cache', () => {
  it('takes its budget from the configuration', () => {
    const config = loadConfig({ flags: { caches: { credentials: { entries: 100, bytes: 65_536 } } }, env: {}, cwd: '/' });
    assert.deepEqual(config.caches, { credentials: { entries: 100, bytes: 65_536 } });
    assert.throws(() => loadConfig({ flags: { caches: { credentials: { entries: 0, bytes: 1 } } }, env: {}, cwd: '/' }), ConfigError);
  });

  it('keeps resolving credentials when callers flood it with unknown keys past a tiny budget', async () => {
    const t = await startTestRuntime({ services: ['entities'], database: 'sqlite', caches: { credentials: { entries: 4, bytes: 4_096 } } });
    try {
      const search = (key: string) => call(`${t.url('entities')}/v1/entities:search?query=paris&key=${key}`);
      for (let i = 0; i < 50; i++) assert.equal((await search(`unknown-key-${i}`)).status, 400);
      assert.equal((await search(DEV_API_KEY)).status, 200);
    } finally {
      await t.close();
    }
  });
});

describe('prepared statement cache', () => {
  it('answers every query right with a budget that keeps almost nothing, and takes its budget from the configuration', async () => {
    const config = loadConfig({ flags: { caches: { statements: { entries: 50, bytes: 100_000 } } }, env: {}, cwd: '/' });
    assert.deepEqual(config.caches?.statements, { entries: 50, bytes: 100_000 });
    const dir = mkdtempSync(join(tmpdir(), 'twinstack-statements-'));
    const db = await openDatabase(join(dir, 's.db'), { statementCache: { entries: 2, bytes: 300 } });
    try {
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 10; i++) {
          const { rows } = await sql<{ v: number }>`select ${sql.lit(i)} + ${round} as v`.execute(db.kysely);
          assert.equal(Number(rows[0]!.v), i + round);
        }
      }
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
