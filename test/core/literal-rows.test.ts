// Rows read as arrays and built as literals must be the rows better-sqlite3 itself would build.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import fc from 'fast-check';
import { withLiteralRows } from '../../src/core/db/literal-rows.ts';

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

describe('literal rows', () => {
  it('equal the rows better-sqlite3 builds, whatever the column names and values', () => {
    const db = new SQLite(':memory:');
    const value = fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.string(), fc.constant(null), fc.uint8Array({ maxLength: 8 }).map((b) => Buffer.from(b)));
    // Names with quotes, backslashes, digits only (which objects order first), line breaks, and repeats.
    const name = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('id', '"x"', 'a\\b', '1', '10', 'line\nbreak', 'constructor', 'toString'));
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 12 }), (columns) => {
        fc.pre(columns.every(([n]) => n !== '__proto__' && !n.includes('\u0000')));
        const sql = `select ${columns.map(([n]) => `? as ${quoted(n)}`).join(', ')}`;
        const params = columns.map(([, v]) => v);
        const expected = db.prepare(sql).all(...params);
        const actual = withLiteralRows(db.prepare(sql)).all(...params);
        assert.deepStrictEqual(actual, expected);
        assert.deepEqual(Object.keys(actual[0] as object), Object.keys(expected[0] as object));
      }),
      { numRuns: 300 },
    );
    db.close();
  });

  it('reads many rows, none, and iterates', () => {
    const db = new SQLite(':memory:');
    db.exec('create table t (id integer primary key, name text, score real)');
    const insert = db.prepare('insert into t (name, score) values (?, ?)');
    for (let i = 0; i < 50; i++) insert.run(`n${i}`, i / 4);
    const stmt = withLiteralRows(db.prepare('select * from t where id > ? order by id'));
    assert.deepEqual(stmt.all(0), db.prepare('select * from t where id > ? order by id').all(0));
    assert.deepEqual(stmt.all(1000), []);
    assert.deepEqual([...stmt.iterate(48)], [{ id: 49, name: 'n48', score: 12 }, { id: 50, name: 'n49', score: 12.25 }]);
    db.close();
  });

  it('follows a column a migration adds to a table a kept `select *` reads', () => {
    const db = new SQLite(':memory:');
    db.exec("create table t (id integer primary key, name text); insert into t values (1, 'one')");
    const stmt = withLiteralRows(db.prepare('select * from t'));
    assert.deepEqual(stmt.all(), [{ id: 1, name: 'one' }]);
    db.exec("alter table t add column colour text not null default 'blue'");
    assert.deepEqual(stmt.all(), [{ id: 1, name: 'one', colour: 'blue' }]);
    assert.deepEqual([...stmt.iterate()], [{ id: 1, name: 'one', colour: 'blue' }]);
    db.close();
  });

  it('leaves statements without rows, and a column named __proto__, to better-sqlite3', () => {
    const db = new SQLite(':memory:');
    db.exec('create table t (id integer primary key)');
    const insert = db.prepare('insert into t (id) values (?)');
    assert.equal(withLiteralRows(insert), insert);
    const proto = db.prepare('select 1 as "__proto__"');
    assert.equal(withLiteralRows(proto), proto);
    // A row set through its reader, returning rows, is read as literals too.
    const returning = withLiteralRows(db.prepare('insert into t (id) values (?) returning id'));
    assert.deepEqual(returning.all(7), [{ id: 7 }]);
    db.close();
  });
});
