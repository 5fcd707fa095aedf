import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DriveQueryError, parseDriveQuery, printDriveQuery, type QueryNode } from '../../src/services/files/domain/query/index.ts';

const title = (value: string): QueryNode => ({ kind: 'title', op: '=', value });

function refuses(q: string, position: number, message: RegExp) {
  assert.throws(
    () => parseDriveQuery(q),
    (err: unknown) => err instanceof DriveQueryError && err.position === position && message.test(err.message) && err.message.includes(`position ${position}`),
    `${q} should fail at ${position} with ${message}`,
  );
}

describe('parseDriveQuery terms', () => {
  it('reads title and mimeType with =, != and contains', () => {
    assert.deepEqual(parseDriveQuery("title = 'a'"), { kind: 'title', op: '=', value: 'a' });
    assert.deepEqual(parseDriveQuery("title != 'a'"), { kind: 'title', op: '!=', value: 'a' });
    assert.deepEqual(parseDriveQuery("title contains 'rep'"), { kind: 'title', op: 'contains', value: 'rep' });
    assert.deepEqual(parseDriveQuery("mimeType = 'application/vnd.google-apps.folder'"), { kind: 'mimeType', op: '=', value: 'application/vnd.google-apps.folder' });
    assert.deepEqual(parseDriveQuery("mimeType != 'text/plain'"), { kind: 'mimeType', op: '!=', value: 'text/plain' });
    assert.deepEqual(parseDriveQuery("mimeType contains 'image/'"), { kind: 'mimeType', op: 'contains', value: 'image/' });
  });

  it('reads shortcutDetails.targetId with = and != only', () => {
    assert.deepEqual(parseDriveQuery("shortcutDetails.targetId = 'f1'"), { kind: 'shortcutTarget', op: '=', value: 'f1' });
    assert.deepEqual(parseDriveQuery("shortcutDetails.targetId != 'f1'"), { kind: 'shortcutTarget', op: '!=', value: 'f1' });
    refuses("shortcutDetails.targetId contains 'f'", 25, /operator 'contains' is not supported for shortcutDetails.targetId/);
    refuses('shortcutDetails.targetId = f1', 27, /shortcutDetails.targetId needs a quoted string/);
    refuses("shortcutDetails.mimeType = 'x'", 0, /unknown search term 'shortcutDetails.mimeType'/);
  });

  it('reads fullText contains only', () => {
    assert.deepEqual(parseDriveQuery("fullText contains '\"exact phrase\"'"), { kind: 'fullText', value: '"exact phrase"' });
    refuses("fullText = 'x'", 9, /operator '=' is not supported for fullText/);
  });

  it('reads dates with every comparison, defaulting to UTC', () => {
    for (const op of ['=', '!=', '<', '<=', '>', '>='] as const) {
      assert.deepEqual(parseDriveQuery(`modifiedDate ${op} '2012-06-04T12:00:00'`), { kind: 'modifiedDate', op, epochMs: Date.UTC(2012, 5, 4, 12) });
    }
    assert.deepEqual(parseDriveQuery("lastViewedByMeDate > '2012-06-04T12:00:00.25+02:00'"), { kind: 'lastViewedByMeDate', op: '>', epochMs: Date.UTC(2012, 5, 4, 10, 0, 0, 250) });
    assert.deepEqual(parseDriveQuery("modifiedDate < '2012-06-04'"), { kind: 'modifiedDate', op: '<', epochMs: Date.UTC(2012, 5, 4) });
    assert.deepEqual(parseDriveQuery("modifiedDate < '2012-06-04T12:00:00.123456789Z'"), { kind: 'modifiedDate', op: '<', epochMs: Date.UTC(2012, 5, 4, 12, 0, 0, 123) });
    refuses("modifiedDate > '2012-02-30T00:00:00'", 15, /modifiedDate needs a quoted RFC 3339 date-time, found '2012-02-30T00:00:00'/);
    refuses("modifiedDate > 'yesterday'", 15, /RFC 3339/);
    refuses('modifiedDate > 2012', 15, /RFC 3339 date-time, found '2012'/);
    refuses("modifiedDate contains '2012-01-01'", 13, /operator 'contains' is not supported for modifiedDate/);
  });

  it('reads trashed, starred and hidden as booleans, folding != into the value', () => {
    assert.deepEqual(parseDriveQuery('trashed = true'), { kind: 'trashed', value: true });
    assert.deepEqual(parseDriveQuery('trashed != true'), { kind: 'trashed', value: false });
    assert.deepEqual(parseDriveQuery('starred = FALSE'), { kind: 'starred', value: false });
    assert.deepEqual(parseDriveQuery('hidden != false'), { kind: 'hidden', value: true });
    refuses("trashed = 'true'", 10, /trashed compares with unquoted true or false, found a quoted string/);
    refuses('starred < true', 8, /operator '<' is not supported for starred/);
  });

  it('reads sharedWithMe bare or compared', () => {
    assert.deepEqual(parseDriveQuery('sharedWithMe'), { kind: 'sharedWithMe', value: true });
    assert.deepEqual(parseDriveQuery('sharedWithMe = false'), { kind: 'sharedWithMe', value: false });
    assert.deepEqual(parseDriveQuery('sharedWithMe and starred = true'), {
      kind: 'and',
      operands: [{ kind: 'sharedWithMe', value: true }, { kind: 'starred', value: true }],
    });
  });

  it('reads membership in parents, owners, writers and readers', () => {
    for (const collection of ['parents', 'owners', 'writers', 'readers'] as const) {
      assert.deepEqual(parseDriveQuery(`'x@example.org' in ${collection}`), { kind: 'in', collection, value: 'x@example.org' });
    }
    assert.deepEqual(parseDriveQuery("'root' IN parents"), { kind: 'in', collection: 'parents', value: 'root' });
    refuses("'a' in folders", 7, /expected one of parents, owners, writers, readers after 'in', found 'folders'/);
    refuses("'a' = title", 4, /expected 'in' after a quoted value/);
    refuses("parents = 'a'", 0, /parents is used as '<value>' in parents/);
  });

  it('reads properties has with key, value and optional visibility in any order', () => {
    assert.deepEqual(parseDriveQuery("properties has { key='mass' and value='1.3kg' and visibility='PRIVATE' }"), {
      kind: 'propertiesHas',
      match: { key: 'mass', value: '1.3kg', visibility: 'PRIVATE' },
    });
    assert.deepEqual(parseDriveQuery("properties has {visibility='public' and value='v' and key='k'}"), {
      kind: 'propertiesHas',
      match: { key: 'k', value: 'v', visibility: 'PUBLIC' },
    });
    assert.deepEqual(parseDriveQuery("properties has { key='k' and value='' }"), { kind: 'propertiesHas', match: { key: 'k', value: '' } });
    refuses("properties has { key='k' }", 25, /needs both key and value/);
    refuses("properties has { key='k' and key='j' }", 29, /key given twice/);
    refuses("properties has { key='k' and value='v' and visibility='SECRET' }", 54, /visibility must be 'PRIVATE' or 'PUBLIC'/);
    refuses("properties has { name='k' }", 17, /expected key, value or visibility/);
    refuses("properties has key='k'", 15, /expected '\{' after 'properties has'/);
    refuses("properties has { key='k' or value='v' }", 25, /expected 'and' or '\}'/);
    refuses("properties = 'x'", 11, /operator '=' is not supported for properties/);
  });
});

describe('parseDriveQuery structure', () => {
  it('binds not tighter than and, and tighter than or', () => {
    assert.deepEqual(parseDriveQuery("title = 'a' or title = 'b' and not title = 'c'"), {
      kind: 'or',
      operands: [title('a'), { kind: 'and', operands: [title('b'), { kind: 'not', operand: title('c') }] }],
    });
    assert.deepEqual(parseDriveQuery("not title = 'a' and title = 'b'"), {
      kind: 'and',
      operands: [{ kind: 'not', operand: title('a') }, title('b')],
    });
  });

  it('collects chains into one node and lets parentheses nest', () => {
    assert.deepEqual(parseDriveQuery("title = 'a' and title = 'b' and title = 'c'"), { kind: 'and', operands: [title('a'), title('b'), title('c')] });
    assert.deepEqual(parseDriveQuery("(title = 'a' or title = 'b') and not (title = 'c' or title = 'd')"), {
      kind: 'and',
      operands: [
        { kind: 'or', operands: [title('a'), title('b')] },
        { kind: 'not', operand: { kind: 'or', operands: [title('c'), title('d')] } },
      ],
    });
    assert.deepEqual(parseDriveQuery("((title = 'a'))"), title('a'));
    assert.deepEqual(parseDriveQuery("not not title = 'a'"), { kind: 'not', operand: { kind: 'not', operand: title('a') } });
  });

  it('accepts keywords in any case and any whitespace', () => {
    assert.deepEqual(parseDriveQuery("\ttitle='a'\nAND\r\nNot title CONTAINS 'b'  Or trashed=TRUE "), {
      kind: 'or',
      operands: [{ kind: 'and', operands: [title('a'), { kind: 'not', operand: { kind: 'title', op: 'contains', value: 'b' } }] }, { kind: 'trashed', value: true }],
    });
  });

  it('decodes \\\' and \\\\ escapes and prints them back', () => {
    const node = parseDriveQuery("title = 'it\\'s a \\\\ back\\\\slash'");
    assert.deepEqual(node, title("it's a \\ back\\slash"));
    assert.equal(printDriveQuery(node), "title = 'it\\'s a \\\\ back\\\\slash'");
    assert.deepEqual(parseDriveQuery("title = ''"), title(''));
    assert.deepEqual(parseDriveQuery("title = 'a and b or (c)'"), title('a and b or (c)'));
  });
});

describe('parseDriveQuery errors name the problem and where', () => {
  it('refuses bad tokens', () => {
    refuses("title = 'abc", 8, /unterminated string/);
    refuses("title = 'a\\nb'", 10, /unsupported escape "\\\\n"/);
    refuses("title = 'a' & title = 'b'", 12, /unexpected character "&"/);
    refuses("title ! 'a'", 6, /'!' must be followed by '='/);
  });

  it('refuses bad structure', () => {
    refuses('', 0, /expected a search term, found the end of the query/);
    refuses('   ', 3, /expected a search term, found the end of the query/);
    refuses("name = 'a'", 0, /unknown search term 'name'/);
    refuses("Title = 'a'", 0, /unknown search term 'Title'/);
    refuses("title = 'a' title = 'b'", 12, /expected 'and', 'or' or the end of the query, found 'title'/);
    refuses("title = 'a' and", 15, /expected a search term, found the end of the query/);
    refuses("title = 'a' or or title = 'b'", 15, /expected a search term, found 'or'/);
    refuses("(title = 'a'", 12, /expected '\)' to close the '\(' at position 0/);
    refuses("title = 'a')", 11, /unbalanced '\)'/);
    refuses("title 'a'", 6, /expected an operator after title, found a quoted string/);
    refuses('title = a', 8, /title needs a quoted string, found 'a'/);
    refuses('not', 3, /expected a search term/);
    refuses('()', 1, /expected a search term, found '\)'/);
  });

  it('refuses nesting deeper than the limit instead of exhausting the stack', () => {
    const deep = '('.repeat(10_000) + "title = 'a'" + ')'.repeat(10_000);
    assert.throws(() => parseDriveQuery(deep), (err: unknown) => err instanceof DriveQueryError && /nesting deeper than 64/.test(err.message));
    assert.throws(() => parseDriveQuery('not '.repeat(10_000) + 'trashed = true'), DriveQueryError);
    const fine = '('.repeat(60) + "title = 'a'" + ')'.repeat(60);
    assert.deepEqual(parseDriveQuery(fine), title('a'));
  });

  it('parses a long flat chain without recursion', () => {
    const chain = Array.from({ length: 5000 }, (_, i) => `title = '${i}'`).join(' or ');
    const node = parseDriveQuery(chain);
    assert.equal(node.kind === 'or' && node.operands.length, 5000);
  });
});
