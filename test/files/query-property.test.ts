import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { Kysely, SqliteDialect, expressionBuilder, type Expression, type SqlBool } from 'kysely';
import {
  DriveQueryError,
  compileDriveQuery,
  parseDriveQuery,
  printDriveQuery,
  type DateOperator,
  type DriveQueryTarget,
  type PropertyMatch,
  type QueryNode,
  type TextOperator,
} from '../../src/services/files/domain/query/index.ts';

interface Vocabulary {
  text: fc.Arbitrary<string>;
  mime: fc.Arbitrary<string>;
  id: fc.Arbitrary<string>;
  email: fc.Arbitrary<string>;
  epochMs: fc.Arbitrary<number>;
}

/** Records with Object.prototype, so deepEqual compares them with the parser's output. */
const plainRecord = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) => fc.record(model, { noNullPrototype: true });

const TEXT_OPS: TextOperator[] = ['=', '!=', 'contains'];
const DATE_OPS: DateOperator[] = ['=', '!=', '<', '<=', '>', '>='];

/** Random well-formed query trees over the given values; depth stays far below the parser's nesting limit. */
function queryTree(vocabulary: Vocabulary): fc.Arbitrary<QueryNode> {
  const { text, mime, id, email, epochMs } = vocabulary;
  const propertyMatch = fc
    .record({ key: text, value: text, visibility: fc.option(fc.constantFrom('PRIVATE' as const, 'PUBLIC' as const), { nil: undefined }) })
    .map(({ key, value, visibility }): PropertyMatch => (visibility === undefined ? { key, value } : { key, value, visibility }));
  const leaf: fc.Arbitrary<QueryNode> = fc.oneof(
    plainRecord({ kind: fc.constant('title' as const), op: fc.constantFrom(...TEXT_OPS), value: text }),
    plainRecord({ kind: fc.constant('fullText' as const), value: text }),
    plainRecord({ kind: fc.constant('mimeType' as const), op: fc.constantFrom(...TEXT_OPS), value: mime }),
    plainRecord({ kind: fc.constantFrom('modifiedDate' as const, 'lastViewedByMeDate' as const), op: fc.constantFrom(...DATE_OPS), epochMs }),
    plainRecord({ kind: fc.constantFrom('trashed' as const, 'starred' as const, 'hidden' as const, 'sharedWithMe' as const), value: fc.boolean() }),
    plainRecord({ kind: fc.constant('in' as const), collection: fc.constant('parents' as const), value: id }),
    plainRecord({ kind: fc.constant('in' as const), collection: fc.constantFrom('owners' as const, 'writers' as const, 'readers' as const), value: email }),
    plainRecord({ kind: fc.constant('propertiesHas' as const), match: propertyMatch }),
    plainRecord({ kind: fc.constant('shortcutTarget' as const), op: fc.constantFrom('=' as const, '!=' as const), value: id }),
  );
  const { node } = fc.letrec<{ node: QueryNode }>((tie) => ({
    node: fc.oneof(
      { maxDepth: 4, depthSize: 'small' },
      leaf,
      plainRecord({ kind: fc.constantFrom('and' as const, 'or' as const), operands: fc.array(tie('node'), { minLength: 2, maxLength: 4 }) }),
      plainRecord({ kind: fc.constant('not' as const), operand: tie('node') }),
    ),
  }));
  return node;
}

const MIN_DATE = -62_167_219_200_000; // 0000-01-01T00:00:00Z
const MAX_DATE = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

const anyValues: Vocabulary = {
  text: fc.string({ unit: 'grapheme', maxLength: 12 }),
  mime: fc.string({ unit: 'grapheme-ascii', maxLength: 20 }),
  id: fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
  email: fc.emailAddress(),
  epochMs: fc.integer({ min: MIN_DATE, max: MAX_DATE }),
};

function parsesOrRefuses(q: string): QueryNode | null {
  try {
    return parseDriveQuery(q);
  } catch (err) {
    if (err instanceof DriveQueryError) return null;
    throw err;
  }
}

describe('q grammar properties', () => {
  it('prints every well-formed tree to text that parses back to the same tree', () => {
    fc.assert(
      fc.property(queryTree(anyValues), (node) => {
        assert.deepEqual(parseDriveQuery(printDriveQuery(node)), node);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses garbage only with DriveQueryError, and what it accepts prints back stably', () => {
    const queryAlphabet = fc.constantFrom(...`'\\(){}=!<> \tandornotintitlecontainstrueFALSEhas.`.split(''), "'a'", ' and ', ' or ', 'not ', 'title', ' = ', 'trashed', 'sharedWithMe', ' in parents', 'properties has', "key='k'");
    const garbage = fc.oneof(
      fc.string({ unit: queryAlphabet, maxLength: 30 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      // A valid query with a random slice cut out and random text put in its place.
      fc
        .tuple(queryTree(anyValues).map(printDriveQuery), fc.nat(), fc.nat(), fc.string({ unit: queryAlphabet, maxLength: 4 }))
        .map(([q, from, length, insert]) => {
          const start = from % (q.length + 1);
          return q.slice(0, start) + insert + q.slice(start + (length % 6));
        }),
    );
    fc.assert(
      fc.property(garbage, (q) => {
        const node = parsesOrRefuses(q);
        if (node !== null) assert.deepEqual(parseDriveQuery(printDriveQuery(node)), node);
      }),
      { numRuns: 2000 },
    );
  });
});

// ---- compiled SQL agrees with an independent evaluation of the tree over the same rows ----

interface FileRow {
  id: string;
  title: string;
  description: string;
  mimeType: string;
  modifiedDate: number;
  lastViewedByMeDate: number | null;
  trashed: boolean;
  starred: boolean;
  hidden: boolean;
  sharedWithMe: boolean;
  parents: string[];
  roles: { email: string; role: 'owner' | 'writer' | 'reader' }[];
  properties: { key: string; value: string; visibility: 'PRIVATE' | 'PUBLIC' }[];
  /** The file a shortcut points at; null for other files. */
  shortcutTarget: string | null;
}

interface Tables {
  files: { id: string; title: string; description: string; mime_type: string; modified_date: number; last_viewed: number | null; trashed: number; starred: number; hidden: number; shared_with_me: number; shortcut_target: string | null };
  parents: { file_id: string; parent_id: string };
  roles: { file_id: string; email: string; role: string };
  properties: { file_id: string; key: string; value: string; visibility: string };
}

// Few distinct values, with quotes, backslashes and case differences, so that terms often match.
const TITLES = ['Alpha', 'alpha beta', "it's", 'back\\slash', 'Gamma', ''];
const WORDS = ['a', 'AL', 'beta', "'", '\\', 'x', ''];
const MIMES = ['text/plain', 'text/html', 'image/png', 'application/vnd.google-apps.folder'];
const IDS = ['root', 'f1', 'f2'];
const EMAILS = ['ann@example.org', 'bob@example.org', 'cy@example.org'];
const DATES = [Date.UTC(2020, 0, 1), Date.UTC(2021, 5, 1, 12), Date.UTC(2022, 11, 31, 23, 59, 59, 999)];
const KEYS = ['k', 'mass', "o'k"];

const smallValues: Vocabulary = {
  text: fc.constantFrom(...TITLES, ...WORDS, ...KEYS),
  mime: fc.constantFrom(...MIMES, 'text', 'PNG'),
  id: fc.constantFrom(...IDS),
  email: fc.constantFrom(...EMAILS),
  epochMs: fc.constantFrom(...DATES, DATES[1] + 1),
};

const fileRow = (id: string): fc.Arbitrary<FileRow> =>
  plainRecord({
    id: fc.constant(id),
    title: fc.constantFrom(...TITLES),
    description: fc.constantFrom(...WORDS, 'gamma ray'),
    mimeType: fc.constantFrom(...MIMES),
    modifiedDate: fc.constantFrom(...DATES),
    lastViewedByMeDate: fc.option(fc.constantFrom(...DATES), { nil: null }),
    trashed: fc.boolean(),
    starred: fc.boolean(),
    hidden: fc.boolean(),
    sharedWithMe: fc.boolean(),
    parents: fc.uniqueArray(fc.constantFrom(...IDS), { maxLength: 2 }),
    roles: fc.uniqueArray(plainRecord({ email: fc.constantFrom(...EMAILS), role: fc.constantFrom('owner' as const, 'writer' as const, 'reader' as const) }), {
      maxLength: 3,
      selector: (r) => r.email,
    }),
    properties: fc.uniqueArray(plainRecord({ key: fc.constantFrom(...KEYS), value: fc.constantFrom(...TITLES, ...KEYS), visibility: fc.constantFrom('PRIVATE' as const, 'PUBLIC' as const) }), {
      maxLength: 3,
      selector: (p) => `${p.key}/${p.visibility}`,
    }),
    shortcutTarget: fc.option(fc.constantFrom(...IDS), { nil: null }),
  });

const dataset = fc.integer({ min: 0, max: 8 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => fileRow(`file${i}`))));

const WRITER_ROLES = ['owner', 'writer'];
const READER_ROLES = ['owner', 'writer', 'reader'];

function sqlTarget(): DriveQueryTarget {
  const eb = expressionBuilder<Tables, 'files'>();
  const text = (column: 'files.title' | 'files.mime_type', op: TextOperator, value: string): Expression<SqlBool> =>
    op === 'contains' ? eb(eb.fn('instr', [eb.fn('lower', [column]), eb.fn('lower', [eb.val(value)])]), '>', 0) : eb(column, op === '=' ? '=' : '!=', value);
  const role = (email: string, roles: string[]) =>
    eb.exists(eb.selectFrom('roles').select('roles.email').whereRef('roles.file_id', '=', 'files.id').where('roles.email', '=', email).where('roles.role', 'in', roles));
  return {
    title: (op, value) => text('files.title', op, value),
    mimeType: (op, value) => text('files.mime_type', op, value),
    // Title and description joined by a space, as the reference evaluator joins them.
    fullText: (value) => eb(eb.fn('instr', [eb.fn('lower', [eb(eb('files.title', '||', eb.val(' ')), '||', eb.ref('files.description'))]), eb.fn('lower', [eb.val(value)])]), '>', 0),
    modifiedDate: (op, epochMs) => eb('files.modified_date', op, epochMs),
    lastViewedByMeDate: (op, epochMs) => eb.and([eb('files.last_viewed', 'is not', null), eb('files.last_viewed', op, epochMs)]),
    trashed: (value) => eb('files.trashed', '=', value ? 1 : 0),
    starred: (value) => eb('files.starred', '=', value ? 1 : 0),
    hidden: (value) => eb('files.hidden', '=', value ? 1 : 0),
    sharedWithMe: () => eb('files.shared_with_me', '=', 1),
    inParents: (id) => eb.exists(eb.selectFrom('parents').select('parents.parent_id').whereRef('parents.file_id', '=', 'files.id').where('parents.parent_id', '=', id)),
    inOwners: (email) => role(email, ['owner']),
    inWriters: (email) => role(email, WRITER_ROLES),
    inReaders: (email) => role(email, READER_ROLES),
    propertiesHas: ({ key, value, visibility }) => {
      let match = eb.selectFrom('properties').select('properties.key').whereRef('properties.file_id', '=', 'files.id').where('properties.key', '=', key).where('properties.value', '=', value);
      if (visibility !== undefined) match = match.where('properties.visibility', '=', visibility);
      return eb.exists(match);
    },
    shortcutTo: (id) => eb.and([eb('files.shortcut_target', 'is not', null), eb('files.shortcut_target', '=', id)]),
  };
}

/** The meaning of a tree for one row, written without SQL as the oracle the compiled query must agree with. */
function matches(node: QueryNode, row: FileRow): boolean {
  const contains = (haystack: string, needle: string) => haystack.toLowerCase().includes(needle.toLowerCase());
  const compareText = (actual: string, op: TextOperator, value: string) => (op === 'contains' ? contains(actual, value) : (actual === value) === (op === '='));
  const compareDate = (actual: number, op: DateOperator, value: number) =>
    ({ '=': actual === value, '!=': actual !== value, '<': actual < value, '<=': actual <= value, '>': actual > value, '>=': actual >= value })[op];
  const hasRole = (email: string, roles: string[]) => row.roles.some((r) => r.email === email && roles.includes(r.role));
  switch (node.kind) {
    case 'and':
      return node.operands.every((operand) => matches(operand, row));
    case 'or':
      return node.operands.some((operand) => matches(operand, row));
    case 'not':
      return !matches(node.operand, row);
    case 'title':
      return compareText(row.title, node.op, node.value);
    case 'mimeType':
      return compareText(row.mimeType, node.op, node.value);
    case 'fullText':
      return contains(`${row.title} ${row.description}`, node.value);
    case 'modifiedDate':
      return compareDate(row.modifiedDate, node.op, node.epochMs);
    case 'lastViewedByMeDate':
      return row.lastViewedByMeDate !== null && compareDate(row.lastViewedByMeDate, node.op, node.epochMs);
    case 'trashed':
    case 'starred':
    case 'hidden':
    case 'sharedWithMe':
      return row[node.kind] === node.value;
    case 'in':
      if (node.collection === 'parents') return row.parents.includes(node.value);
      return hasRole(node.value, node.collection === 'owners' ? ['owner'] : node.collection === 'writers' ? WRITER_ROLES : READER_ROLES);
    case 'propertiesHas': {
      const { key, value, visibility } = node.match;
      return row.properties.some((p) => p.key === key && p.value === value && (visibility === undefined || p.visibility === visibility));
    }
    case 'shortcutTarget':
      return (row.shortcutTarget === node.value) === (node.op === '=');
  }
}

describe('compiled q against SQLite', () => {
  let db: Kysely<Tables>;

  before(async () => {
    db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    await db.schema
      .createTable('files')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('mime_type', 'text', (c) => c.notNull())
      .addColumn('modified_date', 'integer', (c) => c.notNull())
      .addColumn('last_viewed', 'integer')
      .addColumn('trashed', 'integer', (c) => c.notNull())
      .addColumn('starred', 'integer', (c) => c.notNull())
      .addColumn('hidden', 'integer', (c) => c.notNull())
      .addColumn('shared_with_me', 'integer', (c) => c.notNull())
      .addColumn('shortcut_target', 'text')
      .execute();
    await db.schema.createTable('parents').addColumn('file_id', 'text').addColumn('parent_id', 'text').execute();
    await db.schema.createTable('roles').addColumn('file_id', 'text').addColumn('email', 'text').addColumn('role', 'text').execute();
    await db.schema.createTable('properties').addColumn('file_id', 'text').addColumn('key', 'text').addColumn('value', 'text').addColumn('visibility', 'text').execute();
  });

  after(async () => {
    await db.destroy();
  });

  async function load(rows: FileRow[]) {
    for (const table of ['files', 'parents', 'roles', 'properties'] as const) await db.deleteFrom(table).execute();
    for (const row of rows) {
      await db
        .insertInto('files')
        .values({
          id: row.id,
          title: row.title,
          description: row.description,
          mime_type: row.mimeType,
          modified_date: row.modifiedDate,
          last_viewed: row.lastViewedByMeDate,
          trashed: Number(row.trashed),
          starred: Number(row.starred),
          hidden: Number(row.hidden),
          shared_with_me: Number(row.sharedWithMe),
          shortcut_target: row.shortcutTarget,
        })
        .execute();
      for (const parent of row.parents) await db.insertInto('parents').values({ file_id: row.id, parent_id: parent }).execute();
      for (const r of row.roles) await db.insertInto('roles').values({ file_id: row.id, ...r }).execute();
      for (const p of row.properties) await db.insertInto('properties').values({ file_id: row.id, ...p }).execute();
    }
  }

  async function select(node: QueryNode): Promise<string[]> {
    const rows = await db.selectFrom('files').select('files.id').where(compileDriveQuery(node, sqlTarget())).orderBy('files.id').execute();
    return rows.map((r) => r.id);
  }

  it('selects exactly the rows the tree matches, for text that went through the parser', async () => {
    await fc.assert(
      fc.asyncProperty(dataset, queryTree(smallValues), async (rows, node) => {
        await load(rows);
        const parsed = parseDriveQuery(printDriveQuery(node));
        const expected = rows.filter((row) => matches(parsed, row)).map((row) => row.id).sort();
        assert.deepEqual(await select(parsed), expected);
      }),
      { numRuns: 300 },
    );
  });

  it('answers a hand-written query as expected', async () => {
    const base = { description: '', mimeType: 'text/plain', modifiedDate: DATES[0], lastViewedByMeDate: null, trashed: false, starred: false, hidden: false, sharedWithMe: false, roles: [], properties: [], shortcutTarget: null };
    await load([
      { ...base, id: 'a', title: "it's", parents: ['root'], starred: true },
      { ...base, id: 'b', title: 'Alpha', parents: ['f1'], trashed: true },
      { ...base, id: 'c', title: 'alpha beta', parents: ['root'], properties: [{ key: 'mass', value: '1.3kg', visibility: 'PRIVATE' }] },
    ]);
    assert.deepEqual(await select(parseDriveQuery("'root' in parents and not trashed = true and title contains 'ALPHA'")), ['c']);
    assert.deepEqual(await select(parseDriveQuery("title = 'it\\'s' or trashed = true")), ['a', 'b']);
    assert.deepEqual(await select(parseDriveQuery("properties has { key='mass' and value='1.3kg' and visibility='PRIVATE' }")), ['c']);
    assert.deepEqual(await select(parseDriveQuery("properties has { key='mass' and value='1.3kg' and visibility='PUBLIC' }")), []);
    assert.deepEqual(await select(parseDriveQuery('not (starred = true or trashed = true)')), ['c']);
    assert.deepEqual(await select(parseDriveQuery('sharedWithMe = false and lastViewedByMeDate != \'2020-01-01\'')), []);
  });
});
