// `x IN ()` is valid SQLite (false; `NOT IN ()` true) but a syntax error on PostgreSQL, and Kysely compiles an empty
// array to exactly that. Code written and tested on one database must run on the other, so the PostgreSQL compiler
// writes the constant the empty list stands for: a query with an empty filter list answers nothing instead of a 500.
import { PostgresQueryCompiler, PrimitiveValueListNode, ValueListNode, type BinaryOperationNode } from 'kysely';

export class EmptyListPostgresCompiler extends PostgresQueryCompiler {
  protected override visitBinaryOperation(node: BinaryOperationNode): void {
    const operator = (node.operator as { operator?: string }).operator;
    if ((operator === 'in' || operator === 'not in') && isEmptyList(node.rightOperand)) {
      this.append(operator === 'in' ? 'false' : 'true');
      return;
    }
    super.visitBinaryOperation(node);
  }
}

function isEmptyList(node: BinaryOperationNode['rightOperand']): boolean {
  return (PrimitiveValueListNode.is(node) || ValueListNode.is(node)) && node.values.length === 0;
}
