import { DriveQueryError } from './errors.ts';

export type Token =
  | { type: 'string'; value: string; start: number }
  | { type: 'word'; text: string; start: number }
  | { type: 'operator'; text: '=' | '!=' | '<' | '<=' | '>' | '>='; start: number }
  | { type: 'punctuation'; text: '(' | ')' | '{' | '}'; start: number }
  | { type: 'end'; start: number };

const WORD_CHAR = /[A-Za-z0-9_.]/;
const WHITESPACE = /\s/;

/** Splits a `q` text into tokens; strings are single-quoted with `\'` and `\\` as the only escapes. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (WHITESPACE.test(ch)) {
      i++;
    } else if (ch === "'") {
      const { value, next } = readString(text, i);
      tokens.push({ type: 'string', value, start: i });
      i = next;
    } else if (ch === '(' || ch === ')' || ch === '{' || ch === '}') {
      tokens.push({ type: 'punctuation', text: ch, start: i });
      i++;
    } else if (ch === '=') {
      tokens.push({ type: 'operator', text: '=', start: i });
      i++;
    } else if (ch === '<' || ch === '>' || ch === '!') {
      const withEquals = text[i + 1] === '=';
      if (ch === '!' && !withEquals) throw new DriveQueryError("'!' must be followed by '='", i);
      const op = (withEquals ? `${ch}=` : ch) as '!=' | '<' | '<=' | '>' | '>=';
      tokens.push({ type: 'operator', text: op, start: i });
      i += withEquals ? 2 : 1;
    } else if (WORD_CHAR.test(ch)) {
      const start = i;
      while (i < text.length && WORD_CHAR.test(text[i])) i++;
      tokens.push({ type: 'word', text: text.slice(start, i), start });
    } else {
      throw new DriveQueryError(`unexpected character ${JSON.stringify(ch)}`, i);
    }
  }
  tokens.push({ type: 'end', start: text.length });
  return tokens;
}

function readString(text: string, open: number): { value: string; next: number } {
  let value = '';
  let i = open + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "'") return { value, next: i + 1 };
    if (ch === '\\') {
      const escaped = text[i + 1];
      if (escaped !== "'" && escaped !== '\\') {
        throw new DriveQueryError(`unsupported escape ${JSON.stringify('\\' + (escaped ?? ''))} (only \\' and \\\\ are allowed)`, i);
      }
      value += escaped;
      i += 2;
    } else {
      value += ch;
      i++;
    }
  }
  throw new DriveQueryError('unterminated string', open);
}

/** The inverse of readString: quotes a value so the tokenizer reads it back unchanged. */
export function quoteString(value: string): string {
  return `'${value.replace(/[\\']/g, (c) => '\\' + c)}'`;
}
