// Tokens of the Merchant Center query language: words (keywords, field names, table names, date functions),
// quoted strings, numbers and punctuation, each with the 1-based character position it starts at.

export class ReportQueryError extends Error {
  constructor(message: string, readonly position: number) {
    super(`${message} at position ${position}`);
    this.name = 'ReportQueryError';
  }
}

export type TokenKind = 'word' | 'string' | 'number' | 'punct' | 'end';

export interface Token {
  kind: TokenKind;
  /** The word or punctuation as written, a string's unquoted content, or a number's digits. */
  text: string;
  position: number;
}

const PUNCTUATION = ['<=', '>=', '!=', '<>', '=', '<', '>', ',', '(', ')', '*'];

function readString(text: string, start: number): { value: string; end: number } {
  const quote = text[start];
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length) {
      value += text[++i];
    } else if (ch === quote) {
      return { value, end: i + 1 };
    } else {
      value += ch;
    }
  }
  throw new ReportQueryError('Unterminated string literal', start + 1);
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const position = i + 1;
    if (ch === "'" || ch === '"') {
      const { value, end } = readString(text, i);
      tokens.push({ kind: 'string', text: value, position });
      i = end;
      continue;
    }
    const number = /^-?\d+(\.\d+)?/.exec(text.slice(i));
    if (number && !/[A-Za-z_]/.test(text[i + number[0].length] ?? '')) {
      tokens.push({ kind: 'number', text: number[0], position });
      i += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(text.slice(i));
    if (word) {
      tokens.push({ kind: 'word', text: word[0], position });
      i += word[0].length;
      continue;
    }
    const punct = PUNCTUATION.find((p) => text.startsWith(p, i));
    if (!punct) throw new ReportQueryError(`Unexpected character '${ch}'`, position);
    tokens.push({ kind: 'punct', text: punct, position });
    i += punct.length;
  }
  tokens.push({ kind: 'end', text: '', position: text.length + 1 });
  return tokens;
}
