import { expressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { DateOperator, PropertyMatch, QueryNode, TextOperator } from './ast.ts';

/**
 * What each leaf of a query means in SQL, supplied by the store that owns the tables. Every method must return a
 * two-valued condition (never NULL, e.g. guard nullable columns with `is not null and ...`) so `not` stays exact.
 */
export interface DriveQueryTarget {
  title(op: TextOperator, value: string): Expression<SqlBool>;
  fullText(value: string): Expression<SqlBool>;
  mimeType(op: TextOperator, value: string): Expression<SqlBool>;
  modifiedDate(op: DateOperator, epochMs: number): Expression<SqlBool>;
  lastViewedByMeDate(op: DateOperator, epochMs: number): Expression<SqlBool>;
  trashed(value: boolean): Expression<SqlBool>;
  starred(value: boolean): Expression<SqlBool>;
  hidden(value: boolean): Expression<SqlBool>;
  /** The caller's shared-with-me condition; `sharedWithMe = false` compiles to its negation. */
  sharedWithMe(): Expression<SqlBool>;
  inParents(id: string): Expression<SqlBool>;
  inOwners(email: string): Expression<SqlBool>;
  inWriters(email: string): Expression<SqlBool>;
  inReaders(email: string): Expression<SqlBool>;
  propertiesHas(match: PropertyMatch): Expression<SqlBool>;
  /** Shortcuts whose target is the file `id`. */
  shortcutTo(id: string): Expression<SqlBool>;
}

const eb = expressionBuilder<any, any>();

/** Turns a parsed query into one Kysely condition built from the target's leaf conditions. */
export function compileDriveQuery(node: QueryNode, target: DriveQueryTarget): Expression<SqlBool> {
  switch (node.kind) {
    case 'and':
      return eb.and(node.operands.map((operand) => compileDriveQuery(operand, target)));
    case 'or':
      return eb.or(node.operands.map((operand) => compileDriveQuery(operand, target)));
    case 'not':
      return eb.not(compileDriveQuery(node.operand, target));
    case 'title':
      return target.title(node.op, node.value);
    case 'fullText':
      return target.fullText(node.value);
    case 'mimeType':
      return target.mimeType(node.op, node.value);
    case 'modifiedDate':
      return target.modifiedDate(node.op, node.epochMs);
    case 'lastViewedByMeDate':
      return target.lastViewedByMeDate(node.op, node.epochMs);
    case 'trashed':
      return target.trashed(node.value);
    case 'starred':
      return target.starred(node.value);
    case 'hidden':
      return target.hidden(node.value);
    case 'sharedWithMe':
      return node.value ? target.sharedWithMe() : eb.not(target.sharedWithMe());
    case 'in':
      return compileMembership(node.collection, node.value, target);
    case 'propertiesHas':
      return target.propertiesHas(node.match);
    case 'shortcutTarget':
      return node.op === '=' ? target.shortcutTo(node.value) : eb.not(target.shortcutTo(node.value));
  }
}

function compileMembership(collection: 'parents' | 'owners' | 'writers' | 'readers', value: string, target: DriveQueryTarget): Expression<SqlBool> {
  switch (collection) {
    case 'parents':
      return target.inParents(value);
    case 'owners':
      return target.inOwners(value);
    case 'writers':
      return target.inWriters(value);
    case 'readers':
      return target.inReaders(value);
  }
}
