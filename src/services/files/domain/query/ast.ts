/** The syntax tree of a Drive v2 `q` expression. Leaves are already validated and normalised. */

export type TextOperator = '=' | '!=' | 'contains';
export type DateOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';
export type PropertyVisibility = 'PRIVATE' | 'PUBLIC';
export type FlagTerm = 'trashed' | 'starred' | 'hidden';
export type MembershipTerm = 'parents' | 'owners' | 'writers' | 'readers';
export type DateTerm = 'modifiedDate' | 'lastViewedByMeDate';

export interface PropertyMatch {
  key: string;
  value: string;
  /** Absent when the query does not name one: a property of either visibility matches. */
  visibility?: PropertyVisibility;
}

export type QueryLeaf =
  | { kind: 'title'; op: TextOperator; value: string }
  | { kind: 'fullText'; value: string }
  | { kind: 'mimeType'; op: TextOperator; value: string }
  | { kind: DateTerm; op: DateOperator; epochMs: number }
  /** `trashed != true` is stored as `trashed = false`. */
  | { kind: FlagTerm; value: boolean }
  /** Bare `sharedWithMe` is `sharedWithMe = true`. */
  | { kind: 'sharedWithMe'; value: boolean }
  | { kind: 'in'; collection: MembershipTerm; value: string }
  | { kind: 'propertiesHas'; match: PropertyMatch }
  /** `shortcutDetails.targetId`: a shortcut to the file `value` (`!=`: anything else, other files included). */
  | { kind: 'shortcutTarget'; op: '=' | '!='; value: string };

/** `and`/`or` are n-ary: `a and b and c` is one node; parentheses make nested nodes. */
export type QueryNode =
  | QueryLeaf
  | { kind: 'and'; operands: QueryNode[] }
  | { kind: 'or'; operands: QueryNode[] }
  | { kind: 'not'; operand: QueryNode };
