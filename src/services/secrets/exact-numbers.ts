// Numbers in secret data keep the text they were sent with, as Vault's JSON decoding keeps it (a json.Number): a
// number whose text a double would change (12345678901234567890, 1.50, 1e3, -0) is held as an ExactNumber from the
// request body to storage and back to every answer. Every other number stays a plain number, so only bodies holding
// such a literal take the slower exact parse.
import { parse as parseLossless } from 'lossless-json';
import { randomBytes } from 'node:crypto';
import { setOwn } from '../../core/own.ts';

/** A JSON number kept as its literal text. */
export class ExactNumber {
  readonly #text: string;
  constructor(text: string) {
    this.#text = text;
  }
  get text(): string {
    return this.#text;
  }
  valueOf(): number {
    return Number(this.#text);
  }
  /** Serialised as a marker that `stringifyExact` turns back into the literal (JSON.stringify cannot write raw text). */
  toJSON(): string {
    return MARKER + this.#text;
  }
}

// The marker cannot come from user text: it holds a random part of this process, and answers and storage only ever
// see it replaced.
const MARKER = `\u0000exact-number:${randomBytes(8).toString('hex')}:`;
const MARKER_IN_JSON = JSON.stringify(MARKER).slice(1, -1);
const MARKED = new RegExp(`"${MARKER_IN_JSON.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}([-+.0-9eE]+)"`, 'g');

/** Whether a number's literal text survives a double: `String(Number(text)) === text`. */
const survivesDouble = (text: string): boolean => String(Number(text)) === text;

/** Whether a JSON text holds a number literal a double would change (strings are skipped). */
export function holdsInexactNumbers(text: string): boolean {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end++;
      if (!survivesDouble(text.slice(i, end))) return true;
      i = end - 1;
    }
  }
  return false;
}

const isNumberChar = (c: number): boolean => (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

/** Values parsed by `parseExact` (their ExactNumbers are turned back into numbers for typed fields). */
const parsedExactly = new WeakSet<object>();

/** Parses JSON (already known to be well-formed) with ExactNumbers where a double would change a literal. */
export function parseExact(text: string): unknown {
  // A leading byte order mark is skipped, as the plain parse skips it.
  const value = parseLossless(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, undefined, {
    parseNumber: (literal) => (survivesDouble(literal) ? Number(literal) : new ExactNumber(literal)),
    // The last of a repeated key wins, as in JSON.parse and Vault's decoder.
    onDuplicateKey: ({ newValue }) => newValue,
  });
  if (value !== null && typeof value === 'object') parsedExactly.add(value);
  return value;
}

/** JSON text of a value that may hold ExactNumbers, each written as its literal. */
export function stringifyExact(value: unknown): string {
  return literalsRestored(JSON.stringify(value)).text;
}

/** JSON.stringify's text with each ExactNumber's marker replaced by its literal, and whether there was any. */
function literalsRestored(text: string): { text: string; exact: boolean } {
  return text !== undefined && text.includes(MARKER_IN_JSON) ? { text: text.replace(MARKED, '$1'), exact: true } : { text, exact: false };
}

/** A stored value starting with this character holds literals a double would change: it is read back exactly. */
const EXACT_STORED = '\u0001';

/** The stored text of a value: JSON, marked when it holds ExactNumbers. */
export function encodeStored(value: unknown): string {
  const { text, exact } = literalsRestored(JSON.stringify(value));
  return exact ? EXACT_STORED + text : text;
}

/** A value from its stored text (`encodeStored`'s, or plain JSON written before numbers were kept exactly). */
export const decodeStored = (text: string): unknown => (text.startsWith(EXACT_STORED) ? parseExact(text.slice(1)) : JSON.parse(text));

/** A request body with every ExactNumber as a plain number, for routes whose fields are typed (unchanged if none). */
export const withPlainNumbers = <T>(data: T): T => (data !== null && typeof data === 'object' && parsedExactly.has(data) ? (plainNumbers(data) as T) : data);

/**
 * A request body whose own fields are plain numbers, the values inside them kept as sent: a field whose shape a
 * handler checks (`data` must be a map) sees the number it names, the data inside it keeps its literals.
 */
export function withPlainFields<T extends Record<string, unknown>>(data: T): T {
  if (!parsedExactly.has(data)) return data;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) setOwn(out, k, numberOrValue(v));
  return out as T;
}

function plainNumbers(value: unknown): unknown {
  if (value instanceof ExactNumber) return value.valueOf();
  if (Array.isArray(value)) return value.map(plainNumbers);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, plainNumbers(v));
    return out;
  }
  return value;
}

/** A typed field's value: an ExactNumber read as the number it names. */
export const numberOrValue = (value: unknown): unknown => (value instanceof ExactNumber ? value.valueOf() : value);
