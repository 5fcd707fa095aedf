import type { QueryNode } from './ast.ts';
import { formatQueryDate } from './dates.ts';
import { quoteString } from './tokens.ts';

/** Prints a tree back to `q` text that parses to the same tree (parentheses only where precedence needs them). */
export function printDriveQuery(node: QueryNode): string {
  switch (node.kind) {
    case 'and':
      // A nested `and` or any `or` under `and` only exists in the tree because the text had parentheses.
      return node.operands.map((operand) => (operand.kind === 'and' || operand.kind === 'or' ? `(${printDriveQuery(operand)})` : printDriveQuery(operand))).join(' and ');
    case 'or':
      return node.operands.map((operand) => (operand.kind === 'or' ? `(${printDriveQuery(operand)})` : printDriveQuery(operand))).join(' or ');
    case 'not':
      return node.operand.kind === 'and' || node.operand.kind === 'or' ? `not (${printDriveQuery(node.operand)})` : `not ${printDriveQuery(node.operand)}`;
    case 'title':
    case 'mimeType':
      return `${node.kind} ${node.op} ${quoteString(node.value)}`;
    case 'fullText':
      return `fullText contains ${quoteString(node.value)}`;
    case 'modifiedDate':
    case 'lastViewedByMeDate':
      return `${node.kind} ${node.op} '${formatQueryDate(node.epochMs)}'`;
    case 'trashed':
    case 'starred':
    case 'hidden':
    case 'sharedWithMe':
      return `${node.kind} = ${node.value}`;
    case 'in':
      return `${quoteString(node.value)} in ${node.collection}`;
    case 'shortcutTarget':
      return `shortcutDetails.targetId ${node.op} ${quoteString(node.value)}`;
    case 'propertiesHas': {
      const { key, value, visibility } = node.match;
      const visibilityClause = visibility === undefined ? '' : ` and visibility=${quoteString(visibility)}`;
      return `properties has { key=${quoteString(key)} and value=${quoteString(value)}${visibilityClause} }`;
    }
  }
}
