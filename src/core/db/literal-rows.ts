// Rows read as arrays and made into objects by a function built once per statement. better-sqlite3 makes each row
// object from C++, setting one property at a time and interning each column's name again for every row: a row of
// 16 columns took 7.0 µs to read that way and 4.5 µs as an array turned into an object literal of the statement's
// columns (3 columns: 2.5 and 2.1 µs), and object rows took 8 % of a Drive file get's main thread.
import type SQLite from 'better-sqlite3';

/** What Kysely's SQLite driver uses of a prepared statement. */
export type DriverStatement = Pick<SQLite.Statement, 'reader' | 'readonly' | 'all' | 'run' | 'iterate'>;

type RowOf = (values: unknown[]) => Record<string, unknown>;

/**
 * `stmt` as the driver uses it, with rows built as literals. A statement that returns no rows, or one with a column
 * named `__proto__` (which a literal would read as the object's prototype), is handed back as it is.
 */
export function withLiteralRows(stmt: SQLite.Statement): DriverStatement {
  if (!stmt.reader) return stmt;
  const names = () => stmt.columns().map((c) => c.name);
  let columns = names();
  if (columns.includes('__proto__')) return stmt;
  let rowOf = literalRow(columns);
  // SQLite prepares a statement again by itself after its tables change, and `select *` then returns the columns a
  // migration added (the only change made to a table after it exists): the row function follows.
  const current = (values: unknown[]): RowOf => {
    if (values.length !== columns.length) rowOf = literalRow((columns = names()));
    return rowOf;
  };
  const arrays = stmt.raw(true);
  return {
    reader: true,
    readonly: stmt.readonly,
    all: (...params: unknown[]) => {
      const rows = arrays.all(...params) as unknown[][];
      return rows.length === 0 ? rows : rows.map(current(rows[0]));
    },
    run: (...params: unknown[]) => arrays.run(...params),
    *iterate(...params: unknown[]) {
      for (const values of arrays.iterate(...params) as IterableIterator<unknown[]>) yield current(values)(values);
    },
  } as DriverStatement;
}

/**
 * `values => ({ "a": values[0], "b": values[1] })` for these column names. A literal with fixed keys is built from one
 * shape each time; a later column of the same name overwrites an earlier one, as better-sqlite3's own rows do.
 */
function literalRow(names: string[]): RowOf {
  // The names come from the statement's own result columns; JSON.stringify makes each a valid, inert key.
  const body = `return { ${names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ')} };`;
  return new Function('values', body) as RowOf;
}
