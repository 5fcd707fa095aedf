// Queries built and compiled once, run many times with new parameter values. Building a Kysely query (immutable
// nodes, a compiler pass) costs more than SQLite takes to run a point query, on paths that run it for every request.
import { CompiledQuery, type Compilable, type Kysely, type QueryCreator, type QueryResult } from 'kysely';
import { dialectOf, type DialectName } from './dialect.ts';
import { directStatement } from './direct-statements.ts';
import { INLINE_LIST_MAX } from './in-list.ts';

export type PreparedQuery<R> = (db: Kysely<any>, ...parameters: unknown[]) => Promise<QueryResult<R>>;

/**
 * `template` is compiled at first use; each run substitutes `parameters` for the template's own, in the order they
 * appear in its SQL. Build the template with placeholder values of the right type, one per parameter. On SQLite a
 * read runs at once on the connection when nothing holds it, and a unit of work's statements run at once on its
 * batch's connection (direct-statements.ts).
 */
export function prepared<R>(template: () => Compilable<R>): PreparedQuery<R> {
  let compiled: CompiledQuery<R> | undefined;
  return (db, ...parameters) => run(db, (compiled ??= template().compile()), parameters);
}

/**
 * `prepared` as a statement: each call gives the compiled query with that call's parameters, for
 * `Database.writeStatement` (a statement that is a unit of work of its own) or `runCompiled`.
 */
export function preparedStatement<R>(template: () => Compilable<R>): (...parameters: unknown[]) => CompiledQuery<R> {
  let compiled: CompiledQuery<R> | undefined;
  return (...parameters) => {
    compiled ??= template().compile();
    if (parameters.length !== compiled.parameters.length) {
      throw new Error(`prepared query takes ${compiled.parameters.length} parameters, got ${parameters.length}: ${compiled.sql}`);
    }
    return { ...compiled, parameters };
  };
}

/** Runs a compiled query on `db`: at once on SQLite's connection when it allows it, else through Kysely. */
export function runCompiled<R>(db: Kysely<any>, query: CompiledQuery<R>): Promise<QueryResult<R>> {
  return directStatement<R>(db, query.sql, query.parameters) ?? db.executeQuery(query);
}

/**
 * `prepared` for code that keeps no database of its own and is handed one (or a transaction) on every call: the
 * template is built on the database it runs on, and compiled once for each dialect (SQL differs between them).
 */
export function preparedOn<R>(template: (db: Kysely<any>) => Compilable<R>): PreparedQuery<R> {
  const compiled = new Map<DialectName, CompiledQuery<R>>();
  return (db, ...parameters) => {
    const dialect = dialectOf(db);
    let query = compiled.get(dialect);
    if (!query) compiled.set(dialect, (query = template(db).compile()));
    return run(db, query, parameters);
  };
}

/** A query or SQL text (a RawBuilder compiles on the database it is given; a query builder needs none). */
type Template<R> = { compile(db: Kysely<any>): CompiledQuery<R> };

/** Shapes of one query kept compiled: list lengths beyond the common ones are compiled for each run. */
const MAX_SHAPES = 64;

/**
 * A query prepared once per dialect and shape, built by the query builder on its first run: `build(db)` writes it
 * for the values of this run, and `parameters` are those values in the order of the SQL, which the first run of a
 * shape checks against what the builder bound (so an order written by hand cannot silently bind the wrong column).
 * The shape is the lengths of its IN lists (`inList`), none for a query without: one file and a page of fifty are
 * two compiled queries. A list too long to be inline (bound as one value) is built and compiled for its run.
 * `build` must write the same SQL for every run of the same list lengths: a clause added for some values only (a
 * filter given or not) would be answered with the first run's SQL, which the order check cannot see.
 */
export function preparedByShape<R>(): (db: Kysely<any>, lists: ReadonlyArray<readonly unknown[]>, parameters: unknown[], build: (db: Kysely<any>) => Template<R>) => Promise<QueryResult<R>> {
  const shapes = new Map<string, CompiledQuery<R>>();
  return (db, lists, parameters, build) => {
    if (lists.some((list) => list.length > INLINE_LIST_MAX)) return db.executeQuery(build(db).compile(db));
    const shape = `${dialectOf(db)}:${lists.map((list) => list.length).join(',')}`;
    let compiled = shapes.get(shape);
    if (!compiled) {
      compiled = build(db).compile(db);
      if (compiled.parameters.length !== parameters.length || compiled.parameters.some((value, i) => value !== parameters[i])) {
        throw new Error(`parameters not in the order of the SQL: ${compiled.sql}`);
      }
      if (shapes.size >= MAX_SHAPES) return run(db, compiled, parameters);
      shapes.set(shape, compiled);
    }
    return run(db, compiled, parameters);
  };
}

function run<R>(db: Kysely<any>, compiled: CompiledQuery<R>, parameters: unknown[]): Promise<QueryResult<R>> {
  if (parameters.length !== compiled.parameters.length) {
    throw new Error(`prepared query takes ${compiled.parameters.length} parameters, got ${parameters.length}: ${compiled.sql}`);
  }
  return runCompiled(db, { ...compiled, parameters });
}

export type PreparedInsert = (db: Kysely<any>, row: Record<string, unknown>) => Promise<QueryResult<unknown>>;

/**
 * A one-row insert into `table` compiled once (at first use, on `template()`'s dialect), for write paths that run on
 * every request: each run binds `row`'s values of `columns` (every one must be present; null for none), and with
 * `ignoreConflictOn` a row whose key is taken is skipped.
 */
export function preparedInsert(template: () => Kysely<any>, table: string, columns: readonly string[], ignoreConflictOn?: readonly string[]): PreparedInsert {
  const query = prepared(() => {
    const insert = rowInsert(template(), table, columns);
    return ignoreConflictOn ? insert.onConflict((oc) => oc.columns([...ignoreConflictOn]).doNothing()) : insert;
  });
  return (db, row) => query(db, ...valuesOf(table, columns, row));
}

/**
 * An insert of one row into `table` with a parameter for each of `columns`, in their order (`valuesOf` gives them);
 * `db` may be a database, a transaction or the query creator of a WITH clause.
 */
export const rowInsert = (db: Pick<QueryCreator<any>, 'insertInto'>, table: string, columns: readonly string[]) =>
  db.insertInto(table).values(Object.fromEntries(columns.map((c) => [c, null])));

/** `row`'s values of `columns`, in their order (every one must be present; null for none): an insert's parameters. */
export function valuesOf(table: string, columns: readonly string[], row: Record<string, unknown>): unknown[] {
  for (const c of columns) if (row[c] === undefined) throw new Error(`insert into ${table}: no value for ${c}`);
  return columns.map((c) => row[c]);
}
