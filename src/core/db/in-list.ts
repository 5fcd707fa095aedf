// `column IN list` for a list of any length. Kysely binds each element of `where(x, 'in', list)` (and `sql.join`) as
// a parameter of its own, and a statement takes at most 32,766 of them on SQLite and 65,535 on PostgreSQL: a list
// whose length comes from the data (every file below a folder, every merchant of a client) would answer 500 past
// that. Short lists stay inline, so the everyday queries (one file, one page) keep their shape; a longer list travels
// as one parameter: a JSON array read by json_each() on SQLite, an array read by unnest() on PostgreSQL. Both
// databases then probe the column's index once per element, as they do for an inline list.
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { dialectOf } from './dialect.ts';

/** Lists up to this length are written inline, `(?, ?, ...)`; longer ones are bound as one array parameter. */
export const INLINE_LIST_MAX = 1000;

type Values = readonly string[] | readonly number[];

/**
 * The condition `column IN values`, for the query builder (`.where(inList(db, 'id', ids))`) or SQL text
 * (`where ${inList(db, 'a.file_id', ids)}`). Values are all strings or all safe integers. An empty list is the
 * constant false on both databases (an empty array has no type PostgreSQL could compare with the column).
 */
export function inList(db: Kysely<any>, column: string, values: Values): RawBuilder<SqlBool> {
  return condition(db, column, values, false);
}

/** The condition `column NOT IN values`; an empty list is the constant true. */
export function notInList(db: Kysely<any>, column: string, values: Values): RawBuilder<SqlBool> {
  return condition(db, column, values, true);
}

function condition(db: Kysely<any>, column: string, values: Values, negate: boolean): RawBuilder<SqlBool> {
  if (values.length === 0) return negate ? sql<SqlBool>`1 = 1` : sql<SqlBool>`1 = 0`;
  const operator = sql.raw(negate ? 'not in' : 'in');
  const ref = sql.ref(column);
  if (values.length <= INLINE_LIST_MAX) return sql<SqlBool>`${ref} ${operator} (${sql.join(values)})`;
  const numbers = typeof values[0] === 'number';
  for (const v of values) {
    if (numbers ? !Number.isSafeInteger(v) : typeof v !== 'string') throw new TypeError('inList: the values must be all strings or all safe integers');
  }
  if (dialectOf(db) === 'postgres') {
    const array = numbers ? sql`${sql.val(values)}::bigint[]` : sql`${sql.val(values)}::text[]`;
    return sql<SqlBool>`${ref} ${operator} (select unnest(${array}))`;
  }
  return sql<SqlBool>`${ref} ${operator} (select value from json_each(${JSON.stringify(values)}))`;
}
