// Reading request fields with the spec's rules. Every refusal is a PaymentsError carrying the API's own result code,
// so bad input is answered before anything reaches the store.
import { payError } from '../contract.ts';

/** Marks a body whose values arrived as text (XML, form): numbers and booleans may then be given as strings. */
export const TEXTUAL = Symbol('textual');

export type RawBody = Record<string, unknown> & { [TEXTUAL]?: boolean };

interface Codes {
  /** Result code when the field is absent (default P044). */
  missing?: string;
  /** Result code when the field is present but invalid (default P045). */
  invalid?: string;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export class Fields {
  readonly #raw: RawBody;
  readonly #textual: boolean;

  constructor(raw: RawBody) {
    this.#raw = raw;
    this.#textual = raw[TEXTUAL] === true;
  }

  has(name: string): boolean {
    const v = this.#raw[name];
    return v !== undefined && v !== null && !(this.#textual && v === '');
  }

  #missing(name: string, codes: Codes): never {
    throw payError(400, codes.missing ?? 'P044', `Field not provided: ${name}`);
  }

  #invalid(name: string, codes: Codes, why: string): never {
    throw payError(400, codes.invalid ?? 'P045', `Field invalid: ${name} ${why}`);
  }

  /** An integer, optionally bounded in value and in number of digits. */
  int(name: string, opts: Codes & { required?: boolean; min?: number; max?: number; digits?: [number, number] } = {}): number | undefined {
    if (!this.has(name)) return opts.required ? this.#missing(name, opts) : undefined;
    let v = this.#raw[name];
    if (typeof v === 'string' && this.#textual && /^-?\d{1,15}$/.test(v.trim())) v = Number(v.trim());
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return this.#invalid(name, opts, 'must be an integer');
    if (opts.digits) {
      const len = String(Math.abs(v)).length;
      if (len < opts.digits[0] || len > opts.digits[1]) this.#invalid(name, opts, `must have ${opts.digits[0]} to ${opts.digits[1]} digits`);
    }
    if (opts.min !== undefined && v < opts.min) this.#invalid(name, opts, `must be at least ${opts.min}`);
    if (opts.max !== undefined && v > opts.max) this.#invalid(name, opts, `must be at most ${opts.max}`);
    return v;
  }

  /** A string with length bounds and an optional pattern; `printable` demands printable ASCII. */
  str(
    name: string,
    opts: Codes & { required?: boolean; min?: number; max?: number; pattern?: RegExp; printable?: boolean; oneOf?: readonly string[]; short?: string; long?: string } = {},
  ): string | undefined {
    if (!this.has(name)) return opts.required ? this.#missing(name, opts) : undefined;
    const v = this.#raw[name];
    if (typeof v !== 'string') return this.#invalid(name, opts, 'must be a string');
    if (opts.min !== undefined && v.length < opts.min) {
      throw payError(400, opts.short ?? opts.invalid ?? 'P045', `Field invalid: ${name} must be at least ${opts.min} characters`);
    }
    if (opts.max !== undefined && v.length > opts.max) {
      throw payError(400, opts.long ?? opts.invalid ?? 'P045', `Field invalid: ${name} must be at most ${opts.max} characters`);
    }
    if (opts.printable && !PRINTABLE_ASCII.test(v)) this.#invalid(name, opts, 'must be printable ASCII');
    if (opts.pattern && !opts.pattern.test(v)) this.#invalid(name, opts, 'has an invalid format');
    if (opts.oneOf && !opts.oneOf.includes(v)) this.#invalid(name, opts, `must be one of ${opts.oneOf.join(', ')}`);
    return v;
  }

  bool(name: string, opts: Codes = {}): boolean | undefined {
    if (!this.has(name)) return undefined;
    const v = this.#raw[name];
    if (typeof v === 'boolean') return v;
    if (this.#textual && (v === 'true' || v === 'false')) return v === 'true';
    return this.#invalid(name, opts, 'must be a boolean');
  }

  /** A nested object (its fields read with the same text rules). */
  obj(name: string, opts: Codes = {}): Fields | undefined {
    if (!this.has(name)) return undefined;
    const v = this.#raw[name];
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return this.#invalid(name, opts, 'must be an object');
    const child = { ...(v as Record<string, unknown>) } as RawBody;
    if (this.#textual) child[TEXTUAL] = true;
    return new Fields(child);
  }

  /** An array of strings; from XML a single repeated element arrives as one string. */
  strArray(name: string, opts: Codes & { maxItems?: number; item?: RegExp } = {}): string[] | undefined {
    if (!this.has(name)) return undefined;
    let v = this.#raw[name];
    if (this.#textual && typeof v === 'string') v = [v];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return this.#invalid(name, opts, 'must be an array of strings');
    if (opts.maxItems !== undefined && v.length > opts.maxItems) this.#invalid(name, opts, `must have at most ${opts.maxItems} items`);
    if (opts.item && !v.every((x) => opts.item!.test(x))) this.#invalid(name, opts, 'has an invalid item');
    return v as string[];
  }

  /** An array of integers; from XML a single repeated element arrives as one string. */
  intArray(name: string, opts: Codes & { maxItems?: number; min?: number; max?: number } = {}): number[] | undefined {
    if (!this.has(name)) return undefined;
    let v = this.#raw[name];
    if (this.#textual && !Array.isArray(v)) v = [v];
    if (!Array.isArray(v)) return this.#invalid(name, opts, 'must be an array of integers');
    if (opts.maxItems !== undefined && v.length > opts.maxItems) this.#invalid(name, opts, `must have at most ${opts.maxItems} items`);
    return v.map((x) => {
      const n = this.#textual && typeof x === 'string' && /^\d{1,15}$/.test(x.trim()) ? Number(x) : x;
      if (typeof n !== 'number' || !Number.isSafeInteger(n)) return this.#invalid(name, opts, 'must be an array of integers');
      if ((opts.min !== undefined && n < opts.min) || (opts.max !== undefined && n > opts.max)) this.#invalid(name, opts, 'has an item out of range');
      return n;
    });
  }

  /** The plain value of a field (for pass-through objects). */
  raw(name: string): unknown {
    return this.#raw[name];
  }
}
