import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BlobStore, blobMigrations } from '../../src/core/blobs/index.ts';
import { CHUNK_BYTES } from '../../src/core/blobs/chunks.ts';
import { ManualClock } from '../../src/core/clock.ts';
import type { Database } from '../../src/core/db/index.ts';
import { DATABASES } from '../helpers/runtime.ts';
import { testDatabase, type TestDatabase } from '../helpers/database.ts';

const backends = (kind: string) => (kind === 'postgres' ? (['database', 'filesystem'] as const) : (['filesystem', 'database'] as const));

for (const kind of DATABASES) {
  for (const backend of backends(kind)) {
    describe(`content store (${kind}, ${backend})`, () => {
      let tdb: TestDatabase;
      let db: Database;
      let dir: string;
      let blobs: BlobStore;
      before(async () => {
        tdb = testDatabase(kind);
        db = await tdb.open();
        await db.migrate('core_blobs', blobMigrations);
        dir = mkdtempSync(join(tmpdir(), 'blobs-'));
        blobs = new BlobStore(db, new ManualClock(0), dir, { backend });
      });
      after(async () => {
        await db.close();
        await tdb.dispose();
        rmSync(dir, { recursive: true, force: true });
      });
      const stored = async (hash: string) => (await db.kysely.selectFrom('core_blobs').select('hash').where('hash', '=', hash).executeTakeFirst()) !== undefined;
      const onDisk = (hash: string) => existsSync(join(dir, 'blobs', hash.slice(0, 2), hash));

      it('stores content once per hash, reads ranges across chunks, and frees it with the last reference', async () => {
        const data = Buffer.from(Array.from({ length: CHUNK_BYTES * 2 + 100 }, (_, i) => (i * 7) % 251));
        const info = await blobs.withContent(data, (blob) => db.write((tx) => blobs.attach(tx, 'test', blob)));
        await blobs.withContent(data, (blob) => db.write((tx) => blobs.attach(tx, 'test', blob)));
        assert.equal(info.size, data.length);
        assert.deepEqual(await blobs.read(info.hash), data);
        assert.deepEqual(await blobs.read(info.hash, CHUNK_BYTES - 10, CHUNK_BYTES + 10), data.subarray(CHUNK_BYTES - 10, CHUNK_BYTES + 10));
        assert.equal(onDisk(info.hash), backend === 'filesystem');
        const first = await db.write((tx) => blobs.release(tx, 'test', info.hash));
        assert.equal(first, undefined);
        assert.ok(await stored(info.hash));
        const freed = await db.write((tx) => blobs.release(tx, 'test', info.hash));
        assert.equal(freed, info.hash);
        await blobs.collect([freed!]);
        assert.equal(await stored(info.hash), false);
        assert.equal(onDisk(info.hash), false);
      });

      it('leaves no bytes behind when the unit that would reference them fails', async () => {
        const data = Buffer.from(`doomed ${backend} ${kind}`);
        await assert.rejects(
          blobs.withContent(data, (blob) =>
            db.write(async (tx) => {
              await blobs.attach(tx, 'test', blob);
              throw new Error('refused');
            }),
          ),
          /refused/,
        );
        const hash = (await BlobStore.describe(data)).hash;
        assert.equal(await stored(hash), false);
        assert.equal(onDisk(hash), false);
      });

      it('reconciles an owner to its live references, drops stale parts and stray files', async () => {
        const keep = await blobs.withContent(Buffer.from('keep me'), (blob) => db.write((tx) => blobs.attach(tx, 'owner-a', blob)));
        const drop = await blobs.withContent(Buffer.from('drop me'), (blob) => db.write((tx) => blobs.attach(tx, 'owner-a', blob)));
        await db.write((tx) => blobs.appendPart(tx, 'owner-a', 'upload-1', 0, Buffer.from('abc')));
        await db.write((tx) => blobs.appendPart(tx, 'owner-a', 'upload-1', 3, Buffer.from('def')));
        await db.write((tx) => blobs.appendPart(tx, 'owner-a', 'upload-2', 0, Buffer.from('zzz')));
        assert.equal(await blobs.partsLength(db.kysely, 'upload-1'), 6);
        assert.equal((await blobs.readParts(db.kysely, 'upload-1')).toString(), 'abcdef');
        const stray = 'f'.repeat(64);
        mkdirSync(join(dir, 'blobs', 'ff'), { recursive: true });
        writeFileSync(join(dir, 'blobs', 'ff', stray), 'orphan');
        await blobs.reconcile('owner-a', async () => ({ refs: [{ hash: keep.hash, refs: 1 }], uploads: ['upload-1'] }));
        assert.ok(await stored(keep.hash));
        assert.equal(await stored(drop.hash), false);
        assert.equal(await blobs.partsLength(db.kysely, 'upload-2'), 0);
        assert.equal(await blobs.partsLength(db.kysely, 'upload-1'), 6);
        assert.equal(existsSync(join(dir, 'blobs', 'ff', stray)), false);
        await blobs.reconcile('owner-a', async () => ({ refs: [], uploads: [] }));
        assert.equal(await stored(keep.hash), false);
      });
    });
  }
}

describe('BlobStore.describe', () => {
  it('hashes content of several slices as one pass over it would', async () => {
    const data = Buffer.from(Array.from({ length: 2.5 * 1024 * 1024 }, (_, i) => (i * 7919) % 251));
    const info = await BlobStore.describe(data);
    assert.equal(info.hash, createHash('sha256').update(data).digest('hex'));
    assert.equal(info.md5, createHash('md5').update(data).digest('hex'));
    assert.equal(info.size, data.length);
    assert.equal((await BlobStore.describe(Buffer.alloc(0))).hash, createHash('sha256').digest('hex'));
  });
});
