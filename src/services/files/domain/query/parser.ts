import type { DateOperator, FlagTerm, MembershipTerm, PropertyMatch, PropertyVisibility, QueryNode, TextOperator } from './ast.ts';
import { parseQueryDate } from './dates.ts';
import { DriveQueryError } from './errors.ts';
import { tokenize, type Token } from './tokens.ts';

/** Parentheses and `not` may nest this deep; deeper input is refused rather than exhausting the stack. */
export const MAX_QUERY_DEPTH = 64;

const MEMBERSHIP_TERMS: readonly MembershipTerm[] = ['parents', 'owners', 'writers', 'readers'];
const RESERVED_WORDS = new Set(['and', 'or', 'not', 'in', 'has', 'contains', 'true', 'false']);
const PROPERTY_FIELDS = ['key', 'value', 'visibility'] as const;

/**
 * Parses a Drive v2 `q` by recursive descent: `or` binds loosest, then `and`, then `not`; parentheses group.
 * Term names are case-sensitive, keywords (`and`, `contains`, `true`, ...) are not. A blank query is refused:
 * callers treat an absent or blank `q` as "no filter" before calling this.
 */
export function parseDriveQuery(q: string): QueryNode {
  const parser = new Parser(tokenize(q));
  const node = parser.parseOr();
  parser.expectEnd();
  return node;
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parseOr(): QueryNode {
    const operands = [this.parseAnd()];
    while (this.atKeyword('or')) {
      this.index++;
      operands.push(this.parseAnd());
    }
    return operands.length === 1 ? operands[0] : { kind: 'or', operands };
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.type === 'end') return;
    if (token.type === 'punctuation' && token.text === ')') throw new DriveQueryError("unbalanced ')'", token.start);
    throw new DriveQueryError(`expected 'and', 'or' or the end of the query, found ${describe(token)}`, token.start);
  }

  private parseAnd(): QueryNode {
    const operands = [this.parseUnary()];
    while (this.atKeyword('and')) {
      this.index++;
      operands.push(this.parseUnary());
    }
    return operands.length === 1 ? operands[0] : { kind: 'and', operands };
  }

  private parseUnary(): QueryNode {
    if (!this.atKeyword('not')) return this.parsePrimary();
    const notToken = this.next();
    return { kind: 'not', operand: this.nested(notToken, () => this.parseUnary()) };
  }

  private parsePrimary(): QueryNode {
    const token = this.next();
    if (token.type === 'punctuation' && token.text === '(') {
      const inner = this.nested(token, () => this.parseOr());
      const close = this.next();
      if (close.type !== 'punctuation' || close.text !== ')') {
        throw new DriveQueryError(`expected ')' to close the '(' at position ${token.start}, found ${describe(close)}`, close.start);
      }
      return inner;
    }
    if (token.type === 'string') return this.parseMembership(token.value);
    if (token.type === 'word' && !RESERVED_WORDS.has(token.text.toLowerCase())) return this.parseTerm(token);
    throw new DriveQueryError(`expected a search term, found ${describe(token)}`, token.start);
  }

  private parseMembership(value: string): QueryNode {
    const inToken = this.next();
    if (!isKeyword(inToken, 'in')) throw new DriveQueryError(`expected 'in' after a quoted value, found ${describe(inToken)}`, inToken.start);
    const collection = this.next();
    if (collection.type !== 'word' || !(MEMBERSHIP_TERMS as readonly string[]).includes(collection.text)) {
      throw new DriveQueryError(`expected one of ${MEMBERSHIP_TERMS.join(', ')} after 'in', found ${describe(collection)}`, collection.start);
    }
    return { kind: 'in', collection: collection.text as MembershipTerm, value };
  }

  private parseTerm(term: Extract<Token, { type: 'word' }>): QueryNode {
    switch (term.text) {
      case 'title':
      case 'mimeType':
        return { kind: term.text, op: this.expectTextOperator(term.text), value: this.expectString(term.text) };
      case 'fullText': {
        const op = this.next();
        if (!isKeyword(op, 'contains')) throw unsupportedOperator('fullText', op);
        return { kind: 'fullText', value: this.expectString('fullText') };
      }
      case 'modifiedDate':
      case 'lastViewedByMeDate': {
        const op = this.next();
        if (op.type !== 'operator') throw unsupportedOperator(term.text, op);
        const value = this.peek();
        const epochMs = value.type === 'string' ? parseQueryDate(value.value) : null;
        if (epochMs === null) {
          const found = value.type === 'string' ? `'${value.value}'` : describe(value);
          throw new DriveQueryError(`${term.text} needs a quoted RFC 3339 date-time, found ${found}`, value.start);
        }
        this.index++;
        return { kind: term.text, op: op.text satisfies DateOperator, epochMs };
      }
      case 'trashed':
      case 'starred':
      case 'hidden':
        return { kind: term.text satisfies FlagTerm, value: this.expectBooleanComparison(term.text) };
      case 'sharedWithMe': {
        const op = this.peek();
        if (op.type !== 'operator') return { kind: 'sharedWithMe', value: true };
        return { kind: 'sharedWithMe', value: this.expectBooleanComparison('sharedWithMe') };
      }
      case 'shortcutDetails.targetId': {
        const op = this.next();
        if (op.type !== 'operator' || (op.text !== '=' && op.text !== '!=')) throw unsupportedOperator(term.text, op);
        return { kind: 'shortcutTarget', op: op.text, value: this.expectString(term.text) };
      }
      case 'properties': {
        const has = this.next();
        if (!isKeyword(has, 'has')) throw unsupportedOperator('properties', has);
        return { kind: 'propertiesHas', match: this.parsePropertyMatch() };
      }
      default:
        if ((MEMBERSHIP_TERMS as readonly string[]).includes(term.text)) {
          throw new DriveQueryError(`${term.text} is used as '<value>' in ${term.text}`, term.start);
        }
        throw new DriveQueryError(`unknown search term '${term.text}'`, term.start);
    }
  }

  private parsePropertyMatch(): PropertyMatch {
    const open = this.next();
    if (open.type !== 'punctuation' || open.text !== '{') throw new DriveQueryError(`expected '{' after 'properties has', found ${describe(open)}`, open.start);
    const seen: Partial<Record<(typeof PROPERTY_FIELDS)[number], string>> = {};
    for (;;) {
      const field = this.next();
      const name = field.type === 'word' ? field.text.toLowerCase() : '';
      if (!(PROPERTY_FIELDS as readonly string[]).includes(name)) {
        throw new DriveQueryError(`expected key, value or visibility inside 'properties has { }', found ${describe(field)}`, field.start);
      }
      const key = name as (typeof PROPERTY_FIELDS)[number];
      if (seen[key] !== undefined) throw new DriveQueryError(`${key} given twice in 'properties has { }'`, field.start);
      const equals = this.next();
      if (equals.type !== 'operator' || equals.text !== '=') throw new DriveQueryError(`expected '=' after ${key}, found ${describe(equals)}`, equals.start);
      const valueStart = this.peek().start;
      seen[key] = key === 'visibility' ? readVisibility(this.expectString(key), valueStart) : this.expectString(key);
      const after = this.next();
      if (after.type === 'punctuation' && after.text === '}') {
        if (seen.key === undefined || seen.value === undefined) {
          throw new DriveQueryError("'properties has { }' needs both key and value", after.start);
        }
        const match: PropertyMatch = { key: seen.key, value: seen.value };
        if (seen.visibility !== undefined) match.visibility = seen.visibility as PropertyVisibility;
        return match;
      }
      if (!isKeyword(after, 'and')) throw new DriveQueryError(`expected 'and' or '}' inside 'properties has { }', found ${describe(after)}`, after.start);
    }
  }

  private expectTextOperator(term: string): TextOperator {
    const op = this.next();
    if (op.type === 'operator' && (op.text === '=' || op.text === '!=')) return op.text;
    if (isKeyword(op, 'contains')) return 'contains';
    throw unsupportedOperator(term, op);
  }

  /** `x = true` and `x != false` both read as true. */
  private expectBooleanComparison(term: string): boolean {
    const op = this.next();
    if (op.type !== 'operator' || (op.text !== '=' && op.text !== '!=')) throw unsupportedOperator(term, op);
    const value = this.next();
    if (!isKeyword(value, 'true') && !isKeyword(value, 'false')) {
      throw new DriveQueryError(`${term} compares with unquoted true or false, found ${describe(value)}`, value.start);
    }
    return isKeyword(value, 'true') === (op.text === '=');
  }

  private expectString(term: string): string {
    const token = this.next();
    if (token.type !== 'string') throw new DriveQueryError(`${term} needs a quoted string, found ${describe(token)}`, token.start);
    return token.value;
  }

  private nested<T>(opener: Token, parse: () => T): T {
    if (++this.depth > MAX_QUERY_DEPTH) throw new DriveQueryError(`nesting deeper than ${MAX_QUERY_DEPTH}`, opener.start);
    const result = parse();
    this.depth--;
    return result;
  }

  private atKeyword(keyword: string): boolean {
    return isKeyword(this.peek(), keyword);
  }

  private peek(): Token {
    return this.tokens[this.index];
  }

  private next(): Token {
    const token = this.tokens[this.index];
    // The end token stays put so every lookahead past the end keeps seeing it.
    if (token.type !== 'end') this.index++;
    return token;
  }
}

function readVisibility(visibility: string, position: number): PropertyVisibility {
  const normalised = visibility.toUpperCase();
  if (normalised !== 'PRIVATE' && normalised !== 'PUBLIC') {
    throw new DriveQueryError(`visibility must be 'PRIVATE' or 'PUBLIC', found '${visibility}'`, position);
  }
  return normalised;
}

function isKeyword(token: Token, keyword: string): boolean {
  return token.type === 'word' && token.text.toLowerCase() === keyword;
}

function unsupportedOperator(term: string, found: Token): DriveQueryError {
  if (found.type !== 'operator' && found.type !== 'word') return new DriveQueryError(`expected an operator after ${term}, found ${describe(found)}`, found.start);
  return new DriveQueryError(`operator ${describe(found)} is not supported for ${term}`, found.start);
}

function describe(token: Token): string {
  switch (token.type) {
    case 'end':
      return 'the end of the query';
    case 'string':
      return 'a quoted string';
    default:
      return `'${token.text}'`;
  }
}
