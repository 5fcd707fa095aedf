// Tables of the content store. Registered by the runtime beside the core migrations (namespace `core_blobs`).
import type { Kysely, Migration } from 'kysely';
import { columnTypes } from '../db/dialect.ts';

export const BLOB_TABLES = ['core_blob_parts', 'core_blob_chunks', 'core_blob_refs', 'core_blobs'];

export const blobMigrations: Record<string, Migration> = {
  '0001_blobs': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      // One row per distinct content (SHA-256). `location` says where its bytes are: `fs` (a file under the data
      // directory) or `db` (chunks in core_blob_chunks), so a change of backend never strands old content.
      await db.schema
        .createTable('core_blobs')
        .addColumn('hash', t.text, (c) => c.primaryKey())
        .addColumn('size', t.bigint, (c) => c.notNull())
        .addColumn('md5', t.text, (c) => c.notNull())
        .addColumn('location', t.text, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();
      // Reference counts per owner (a service): a blob lives while any owner counts it.
      await db.schema
        .createTable('core_blob_refs')
        .addColumn('owner', t.text, (c) => c.notNull())
        .addColumn('hash', t.text, (c) => c.notNull())
        .addColumn('refs', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('core_blob_refs_pk', ['owner', 'hash'])
        .execute();
      await db.schema.createIndex('core_blob_refs_hash').on('core_blob_refs').column('hash').execute();
      await db.schema
        .createTable('core_blob_chunks')
        .addColumn('hash', t.text, (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('data', t.bytes, (c) => c.notNull())
        .addPrimaryKeyConstraint('core_blob_chunks_pk', ['hash', 'seq'])
        .execute();
      // Bytes of uploads still in progress (resumable sessions), in the database so any instance can continue them.
      await db.schema
        .createTable('core_blob_parts')
        .addColumn('owner', t.text, (c) => c.notNull())
        .addColumn('upload_id', t.text, (c) => c.notNull())
        .addColumn('byte_offset', t.bigint, (c) => c.notNull())
        .addColumn('data', t.bytes, (c) => c.notNull())
        .addPrimaryKeyConstraint('core_blob_parts_pk', ['upload_id', 'byte_offset'])
        .execute();
    },
  },
};
