// Queries built and compiled once, run many times with new parameter values. Building a Kysely query (immutable
// nodes, a compiler pass) costs more than SQLite takes to run a point query, on paths that run it for every request.
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';

export type PreparedQuery<R> = (db: Kysely<any>, ...parameters: unknown[]) => Promise<QueryResult<R>>;

/**
 * `template` is compiled at first use; each run substitutes `parameters` for the template's own, in the order they
 * appear in its SQL. Build the template with placeholder values of the right type, one per parameter.
 */
export function prepared<R>(template: () => Compilable<R>): PreparedQuery<R> {
  let compiled: CompiledQuery<R> | undefined;
  return (db, ...parameters) => {
    compiled ??= template().compile();
    if (parameters.length !== compiled.parameters.length) {
      throw new Error(`prepared query takes ${compiled.parameters.length} parameters, got ${parameters.length}: ${compiled.sql}`);
    }
    return db.executeQuery({ ...compiled, parameters } as CompiledQuery<R>);
  };
}
