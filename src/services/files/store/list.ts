// files.list in SQL: the caller's visibility, the corpus, the compiled `q` and the order, one page at a time.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { dialectOf, type DialectName } from '../../../core/db/dialect.ts';
import { escapeLike, likeEscaped } from '../../../core/db/like.ts';
import { compileDriveQuery, type DateOperator, type DriveQueryTarget, type PropertyMatch, type QueryNode, type TextOperator } from '../domain/query/index.ts';
import { FOLDER, SHORTCUT } from '../domain/mime.ts';
import { TITLE_TRIGRAMS } from '../migrations.ts';
import type { OrderTerm } from '../domain/order-by.ts';
import { granteeKey } from '../domain/roles.ts';
import { resolveAlias, type Caller } from '../users.ts';
import type { Space } from '../domain/spaces.ts';
import { visibleTo } from './access.ts';
import { toRecord, type FileRecord } from './files.ts';

export interface ListRequest {
  caller: Caller;
  now: number;
  query?: QueryNode;
  order: OrderTerm[];
  /** 'user': My Drive and shared with me; 'drive': one shared drive; 'allDrives': both. */
  corpus: { kind: 'user'; includeDrives: boolean } | { kind: 'drive'; driveId: string } | { kind: 'allDrives' };
  /** The spaces listed: a file of any other space is left out. */
  spaces: Space[];
  offset: number;
  limit: number;
}

const like = (column: string, value: string): Expression<SqlBool> => likeEscaped(sql.ref(column), `%${escapeLike(value.toLowerCase())}%`);
const DATE_OPS: Record<DateOperator, string> = { '=': '=', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

/**
 * `title contains` on SQLite: the rows the trigram index names (every title holding the value, as trigrams are
 * folded alike on both sides), then the exact LIKE. A value under 3 characters has no trigram: LIKE alone.
 */
function titleContains(value: string, trigrams: boolean): Expression<SqlBool> {
  const exact = like('f.title_lower', value);
  if (!trigrams || [...value].length < 3) return exact;
  const phrase = `"${value.toLowerCase().replace(/"/g, '""')}"`;
  return sql<SqlBool>`(f.rowid in (select rowid from ${sql.id(TITLE_TRIGRAMS)} where ${sql.id(TITLE_TRIGRAMS)} match ${phrase}) and ${exact})`;
}

/**
 * A shortcut's target, kept in its `extra` document (JSON text on both databases); null for any other file. Only
 * shortcuts are looked into, so the condition stays two-valued and other rows' documents are not parsed.
 */
function shortcutTargetIs(dialect: DialectName, id: string): Expression<SqlBool> {
  const target = dialect === 'postgres' ? sql`(f.extra::jsonb -> 'shortcut' ->> 'targetId')` : sql`json_extract(f.extra, '$.shortcut.targetId')`;
  return sql<SqlBool>`(f.mime_type = ${SHORTCUT} and coalesce(${target}, '') = ${id})`;
}

/** The `q` leaves over alias `f` of files_files, for one caller (on SQLite the trigram index of titles is there). */
export function queryTarget(w: ExpressionBuilder<any, any>, caller: Caller, now: number, dialect: DialectName): DriveQueryTarget {
  const trigrams = dialect === 'sqlite';
  const text = (column: string, lowerColumn: string, op: TextOperator, value: string): Expression<SqlBool> => {
    if (op === 'contains') return column === 'f.title' ? titleContains(value, trigrams) : like(lowerColumn, value);
    return w(column, op === '=' ? '=' : '<>', value);
  };
  const flag = (column: string, value: boolean) => w(column, '=', value ? 1 : 0);
  const granted = (email: string, roles: string[]) =>
    w.exists(
      w
        .selectFrom('files_ancestors as qa')
        .innerJoin('files_permissions as qp', 'qp.file_id', 'qa.ancestor_id')
        .select(sql.lit(1).as('one'))
        .whereRef('qa.file_id', '=', 'f.id')
        .where('qp.grantee', '=', granteeKey('user', email))
        .where('qp.role', 'in', roles)
        .where((x) => x.or([x('qp.expires_at', 'is', null), x('qp.expires_at', '>', now)])),
    );
  const personal = caller.keys.filter((k) => k.startsWith('user:') || k.startsWith('group:'));
  // `'me' in owners` (and writers, readers) names the caller, as in Drive.
  const person = (email: string) => (email === 'me' ? caller.email : email.toLowerCase());
  return {
    title: (op, value) => text('f.title', 'f.title_lower', op, value),
    fullText: (value) => like('f.search_text', value.replace(/^"(.*)"$/s, '$1')),
    mimeType: (op, value) => text('f.mime_type', 'f.mime_type', op, value),
    modifiedDate: (op, ms) => w('f.modified_at', DATE_OPS[op] as any, ms),
    lastViewedByMeDate: (op, ms) =>
      w.exists(
        w
          .selectFrom('files_views as qv')
          .select(sql.lit(1).as('one'))
          .whereRef('qv.file_id', '=', 'f.id')
          .where('qv.email', '=', caller.email)
          .where('qv.viewed_at', DATE_OPS[op] as any, ms),
      ),
    trashed: (v) => flag('f.trashed', v),
    starred: (v) => flag('f.starred', v),
    hidden: (v) => flag('f.hidden', v),
    sharedWithMe: () =>
      w.and([
        sql<SqlBool>`coalesce(f.owner_email, '') <> ${caller.email}`,
        w.exists(
          w
            .selectFrom('files_permissions as qs')
            .select(sql.lit(1).as('one'))
            .whereRef('qs.file_id', '=', 'f.id')
            .where('qs.grantee', 'in', personal)
            .where('qs.role', '<>', 'owner'),
        ),
      ]),
    inParents: (id) =>
      w.exists(
        w
          .selectFrom('files_parents as qpar')
          .select(sql.lit(1).as('one'))
          .whereRef('qpar.file_id', '=', 'f.id')
          .where('qpar.parent_id', '=', resolveAlias(caller, id)),
      ),
    inOwners: (email) => sql<SqlBool>`coalesce(f.owner_email, '') = ${person(email)}`,
    inWriters: (email) => granted(person(email), ['owner', 'organizer', 'fileOrganizer', 'writer']),
    inReaders: (email) => granted(person(email), ['owner', 'organizer', 'fileOrganizer', 'writer', 'commenter', 'reader']),
    propertiesHas: (m: PropertyMatch) => {
      let q = w.selectFrom('files_properties as qprop').select(sql.lit(1).as('one')).whereRef('qprop.file_id', '=', 'f.id').where('qprop.key', '=', m.key).where('qprop.value', '=', m.value);
      if (m.visibility) q = q.where('qprop.visibility', '=', m.visibility);
      return w.exists(q);
    },
    shortcutTo: (id) => shortcutTargetIs(dialect, id),
  };
}

/** The caller's own dates: a file they never viewed (or changed) sorts as the oldest, alike on both databases. */
const PER_USER_DATES = new Set<OrderTerm['key']>(['lastViewedByMeDate', 'modifiedByMeDate']);

const ORDER_COLUMNS: Record<OrderTerm['key'], string> = {
  createdDate: 'f.created_at',
  folder: 'is_folder',
  lastViewedByMeDate: 'viewed_at',
  modifiedByMeDate: 'modified_by_me_at',
  modifiedDate: 'f.modified_at',
  quotaBytesUsed: 'f.file_size',
  recency: 'f.modified_at',
  sharedWithMeDate: 'f.created_at',
  starred: 'f.starred',
  title: 'f.title_lower',
  title_natural: 'f.title_lower',
};

/** One page of the caller's files (limit + 1 rows are read to know whether another page follows). */
export function listQuery(db: Kysely<any>, r: ListRequest) {
  const { caller, now } = r;
  let q = db
    .selectFrom('files_files as f')
    .selectAll('f')
    .select(sql<number>`case when f.mime_type = ${FOLDER} then 1 else 0 end`.as('is_folder'))
    .select((s) => s.selectFrom('files_views as ov').select('ov.viewed_at').whereRef('ov.file_id', '=', 'f.id').where('ov.email', '=', caller.email).as('viewed_at'))
    .$if(r.order.some((t) => t.key === 'modifiedByMeDate'), (s) =>
      s.select((o) => o.selectFrom('files_modifications as om').select('om.modified_at').whereRef('om.file_id', '=', 'f.id').where('om.email', '=', caller.email).as('modified_by_me_at')),
    )
    .where('f.is_root', '=', 0)
    .where('f.space', 'in', r.spaces)
    .where((w) => visibleTo(w, caller.email, caller.keys, now));
  // My Drive items are most rows: written so that no index on drive_id is chosen for them (a scan is cheaper).
  if (r.corpus.kind === 'user' && !r.corpus.includeDrives) q = q.where(sql<SqlBool>`coalesce(f.drive_id, '') = ''`);
  else if (r.corpus.kind === 'drive') q = q.where('f.drive_id', '=', r.corpus.driveId).where('f.id', '<>', r.corpus.driveId);
  else q = q.where(sql<SqlBool>`coalesce(f.drive_id, '') <> f.id`);
  if (r.query) {
    const node = r.query;
    const dialect = dialectOf(db);
    q = q.where((w) => compileDriveQuery(node, queryTarget(w, caller, now, dialect)));
  }
  // Without an orderBy, creation order: it has no index, so SQLite scans the table once and sorts the few matches
  // (walking the primary-key index instead costs a lookup per row).
  for (const term of r.order.length ? r.order : [{ key: 'createdDate' as const, desc: false }]) {
    const column = ORDER_COLUMNS[term.key];
    // `folder` puts folders first; the other keys read ascending unless `desc`.
    const desc = term.key === 'folder' ? !term.desc : term.desc;
    // PostgreSQL reads an output column's alias only bare, so the nulls' place is said, not computed.
    if (PER_USER_DATES.has(term.key)) q = q.orderBy(sql`${sql.ref(column)} ${sql.raw(desc ? 'desc nulls last' : 'asc nulls first')}`);
    else q = q.orderBy(sql.ref(column), desc ? 'desc' : 'asc');
  }
  return q.orderBy('f.id').offset(r.offset).limit(r.limit + 1);
}

export const listRows = (rows: any[]): FileRecord[] => rows.map(toRecord);
