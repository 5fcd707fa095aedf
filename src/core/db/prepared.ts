// Queries built and compiled once, run many times with new parameter values. Building a Kysely query (immutable
// nodes, a compiler pass) costs more than SQLite takes to run a point query, on paths that run it for every request.
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import { directStatement } from './direct-statements.ts';

export type PreparedQuery<R> = (db: Kysely<any>, ...parameters: unknown[]) => Promise<QueryResult<R>>;

/**
 * `template` is compiled at first use; each run substitutes `parameters` for the template's own, in the order they
 * appear in its SQL. Build the template with placeholder values of the right type, one per parameter. On SQLite a
 * read runs at once on the connection when nothing holds it, and a unit of work's statements run at once on its
 * batch's connection (direct-statements.ts).
 */
export function prepared<R>(template: () => Compilable<R>): PreparedQuery<R> {
  let compiled: CompiledQuery<R> | undefined;
  return (db, ...parameters) => {
    compiled ??= template().compile();
    if (parameters.length !== compiled.parameters.length) {
      throw new Error(`prepared query takes ${compiled.parameters.length} parameters, got ${parameters.length}: ${compiled.sql}`);
    }
    return directStatement<R>(db, compiled.sql, parameters) ?? db.executeQuery({ ...compiled, parameters } as CompiledQuery<R>);
  };
}

export type PreparedInsert = (db: Kysely<any>, row: Record<string, unknown>) => Promise<QueryResult<unknown>>;

/**
 * A one-row insert into `table` compiled once (at first use, on `template()`'s dialect), for write paths that run on
 * every request: each run binds `row`'s values of `columns` (every one must be present; null for none), and with
 * `ignoreConflictOn` a row whose key is taken is skipped.
 */
export function preparedInsert(template: () => Kysely<any>, table: string, columns: readonly string[], ignoreConflictOn?: readonly string[]): PreparedInsert {
  const query = prepared(() => {
    const insert = template()
      .insertInto(table)
      .values(Object.fromEntries(columns.map((c) => [c, null])));
    return ignoreConflictOn ? insert.onConflict((oc) => oc.columns([...ignoreConflictOn]).doNothing()) : insert;
  });
  return (db, row) => {
    for (const c of columns) if (row[c] === undefined) throw new Error(`insert into ${table}: no value for ${c}`);
    return query(db, ...columns.map((c) => row[c]));
  };
}
