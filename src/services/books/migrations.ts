// Tables of the book library. The catalog's searched and filtered facts are real columns; the rest of a volume is one
// JSON document. Shelf contents name volumes by their public id, so reloading the catalog keeps every shelf.
import type { Kysely, Migration } from 'kysely';
import { columnTypes, withAutoId } from '../../core/db/dialect.ts';
import { createFullTextIndex, type FullTextIndex } from '../../core/db/fulltext.ts';
import { TEXT_FIELDS } from './domain/query.ts';

/** Title counts most, then authors, subjects and publisher (every volume of a source shares its publisher). */
export const VOLUME_INDEX: FullTextIndex = { name: 'books_volumes_fts', fields: [...TEXT_FIELDS], weights: [10, 6, 1, 2] };

export const TABLES = ['books_shelf_volumes', 'books_shelves', 'books_volume_lookups', VOLUME_INDEX.name, 'books_volumes'];

export const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await withAutoId(db, db.schema.createTable('books_volumes'))
        .addColumn('volume_id', t.text, (c) => c.notNull().unique())
        .addColumn('source', t.text, (c) => c.notNull())
        .addColumn('source_key', t.text, (c) => c.notNull())
        .addColumn('document', t.json, (c) => c.notNull())
        .addColumn('language', t.text, (c) => c.notNull())
        .addColumn('published', t.text, (c) => c.notNull())
        .addColumn('print_type', t.text, (c) => c.notNull())
        .addColumn('public_domain', t.bool, (c) => c.notNull())
        .addColumn('viewability', t.text, (c) => c.notNull())
        .addColumn('saleability', t.text, (c) => c.notNull())
        .addColumn('is_ebook', t.bool, (c) => c.notNull())
        .addColumn('epub', t.bool, (c) => c.notNull())
        .addColumn('loaded_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('books_volumes_published').on('books_volumes').columns(['published', 'id']).execute();

      await db.schema
        .createTable('books_volume_lookups')
        .addColumn('kind', t.text, (c) => c.notNull())
        .addColumn('value', t.text, (c) => c.notNull())
        .addColumn('volume_row', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('books_volume_lookups_pk', ['kind', 'value', 'volume_row'])
        .execute();
      await db.schema.createIndex('books_volume_lookups_row').on('books_volume_lookups').column('volume_row').execute();

      await createFullTextIndex(db, VOLUME_INDEX);

      // A row once the user's shelf was changed (or a change was tried: the row serialises changes); null columns
      // read as the shelf's defaults.
      await db.schema
        .createTable('books_shelves')
        .addColumn('user_id', t.text, (c) => c.notNull())
        .addColumn('shelf_id', 'integer', (c) => c.notNull())
        .addColumn('access', t.text)
        .addColumn('updated_at', t.bigint)
        .addColumn('volumes_updated_at', t.bigint)
        .addPrimaryKeyConstraint('books_shelves_pk', ['user_id', 'shelf_id'])
        .execute();

      await db.schema
        .createTable('books_shelf_volumes')
        .addColumn('user_id', t.text, (c) => c.notNull())
        .addColumn('shelf_id', 'integer', (c) => c.notNull())
        .addColumn('volume_id', t.text, (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('added_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('books_shelf_volumes_pk', ['user_id', 'shelf_id', 'volume_id'])
        .execute();
      await db.schema.createIndex('books_shelf_volumes_order').on('books_shelf_volumes').columns(['user_id', 'shelf_id', 'position']).execute();
      await db.schema.createIndex('books_shelf_volumes_volume').on('books_shelf_volumes').columns(['user_id', 'volume_id']).execute();
    },
  },
};
