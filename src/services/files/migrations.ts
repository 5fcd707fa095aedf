// Tables of the file storage. Queried fields are columns with indexes; the rest of a file lives in `extra` (JSON).
// files_ancestors is the closure of files_parents (every file is its own ancestor): access, trash propagation and
// listing read it instead of walking the folder graph.
import { sql, type Kysely, type Migration } from 'kysely';
import { columnTypes, dialectOf, withAutoId } from '../../core/db/dialect.ts';
import { MAX_CONTENT_TEXT, cutContentText } from './domain/search-text.ts';

/** SQLite: the trigram index of files_files.title_lower (`title contains`), kept by triggers, keyed by rowid. */
export const TITLE_TRIGRAMS = 'files_title_trigrams';

export const TABLES = [
  'files_labels',
  'files_views',
  'files_modifications',
  'files_replies',
  'files_comments',
  'files_properties',
  'files_revisions',
  'files_permissions',
  'files_ancestors',
  'files_parents',
  'files_uploads',
  'files_generated_ids',
  'files_changes',
  'files_drive_hidden',
  'files_drives',
  'files_files',
];

export const migrations: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('files_files')
        .addColumn('id', t.text, (c) => c.primaryKey())
        .addColumn('owner_email', t.text)
        .addColumn('drive_id', t.text)
        .addColumn('is_root', t.bool, (c) => c.notNull())
        .addColumn('title', t.text, (c) => c.notNull())
        .addColumn('title_lower', t.text, (c) => c.notNull())
        .addColumn('mime_type', t.text, (c) => c.notNull())
        .addColumn('description', t.text)
        .addColumn('starred', t.bool, (c) => c.notNull())
        .addColumn('hidden', t.bool, (c) => c.notNull())
        .addColumn('restricted', t.bool, (c) => c.notNull())
        .addColumn('trashed', t.bool, (c) => c.notNull())
        .addColumn('explicitly_trashed', t.bool, (c) => c.notNull())
        .addColumn('trashed_at', t.bigint)
        .addColumn('trashing_user', t.text)
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('modified_at', t.bigint, (c) => c.notNull())
        .addColumn('modified_by_me_at', t.bigint)
        .addColumn('last_modifying_email', t.text)
        .addColumn('version', t.bigint, (c) => c.notNull())
        .addColumn('blob_hash', t.text)
        .addColumn('file_size', t.bigint)
        .addColumn('md5', t.text)
        .addColumn('head_revision_id', t.text)
        .addColumn('original_filename', t.text)
        .addColumn('writers_can_share', t.bool, (c) => c.notNull())
        .addColumn('search_text', t.text, (c) => c.notNull())
        .addColumn('extra', t.json, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('files_files_owner').on('files_files').columns(['owner_email', 'modified_at']).execute();
      await db.schema.createIndex('files_files_drive').on('files_files').columns(['drive_id']).execute();
      await db.schema.createIndex('files_files_title').on('files_files').columns(['title_lower']).execute();

      await db.schema
        .createTable('files_parents')
        .addColumn('file_id', t.text, (c) => c.notNull())
        .addColumn('parent_id', t.text, (c) => c.notNull())
        .addPrimaryKeyConstraint('files_parents_pk', ['file_id', 'parent_id'])
        .execute();
      await db.schema.createIndex('files_parents_parent').on('files_parents').columns(['parent_id', 'file_id']).execute();
      await db.schema
        .createTable('files_ancestors')
        .addColumn('file_id', t.text, (c) => c.notNull())
        .addColumn('ancestor_id', t.text, (c) => c.notNull())
        .addPrimaryKeyConstraint('files_ancestors_pk', ['file_id', 'ancestor_id'])
        .execute();
      await db.schema.createIndex('files_ancestors_ancestor').on('files_ancestors').columns(['ancestor_id', 'file_id']).execute();

      // grantee: `user:<email>`, `group:<email>`, `domain:<domain>` or `anyone`. Every query reaches permissions
      // through a file id (the primary key); an index on grantee would tempt planners into scanning a user's grants.
      await db.schema
        .createTable('files_permissions')
        .addColumn('file_id', t.text, (c) => c.notNull())
        .addColumn('id', t.text, (c) => c.notNull())
        .addColumn('type', t.text, (c) => c.notNull())
        .addColumn('role', t.text, (c) => c.notNull())
        .addColumn('grantee', t.text, (c) => c.notNull())
        .addColumn('with_link', t.bool, (c) => c.notNull())
        .addColumn('expires_at', t.bigint)
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('version', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('files_permissions_pk', ['file_id', 'id'])
        .execute();

      await db.schema
        .createTable('files_revisions')
        .addColumn('file_id', t.text, (c) => c.notNull())
        .addColumn('id', t.text, (c) => c.notNull())
        .addColumn('seq', t.bigint, (c) => c.notNull())
        .addColumn('blob_hash', t.text, (c) => c.notNull())
        .addColumn('mime_type', t.text, (c) => c.notNull())
        .addColumn('original_filename', t.text)
        .addColumn('pinned', t.bool, (c) => c.notNull())
        .addColumn('published', t.bool, (c) => c.notNull())
        .addColumn('modified_at', t.bigint, (c) => c.notNull())
        .addColumn('modifying_email', t.text)
        .addPrimaryKeyConstraint('files_revisions_pk', ['file_id', 'id'])
        .execute();
      await db.schema.createIndex('files_revisions_seq').on('files_revisions').columns(['file_id', 'seq']).execute();

      await db.schema
        .createTable('files_properties')
        .addColumn('file_id', t.text, (c) => c.notNull())
        .addColumn('key', t.text, (c) => c.notNull())
        .addColumn('visibility', t.text, (c) => c.notNull())
        .addColumn('value', t.text, (c) => c.notNull())
        .addColumn('version', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('files_properties_pk', ['file_id', 'key', 'visibility'])
        .execute();
      await db.schema.createIndex('files_properties_kv').on('files_properties').columns(['key', 'value']).execute();

      await db.schema
        .createTable('files_comments')
        .addColumn('id', t.text, (c) => c.primaryKey())
        .addColumn('file_id', t.text, (c) => c.notNull())
        .addColumn('author_email', t.text, (c) => c.notNull())
        .addColumn('content', t.text, (c) => c.notNull())
        .addColumn('status', t.text, (c) => c.notNull())
        .addColumn('anchor', t.text)
        .addColumn('context', t.json)
        .addColumn('deleted', t.bool, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('modified_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('files_comments_file').on('files_comments').columns(['file_id', 'created_at']).execute();
      await db.schema
        .createTable('files_replies')
        .addColumn('id', t.text, (c) => c.primaryKey())
        .addColumn('comment_id', t.text, (c) => c.notNull())
        .addColumn('author_email', t.text, (c) => c.notNull())
        .addColumn('content', t.text, (c) => c.notNull())
        .addColumn('verb', t.text)
        .addColumn('deleted', t.bool, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('modified_at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('files_replies_comment').on('files_replies').columns(['comment_id', 'created_at']).execute();

      // The change log: one row per subject (`user:<email>` or `drive:<id>`) and file touched.
      await withAutoId(db, db.schema.createTable('files_changes'))
        .addColumn('subject', t.text, (c) => c.notNull())
        .addColumn('file_id', t.text)
        .addColumn('drive_id', t.text)
        .addColumn('change_type', t.text, (c) => c.notNull())
        .addColumn('at', t.bigint, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('files_changes_subject').on('files_changes').columns(['subject', 'id']).execute();

      await db.schema
        .createTable('files_drives')
        .addColumn('id', t.text, (c) => c.primaryKey())
        .addColumn('name', t.text, (c) => c.notNull())
        .addColumn('creator_email', t.text, (c) => c.notNull())
        .addColumn('request_id', t.text, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addColumn('extra', t.json, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('files_drives_request').on('files_drives').columns(['creator_email', 'request_id']).unique().execute();
      await db.schema
        .createTable('files_drive_hidden')
        .addColumn('drive_id', t.text, (c) => c.notNull())
        .addColumn('email', t.text, (c) => c.notNull())
        .addPrimaryKeyConstraint('files_drive_hidden_pk', ['drive_id', 'email'])
        .execute();

      await db.schema
        .createTable('files_uploads')
        .addColumn('id', t.text, (c) => c.primaryKey())
        .addColumn('email', t.text, (c) => c.notNull())
        .addColumn('file_id', t.text)
        .addColumn('request', t.json, (c) => c.notNull())
        .addColumn('content_type', t.text, (c) => c.notNull())
        .addColumn('total', t.bigint)
        .addColumn('received', t.bigint, (c) => c.notNull())
        .addColumn('expires_at', t.bigint, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('files_generated_ids')
        .addColumn('id', t.text, (c) => c.primaryKey())
        .addColumn('email', t.text, (c) => c.notNull())
        .addColumn('space', t.text, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('files_views')
        .addColumn('file_id', t.text, (c) => c.notNull())
        .addColumn('email', t.text, (c) => c.notNull())
        .addColumn('viewed_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('files_views_pk', ['file_id', 'email'])
        .execute();

      await db.schema
        .createTable('files_labels')
        .addColumn('file_id', t.text, (c) => c.notNull())
        .addColumn('label_id', t.text, (c) => c.notNull())
        .addColumn('revision', t.bigint, (c) => c.notNull())
        .addColumn('fields', t.json, (c) => c.notNull())
        .addPrimaryKeyConstraint('files_labels_pk', ['file_id', 'label_id'])
        .execute();
    },
  },
  // `title contains` is a substring match, which no B-tree serves: without this every listing with it read every row.
  // SQLite: an FTS5 trigram table over title_lower (external content, so only the index is stored), kept by triggers
  // so every write path (bulk seeding, archive import, reset) keeps it exact; a query narrows to its candidates and
  // still checks the LIKE. PostgreSQL: a GIN trigram index that LIKE uses as it is, when pg_trgm is installed.
  '0002_title_trigrams': {
    async up(db: Kysely<any>) {
      if (dialectOf(db) === 'sqlite') {
        const fts = sql.id(TITLE_TRIGRAMS);
        await sql`create virtual table ${fts} using fts5(title_lower, content = 'files_files', content_rowid = 'rowid', tokenize = 'trigram')`.execute(db);
        await sql`create trigger files_title_trigrams_ai after insert on files_files begin
          insert into ${fts} (rowid, title_lower) values (new.rowid, new.title_lower); end`.execute(db);
        await sql`create trigger files_title_trigrams_ad after delete on files_files begin
          insert into ${fts} (${fts}, rowid, title_lower) values ('delete', old.rowid, old.title_lower); end`.execute(db);
        await sql`create trigger files_title_trigrams_au after update of title_lower on files_files when old.title_lower is not new.title_lower begin
          insert into ${fts} (${fts}, rowid, title_lower) values ('delete', old.rowid, old.title_lower);
          insert into ${fts} (rowid, title_lower) values (new.rowid, new.title_lower); end`.execute(db);
        await sql`insert into ${fts} (${fts}) values ('rebuild')`.execute(db);
        return;
      }
      // Only an extension already installed is used: creating one is an operator's decision (and a schema-scoped
      // install would go with that schema).
      const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
      if (!rows[0]) return;
      await sql`create index files_files_title_trgm on files_files using gin (title_lower ${sql.id(rows[0].schema, 'gin_trgm_ops')})`.execute(db);
    },
  },
  // A file's content text was kept whole in `extra` (every byte of a 100 MB text file), and every read of the file
  // parsed it again: files.get of a 20 MB one took 42 ms. fullText searches only its first MAX_CONTENT_TEXT
  // characters, so only those are kept. Rows are read one at a time: each may hold hundreds of megabytes.
  '0003_content_text_cut': {
    async up(db: Kysely<any>) {
      const long = await db.selectFrom('files_files').select('id').where(sql<number>`length(extra)`, '>', MAX_CONTENT_TEXT).execute();
      for (const { id } of long) {
        const row = await db.selectFrom('files_files').select('extra').where('id', '=', id).executeTakeFirstOrThrow();
        const extra = JSON.parse(row.extra) as { contentText?: unknown };
        if (typeof extra.contentText !== 'string' || extra.contentText.length <= MAX_CONTENT_TEXT) continue;
        extra.contentText = cutContentText(extra.contentText);
        await db.updateTable('files_files').set({ extra: JSON.stringify(extra) }).where('id', '=', id).execute();
      }
    },
  },
  // `modifiedByMeDate` is per user in Drive: one column on the file gave the last modifier's date to whoever owned
  // it. Each user's last change is now a row of its own; the old column's date goes to the user it belonged to.
  '0004_modifications_per_user': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('files_modifications')
        .addColumn('file_id', t.text, (c) => c.notNull())
        .addColumn('email', t.text, (c) => c.notNull())
        .addColumn('modified_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('files_modifications_pk', ['file_id', 'email'])
        .execute();
      await sql`insert into files_modifications (file_id, email, modified_at)
        select id, last_modifying_email, modified_by_me_at from files_files
        where last_modifying_email is not null and modified_by_me_at is not null`.execute(db);
      await db.schema.alterTable('files_files').dropColumn('modified_by_me_at').execute();
    },
  },
  // The application data folder: every file has a space, inherited from its parents and never changed, and each
  // change remembers its file's space, so a feed read by space keeps the removals of files that are gone.
  '0005_spaces': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema.alterTable('files_files').addColumn('space', t.text, (c) => c.notNull().defaultTo('drive')).execute();
      await db.schema.alterTable('files_changes').addColumn('space', t.text, (c) => c.notNull().defaultTo('drive')).execute();
    },
  },
  // Drive's feed gives each changed item once, as its latest change: a newer change of an item replaces the older
  // ones in its subject's feed. Each change names its item (`file:<id>` or `drive:<id>`, as a drive's id is also its
  // root folder's), the changes an item's later ones replaced are dropped, and the index finds an item's changes.
  '0006_change_items': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema.alterTable('files_changes').addColumn('item', t.text, (c) => c.notNull().defaultTo('')).execute();
      await sql`update files_changes set item = case when change_type = 'drive' then 'drive:' || drive_id else 'file:' || file_id end`.execute(db);
      await db.schema.createIndex('files_changes_item').on('files_changes').columns(['subject', 'item', 'id']).execute();
      await sql`delete from files_changes where exists (select 1 from files_changes later
        where later.subject = files_changes.subject and later.item = files_changes.item and later.id > files_changes.id)`.execute(db);
    },
  },
};
