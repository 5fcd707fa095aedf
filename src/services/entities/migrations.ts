// The knowledge graph: one row per entity (its document) and facts about the graph. The first version also kept a
// term index in tables; search now runs on an index in memory built from the documents, so 0002 drops them and
// keeps a compact copy of what the index needs beside each document.
import { sql, type Kysely, type Migration } from 'kysely';
import { columnTypes, dialectOf } from '../../core/db/dialect.ts';

export const TABLES = ['entities_entities', 'entities_meta'];

export const migrations: Record<string, Migration> = {
  '0001_entities': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('entities_entities')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('doc', t.json, (c) => c.notNull())
        .addColumn('popularity', t.real, (c) => c.notNull())
        .addColumn('updated_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('entities_terms')
        // Byte-order comparison on PostgreSQL too, so prefix ranges match SQLite's and use the index.
        .addColumn('term', 'text', (c) => (dialectOf(db) === 'postgres' ? c.notNull().modifyFront(sql`collate "C"`) : c.notNull()))
        .addColumn('entity_id', 'text', (c) => c.notNull().references('entities_entities.id').onDelete('cascade'))
        .addColumn('lang', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('entities_terms_pk', ['term', 'entity_id', 'lang'])
        .execute();
      await db.schema.createIndex('entities_terms_entity').on('entities_terms').column('entity_id').execute();
      await db.schema
        .createTable('entities_types')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'text', (c) => c.notNull().references('entities_entities.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('entities_types_pk', ['type', 'entity_id'])
        .execute();
      await db.schema.createIndex('entities_types_entity').on('entities_types').column('entity_id').execute();
    },
  },
  '0002_memory_index': {
    async up(db: Kysely<any>) {
      await db.schema.dropTable('entities_terms').execute();
      await db.schema.dropTable('entities_types').execute();
      // What the index needs of each entity (types, names, aliases, popularity), so a start reads far less than the
      // documents; rows without it are indexed from their document.
      await db.schema.alterTable('entities_entities').addColumn('terms', 'text').execute();
      await db.schema
        .createTable('entities_meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  },
};
