// PostgreSQL: a storage write (puts, deletes, one of them guarded) as one statement. Each operation is a
// data-modifying WITH clause, all run on one snapshot and all or none: the others are made conditional on the guard's
// row. One round trip where a transaction takes one per operation plus BEGIN and COMMIT, and the rows it locks are
// held for that statement only. Two operations on one path would meet in one statement (PostgreSQL refuses a row
// changed twice), so such a write is not given here.
import { sql, type CompiledQuery, type Kysely, type RawBuilder } from 'kysely';

export interface StorageOp {
  path: string;
  value: Buffer | null;
}

export interface StorageGuard {
  path: string;
  expected: Buffer | null;
}

/** Operations beyond which a write is left to a transaction: one statement's text and parameters grow with them. */
export const ONE_STATEMENT_MAX_OPS = 100;

/** The statement for `ops`, answering one row with `applied` 1 or 0 (the guard refused); undefined when not given here. */
export function oneStatementWrite(db: Kysely<any>, table: string, ops: readonly StorageOp[], guard?: StorageGuard): CompiledQuery<{ applied: number }> | undefined {
  if (ops.length === 0 || ops.length > ONE_STATEMENT_MAX_OPS) return undefined;
  if (new Set(ops.map((op) => op.path)).size !== ops.length) return undefined;
  const t = sql.table(table);
  const guardOp = guard === undefined ? undefined : ops.find((op) => op.path === guard.path);
  // The guard's clause comes first: a WITH clause sees only those before it. Every other operation runs only when
  // the guard's clause returned its row.
  const clauses: RawBuilder<unknown>[] = guardOp ? [sql`guarded as (${guardedOp(t, guardOp, guard!.expected)})`] : [];
  const when = guardOp ? sql`exists (select 1 from guarded)` : sql`true`;
  ops.forEach((op, i) => {
    if (op !== guardOp) clauses.push(sql`${sql.id(`op${i}`)} as (${plainOp(t, op, when)})`);
  });
  const applied = guardOp ? sql`(select count(*) from guarded)::int` : sql`1`;
  return sql<{ applied: number }>`with ${sql.join(clauses)} select ${applied} as applied`.compile(db);
}

/** The guarded operation: returns a row when the path held `expected` (absent when null) and now holds the value. */
function guardedOp(t: RawBuilder<unknown>, op: StorageOp, expected: Buffer | null): RawBuilder<unknown> {
  if (expected === null) {
    if (op.value === null) return sql`select 1 where not exists (select 1 from ${t} where path = ${op.path})`;
    return sql`insert into ${t} (path, value) values (${op.path}, ${op.value}) on conflict (path) do nothing returning 1`;
  }
  if (op.value === null) return sql`delete from ${t} where path = ${op.path} and value = ${expected} returning 1`;
  return sql`update ${t} set value = ${op.value} where path = ${op.path} and value = ${expected} returning 1`;
}

function plainOp(t: RawBuilder<unknown>, op: StorageOp, when: RawBuilder<unknown>): RawBuilder<unknown> {
  if (op.value === null) return sql`delete from ${t} where path = ${op.path} and ${when}`;
  return sql`insert into ${t} (path, value) select ${op.path}, ${op.value} where ${when} on conflict (path) do update set value = excluded.value`;
}
