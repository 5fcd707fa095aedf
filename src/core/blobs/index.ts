// The content store: content-addressed (SHA-256) bytes with per-owner reference counts. By default the bytes are
// files under the data directory; on PostgreSQL they are chunks in the database, so every instance serves every
// blob. Bytes nobody references are freed: at once when the last reference goes, and at start by `reconcile`.
import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/index.ts';
import { deleteChunks, readChunks, writeChunks } from './chunks.ts';
import { FilesystemBlobs } from './filesystem.ts';

export { BLOB_TABLES, blobMigrations } from './migrations.ts';

export type BlobBackend = 'filesystem' | 'database';

export interface BlobInfo {
  /** SHA-256, lower-case hex: the blob's address. */
  hash: string;
  size: number;
  /** MD5, lower-case hex (what Drive-style APIs report as a checksum). */
  md5: string;
}

/** Content hashed (and, on the filesystem backend, already written) that a unit of work may now attach. */
export interface PreparedBlob extends BlobInfo {
  readonly data: Buffer;
}

export interface BlobStoreOptions {
  /** Where new content goes; default `database` on PostgreSQL, `filesystem` otherwise. */
  backend?: BlobBackend;
  /** Directory of the filesystem backend; default `<dataDir>/blobs`. */
  directory?: string;
}

/** What an owner's own tables reference: blob counts, and the uploads still in progress. */
export interface LiveContent {
  refs: Array<{ hash: string; refs: number }>;
  uploads: string[];
}

/** Bytes hashed between two turns of the event loop (about a millisecond of work). */
const HASH_SLICE_BYTES = 256 * 1024;

const LOCATION: Record<BlobBackend, string> = { filesystem: 'fs', database: 'db' };

export class BlobStore {
  readonly backend: BlobBackend;
  readonly #db: Database;
  readonly #clock: Clock;
  readonly #files: FilesystemBlobs;
  // Hashes being prepared in this process: a concurrent collect must not remove their freshly written files.
  readonly #pending = new Map<string, number>();

  constructor(db: Database, clock: Clock, dataDir: string, options: BlobStoreOptions = {}) {
    this.#db = db;
    this.#clock = clock;
    this.backend = options.backend ?? (db.dialect === 'postgres' ? 'database' : 'filesystem');
    this.#files = new FilesystemBlobs(options.directory ?? join(dataDir, 'blobs'));
  }

  /**
   * The content's hashes. Large content is hashed a slice at a time, yielding to the event loop between slices:
   * hashing 100 MB at once held every service for a few hundred milliseconds.
   */
  static async describe(data: Buffer): Promise<BlobInfo> {
    const sha256 = createHash('sha256');
    const md5 = createHash('md5');
    for (let start = 0; start < data.length; start += HASH_SLICE_BYTES) {
      if (start > 0) await yieldToEventLoop();
      const slice = data.subarray(start, start + HASH_SLICE_BYTES);
      sha256.update(slice);
      md5.update(slice);
    }
    return { hash: sha256.digest('hex'), md5: md5.digest('hex'), size: data.length };
  }

  /**
   * Prepares `data` and runs `fn`, which attaches it inside a unit of work. Whatever happens, bytes that no committed
   * unit references are removed afterwards, so a refused request leaves no orphan bytes.
   */
  async withContent<T>(data: Buffer, fn: (blob: PreparedBlob) => Promise<T>): Promise<T> {
    const blob: PreparedBlob = { ...(await BlobStore.describe(data)), data };
    this.#pending.set(blob.hash, (this.#pending.get(blob.hash) ?? 0) + 1);
    try {
      if (this.backend === 'filesystem') await this.#files.write(blob.hash, data);
      return await fn(blob);
    } finally {
      const left = (this.#pending.get(blob.hash) ?? 1) - 1;
      if (left > 0) this.#pending.set(blob.hash, left);
      else this.#pending.delete(blob.hash);
      await this.collect([blob.hash]);
    }
  }

  /** Inside a unit of work: records the prepared content (once per hash) and counts one reference by `owner`. */
  async attach(tx: Kysely<any>, owner: string, blob: PreparedBlob): Promise<BlobInfo> {
    const location = LOCATION[this.backend];
    for (;;) {
      const inserted = await tx
        .insertInto('core_blobs')
        .values({ hash: blob.hash, size: blob.size, md5: blob.md5, location, created_at: this.#clock.now() })
        .onConflict((oc) => oc.column('hash').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
        if (location === 'db') await writeChunks(tx, blob.hash, blob.data);
        break;
      }
      // Someone holds it: lock the row so a concurrent release cannot free it under us (PostgreSQL; SQLite has one writer).
      if (await this.#lockRow(tx, blob.hash)) break;
    }
    await this.retain(tx, owner, blob.hash);
    return { hash: blob.hash, size: blob.size, md5: blob.md5 };
  }

  /** Counts `n` more references to a stored blob (a copy of a file shares its content). */
  async retain(tx: Kysely<any>, owner: string, hash: string, n = 1): Promise<void> {
    await tx
      .insertInto('core_blob_refs')
      .values({ owner, hash, refs: n })
      .onConflict((oc) => oc.columns(['owner', 'hash']).doUpdateSet({ refs: sql`core_blob_refs.refs + ${n}` }))
      .execute();
  }

  /**
   * Drops one reference. When none is left anywhere the blob is freed in the same unit; the returned hash must be
   * passed to `collect` after the commit (the filesystem bytes go only once the unit is durable).
   */
  async release(tx: Kysely<any>, owner: string, hash: string): Promise<string | undefined> {
    await this.#lockRow(tx, hash);
    await tx.updateTable('core_blob_refs').set({ refs: sql`refs - 1` }).where('owner', '=', owner).where('hash', '=', hash).execute();
    await tx.deleteFrom('core_blob_refs').where('owner', '=', owner).where('hash', '=', hash).where('refs', '<=', 0).execute();
    const still = await tx.selectFrom('core_blob_refs').select('hash').where('hash', '=', hash).executeTakeFirst();
    if (still) return undefined;
    await deleteChunks(tx, hash);
    await tx.deleteFrom('core_blobs').where('hash', '=', hash).execute();
    return hash;
  }

  /** After a commit: removes the files of blobs that no longer have a row. */
  async collect(hashes: Iterable<string>): Promise<void> {
    for (const hash of new Set(hashes)) {
      if (this.#pending.has(hash)) continue;
      const row = await this.#db.kysely.selectFrom('core_blobs').select('hash').where('hash', '=', hash).executeTakeFirst();
      if (!row) await this.#files.remove(hash);
    }
  }

  async info(db: Kysely<any>, hash: string): Promise<BlobInfo | undefined> {
    const row = await db.selectFrom('core_blobs').select(['hash', 'size', 'md5']).where('hash', '=', hash).executeTakeFirst();
    return row ? { hash: row.hash, size: Number(row.size), md5: row.md5 } : undefined;
  }

  /** Bytes [start, end) of a blob (the whole blob by default). */
  async read(hash: string, start = 0, end?: number): Promise<Buffer> {
    const row = await this.#db.kysely.selectFrom('core_blobs').select(['size', 'location']).where('hash', '=', hash).executeTakeFirst();
    if (!row) throw new Error(`blob ${hash} is not stored`);
    const stop = Math.min(end ?? Number(row.size), Number(row.size));
    if (stop <= start) return Buffer.alloc(0);
    return row.location === 'db' ? readChunks(this.#db.kysely, hash, start, stop) : this.#files.read(hash, start, stop);
  }

  /** Appends bytes at `offset` to an upload in progress (inside a unit of work). */
  async appendPart(tx: Kysely<any>, owner: string, uploadId: string, offset: number, data: Buffer): Promise<void> {
    if (data.length === 0) return;
    await tx.insertInto('core_blob_parts').values({ owner, upload_id: uploadId, byte_offset: offset, data }).execute();
  }

  /** Bytes received so far for an upload. */
  async partsLength(db: Kysely<any>, uploadId: string): Promise<number> {
    const row = await db
      .selectFrom('core_blob_parts')
      .select(sql<number>`coalesce(sum(length(data)), 0)`.as('n'))
      .where('upload_id', '=', uploadId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async readParts(db: Kysely<any>, uploadId: string): Promise<Buffer> {
    const rows = await db.selectFrom('core_blob_parts').select('data').where('upload_id', '=', uploadId).orderBy('byte_offset').execute();
    return Buffer.concat(rows.map((r) => Buffer.from(r.data as Uint8Array)));
  }

  async dropParts(tx: Kysely<any>, uploadId: string): Promise<void> {
    await tx.deleteFrom('core_blob_parts').where('upload_id', '=', uploadId).execute();
  }

  /**
   * Makes `owner`'s reference counts exactly what its own tables say (after a reset or a crash), drops parts of
   * uploads it no longer knows, and frees every blob nobody references, including stray files of the filesystem
   * backend that never got a row.
   */
  async reconcile(owner: string, counted: (tx: Kysely<any>) => Promise<LiveContent>): Promise<{ freed: number }> {
    const freed = await this.#db.write(async (tx) => {
      // Another instance attaching meanwhile waits for this count to commit, then adds its reference on top.
      if (this.#db.dialect === 'postgres') await sql`lock table core_blob_refs in share row exclusive mode`.execute(tx);
      const live = await counted(tx);
      await tx.deleteFrom('core_blob_refs').where('owner', '=', owner).execute();
      for (let i = 0; i < live.refs.length; i += 500) {
        const rows = live.refs.slice(i, i + 500).filter((r) => r.refs > 0).map((r) => ({ owner, hash: r.hash, refs: r.refs }));
        if (rows.length) await tx.insertInto('core_blob_refs').values(rows).execute();
      }
      let parts = tx.deleteFrom('core_blob_parts').where('owner', '=', owner);
      if (live.uploads.length) parts = parts.where('upload_id', 'not in', live.uploads);
      await parts.execute();
      const orphans = await tx
        .selectFrom('core_blobs as b')
        .select('b.hash')
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('core_blob_refs as r').select('r.hash').whereRef('r.hash', '=', 'b.hash'))))
        .execute();
      for (const { hash } of orphans) {
        await deleteChunks(tx, hash);
        await tx.deleteFrom('core_blobs').where('hash', '=', hash).execute();
      }
      return orphans.map((o) => o.hash as string);
    });
    await this.collect(freed);
    return { freed: freed.length + (await this.#sweepStrayFiles()) };
  }

  async #sweepStrayFiles(): Promise<number> {
    let removed = 0;
    const dirs = await readdir(this.#files.root).catch(() => [] as string[]);
    for (const dir of dirs) {
      const names = await readdir(join(this.#files.root, dir)).catch(() => [] as string[]);
      const hashes = names.filter((n) => /^[0-9a-f]{64}$/.test(n) && !this.#pending.has(n));
      for (let i = 0; i < hashes.length; i += 500) {
        const batch = hashes.slice(i, i + 500);
        const known = new Set(
          (await this.#db.kysely.selectFrom('core_blobs').select('hash').where('hash', 'in', batch).execute()).map((r) => r.hash as string),
        );
        for (const hash of batch) {
          if (known.has(hash)) continue;
          await this.#files.remove(hash);
          removed++;
        }
      }
    }
    return removed;
  }

  async #lockRow(tx: Kysely<any>, hash: string): Promise<boolean> {
    let q = tx.selectFrom('core_blobs').select('hash').where('hash', '=', hash);
    if (this.#db.dialect === 'postgres') q = q.forUpdate();
    return (await q.executeTakeFirst()) !== undefined;
  }
}
