// SQLite as bundled here (built with STAT4) plans a LIMIT with the bound value in hand and marks the statement to be
// prepared again whenever that parameter is bound: a cached statement with `limit ?` is recompiled on every run,
// which doubled a one-row lookup's cost (17 µs against 7 µs measured on a payments retrieve). An integer LIMIT is
// therefore written into the SQL; a page size takes few values, so the statement cache still holds each shape.
import { SqliteQueryCompiler, ValueNode, type LimitNode } from 'kysely';

export class LiteralLimitSqliteCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    const value = ValueNode.is(node.limit) ? node.limit.value : undefined;
    if ((typeof value === 'number' && Number.isSafeInteger(value)) || typeof value === 'bigint') {
      this.append(`limit ${String(value)}`);
      return;
    }
    super.visitLimit(node);
  }
}
