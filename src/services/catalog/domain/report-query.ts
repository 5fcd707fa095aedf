// The Merchant Center query language subset reports.search accepts: a tokenizer and a recursive-descent parser
// into a checked query (fields known and of the table, literals of the field's type, a bounded date window on
// performance queries), evaluated by report-query-evaluate.ts.
import { DATE_FUNCTIONS, dayNumber, dayString, resolveDateFunction, type DateWindow } from './report-query-dates.ts';
import { FIELDS, tableNamed, type FieldInfo, type TableName } from './report-query-fields.ts';
import { ReportQueryError, tokenize, type Token } from './report-query-lexer.ts';
import { compilePattern } from './report-query-patterns.ts';

export { ReportQueryError } from './report-query-lexer.ts';
export { FIELDS, type FieldInfo, type TableName } from './report-query-fields.ts';
export { DATE_FUNCTIONS, type DateWindow } from './report-query-dates.ts';
export { evaluateReport, type PerformanceRecord, type ReportData, type ReportRow } from './report-query-evaluate.ts';

export type Operator =
  | '=' | '!=' | '<' | '<=' | '>' | '>='
  | 'IN' | 'NOT IN' | 'LIKE' | 'NOT LIKE' | 'REGEXP_MATCH' | 'NOT REGEXP_MATCH'
  | 'CONTAINS ANY' | 'CONTAINS ALL' | 'CONTAINS NONE' | 'BETWEEN';

export type Literal = string | number;

export interface Condition {
  field: FieldInfo;
  operator: Operator;
  values: Literal[];
  position: number;
}

export interface Ordering {
  field: FieldInfo;
  descending: boolean;
}

export interface ReportQuery {
  table: TableName;
  fields: FieldInfo[];
  /** Conditions other than the ones that bound `segments.date` (those make `dateWindow`). */
  conditions: Condition[];
  orderBy: Ordering[];
  limit?: number;
  /** The dates a performance query covers, inclusive; always set for product_performance_view. */
  dateWindow?: DateWindow;
}

export interface ParseOptions {
  /** The merchant's current date, YYYY-MM-DD: relative ranges (LAST_7_DAYS, ...) resolve against it. */
  today: string;
}

const LIST_OPERATORS = new Set<Operator>(['IN', 'NOT IN', 'CONTAINS ANY', 'CONTAINS ALL', 'CONTAINS NONE']);
const STRING_ONLY = new Set<Operator>(['LIKE', 'NOT LIKE', 'REGEXP_MATCH', 'NOT REGEXP_MATCH']);
const CONTAINS = new Set<Operator>(['CONTAINS ANY', 'CONTAINS ALL', 'CONTAINS NONE']);
const COMPARISONS = new Set<Operator>(['=', '!=', '<', '<=', '>', '>=']);
export const MAX_LIMIT = 100_000;

const describe = (t: Token): string => (t.kind === 'end' ? 'end of query' : t.kind === 'string' ? `'${t.text}'` : t.text);

/** Date bounds collected from conditions on segments.date; the window is their intersection. */
interface DateBounds {
  start?: number;
  end?: number;
  seen: boolean;
}

class Parser {
  private i = 0;
  private readonly dates: DateBounds = { seen: false };
  private readonly today: number;

  constructor(private readonly tokens: Token[], options: ParseOptions) {
    const today = dayNumber(options.today);
    if (today === undefined) throw new Error(`today must be YYYY-MM-DD, got ${options.today}`);
    this.today = today;
  }

  private peek(): Token {
    return this.tokens[this.i];
  }

  private next(): Token {
    return this.tokens[this.i++];
  }

  private isKeyword(word: string, offset = 0): boolean {
    const t = this.tokens[this.i + offset];
    return t !== undefined && t.kind === 'word' && t.text.toUpperCase() === word;
  }

  private acceptKeyword(word: string): boolean {
    if (!this.isKeyword(word)) return false;
    this.i++;
    return true;
  }

  private expectKeyword(word: string): Token {
    const t = this.peek();
    if (!this.isKeyword(word)) throw new ReportQueryError(`Expected ${word} but found ${describe(t)}`, t.position);
    return this.next();
  }

  private expectPunct(p: string): Token {
    const t = this.peek();
    if (t.kind !== 'punct' || t.text !== p) throw new ReportQueryError(`Expected '${p}' but found ${describe(t)}`, t.position);
    return this.next();
  }

  private acceptPunct(p: string): boolean {
    const t = this.peek();
    if (t.kind !== 'punct' || t.text !== p) return false;
    this.i++;
    return true;
  }

  private fieldName(): { name: string; position: number } {
    const t = this.peek();
    if (t.kind === 'punct' && t.text === '*') throw new ReportQueryError('SELECT * is not supported; name the fields', t.position);
    if (t.kind !== 'word' || !/^[a-z]/.test(t.text)) throw new ReportQueryError(`Expected a field name but found ${describe(t)}`, t.position);
    this.next();
    return { name: t.text, position: t.position };
  }

  private lookUp(name: string, position: number): FieldInfo {
    const field = FIELDS.get(name);
    if (!field) throw new ReportQueryError(`Unrecognized field '${name}'`, position);
    return field;
  }

  parse(): ReportQuery {
    this.expectKeyword('SELECT');
    const selected: { name: string; position: number }[] = [this.fieldName()];
    while (this.acceptPunct(',')) selected.push(this.fieldName());
    this.expectKeyword('FROM');
    const tableToken = this.next();
    const table = tableToken.kind === 'word' ? tableNamed(tableToken.text) : undefined;
    if (!table) throw new ReportQueryError(`Unknown table ${describe(tableToken)} (expected ProductPerformanceView, MerchantPerformanceView or ProductView)`, tableToken.position);

    const fields: FieldInfo[] = [];
    for (const { name, position } of selected) {
      const field = this.lookUp(name, position);
      if (field.table !== table) throw new ReportQueryError(`Field '${name}' cannot be selected from ${tableToken.text}`, position);
      if (fields.includes(field)) throw new ReportQueryError(`Field '${name}' is selected more than once`, position);
      fields.push(field);
    }

    const conditions: Condition[] = [];
    if (this.acceptKeyword('WHERE')) {
      do {
        const condition = this.condition(table);
        if (condition) conditions.push(condition);
      } while (this.acceptKeyword('AND'));
    }
    // A trailing `DURING <range>` clause is shorthand for `segments.date DURING <range>`.
    if (this.isKeyword('DURING')) {
      const t = this.next();
      if (table !== 'product_performance_view') throw new ReportQueryError(`DURING applies to performance tables only`, t.position);
      this.during();
    }

    const orderBy: Ordering[] = [];
    if (this.acceptKeyword('ORDER')) {
      this.expectKeyword('BY');
      do orderBy.push(this.ordering(table, fields));
      while (this.acceptPunct(','));
    }

    let limit: number | undefined;
    if (this.acceptKeyword('LIMIT')) {
      const t = this.next();
      if (t.kind !== 'number' || !/^[1-9]\d*$/.test(t.text) || Number(t.text) > MAX_LIMIT) {
        throw new ReportQueryError(`LIMIT takes a positive integer up to ${MAX_LIMIT}, found ${describe(t)}`, t.position);
      }
      limit = Number(t.text);
    }

    const end = this.peek();
    if (end.kind !== 'end') throw new ReportQueryError(`Unexpected ${describe(end)}`, end.position);

    const query: ReportQuery = { table, fields, conditions, orderBy, limit };
    if (table === 'product_performance_view') query.dateWindow = this.window(end.position);
    return query;
  }

  private window(position: number): DateWindow {
    const { start, end, seen } = this.dates;
    if (!seen) throw new ReportQueryError('A condition on segments.date is required for performance tables (DURING or BETWEEN)', position);
    if (start === undefined || end === undefined) throw new ReportQueryError('The segments.date conditions must bound the range on both sides', position);
    if (end < start) throw new ReportQueryError(`The segments.date range is empty (${dayString(start)} is after ${dayString(end)})`, position);
    return { start: dayString(start), end: dayString(end) };
  }

  private bound(start: number | undefined, end: number | undefined): void {
    const d = this.dates;
    d.seen = true;
    if (start !== undefined) d.start = d.start === undefined ? start : Math.max(d.start, start);
    if (end !== undefined) d.end = d.end === undefined ? end : Math.min(d.end, end);
  }

  private during(): void {
    const t = this.next();
    if (t.kind !== 'word') throw new ReportQueryError(`Expected a date range (${DATE_FUNCTIONS.join(', ')}) but found ${describe(t)}`, t.position);
    const [start, end] = resolveDateFunction(t.text, this.today, t.position);
    this.bound(start, end);
  }

  private operator(): { operator: Operator | 'DURING'; position: number } {
    const t = this.next();
    if (t.kind === 'punct' && ['=', '!=', '<>', '<', '<=', '>', '>='].includes(t.text)) {
      return { operator: t.text === '<>' ? '!=' : (t.text as Operator), position: t.position };
    }
    if (t.kind === 'word') {
      const word = t.text.toUpperCase();
      if (['IN', 'LIKE', 'REGEXP_MATCH', 'BETWEEN', 'DURING'].includes(word)) return { operator: word as Operator, position: t.position };
      if (word === 'NOT') {
        const second = this.next();
        const w2 = second.kind === 'word' ? second.text.toUpperCase() : '';
        if (['IN', 'LIKE', 'REGEXP_MATCH'].includes(w2)) return { operator: `NOT ${w2}` as Operator, position: t.position };
        throw new ReportQueryError(`Expected IN, LIKE or REGEXP_MATCH after NOT but found ${describe(second)}`, second.position);
      }
      if (word === 'CONTAINS') {
        const second = this.next();
        const w2 = second.kind === 'word' ? second.text.toUpperCase() : '';
        if (['ANY', 'ALL', 'NONE'].includes(w2)) return { operator: `CONTAINS ${w2}` as Operator, position: t.position };
        throw new ReportQueryError(`Expected ANY, ALL or NONE after CONTAINS but found ${describe(second)}`, second.position);
      }
    }
    throw new ReportQueryError(`Expected an operator but found ${describe(t)}`, t.position);
  }

  private literal(field: FieldInfo): Literal {
    const t = this.next();
    const numeric = field.type === 'number';
    if (numeric && t.kind === 'number') return Number(t.text);
    if (!numeric && t.kind === 'string') {
      if (field.type === 'date' && dayNumber(t.text) === undefined) throw new ReportQueryError(`Invalid date '${t.text}' for ${field.name} (expected YYYY-MM-DD)`, t.position);
      return t.text;
    }
    throw new ReportQueryError(`Expected a ${numeric ? 'number' : 'string'} for ${field.name} but found ${describe(t)}`, t.position);
  }

  private literalList(field: FieldInfo): Literal[] {
    this.expectPunct('(');
    const values = [this.literal(field)];
    while (this.acceptPunct(',')) values.push(this.literal(field));
    this.expectPunct(')');
    return values;
  }

  /** One condition; undefined when it only bounds segments.date (it is folded into the date window). */
  private condition(table: TableName): Condition | undefined {
    const { name, position } = this.fieldName();
    const field = this.lookUp(name, position);
    if (field.table !== table) throw new ReportQueryError(`Field '${name}' cannot be filtered in this table`, position);
    if (field.type === 'object') throw new ReportQueryError(`Field '${name}' cannot be filtered`, position);
    const { operator, position: opPosition } = this.operator();
    const isDate = field.name === 'segments.date';

    if (operator === 'DURING') {
      if (!isDate) throw new ReportQueryError(`DURING applies to segments.date only`, opPosition);
      this.during();
      return undefined;
    }
    if (field.type === 'list' ? !CONTAINS.has(operator) : CONTAINS.has(operator)) {
      throw new ReportQueryError(`Operator ${operator} cannot be used with ${name}`, opPosition);
    }
    if (STRING_ONLY.has(operator) && field.type !== 'string') throw new ReportQueryError(`Operator ${operator} needs a string field, not ${name}`, opPosition);
    if (field.type === 'list') return { field, operator, values: this.literalList({ ...field, type: 'string' }), position };

    let values: Literal[];
    if (operator === 'BETWEEN') {
      const low = this.literal(field);
      this.expectKeyword('AND');
      values = [low, this.literal(field)];
    } else if (LIST_OPERATORS.has(operator)) {
      values = this.literalList(field);
    } else {
      values = [this.literal(field)];
    }
    if (operator === 'REGEXP_MATCH' || operator === 'NOT REGEXP_MATCH') compilePattern(String(values[0]), position);

    if (isDate && (operator === 'BETWEEN' || (COMPARISONS.has(operator) && operator !== '!='))) {
      const [a, b] = values.map((v) => dayNumber(String(v))!);
      if (operator === 'BETWEEN') this.bound(a, b);
      else if (operator === '=') this.bound(a, a);
      else if (operator === '>=') this.bound(a, undefined);
      else if (operator === '>') this.bound(a + 1, undefined);
      else if (operator === '<=') this.bound(undefined, a);
      else this.bound(undefined, a - 1);
      return undefined;
    }
    return { field, operator, values, position };
  }

  private ordering(table: TableName, selected: FieldInfo[]): Ordering {
    const { name, position } = this.fieldName();
    const field = this.lookUp(name, position);
    if (field.table !== table || field.type === 'object' || field.type === 'list') throw new ReportQueryError(`Cannot order by '${name}'`, position);
    // Performance rows are aggregates of the selected segments: only what is selected has one value per row.
    if (table === 'product_performance_view' && !selected.includes(field)) throw new ReportQueryError(`ORDER BY field '${name}' must also be selected`, position);
    const descending = this.acceptKeyword('DESC');
    if (!descending) this.acceptKeyword('ASC');
    return { field, descending };
  }
}

/** Parses and checks a query; throws ReportQueryError naming the problem and its position. */
export function parseReportQuery(text: string, options: ParseOptions): ReportQuery {
  if (text.trim() === '') throw new ReportQueryError('The query is empty', 1);
  return new Parser(tokenize(text), options).parse();
}
