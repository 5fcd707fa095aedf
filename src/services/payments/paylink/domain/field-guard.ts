// Field guards: values a payer must type to reach the payment form. Entered and expected values are compared after
// transliteration (accents and ligatures folded to ASCII), keeping only letters and digits, ignoring case, so that
// "Zoë O'Brien" and "zoe obrien" match.
import { own } from '../../../../core/own.ts';

/** Letters NFKD does not decompose into ASCII. */
const SPECIAL: Record<string, string> = {
  ß: 'ss', ẞ: 'SS', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D',
  ð: 'd', Ð: 'D', þ: 'th', Þ: 'TH', ı: 'i', ħ: 'h', Ħ: 'H', ŋ: 'ng', Ŋ: 'NG', ĸ: 'q',
};

/** The comparable form of a guard value: transliterated, alphanumeric ASCII only, lower case. */
export function normaliseGuardValue(value: string): string {
  const folded = value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x00-\x7F]/g, (ch) => SPECIAL[ch] ?? '');
  return folded.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
}

/** True when the entered value equals the source value under the guard comparison. */
export function guardValueMatches(entered: string, source: string): boolean {
  const a = normaliseGuardValue(entered);
  return a.length > 0 && a === normaliseGuardValue(source);
}

export interface GuardDefinition {
  name: string;
  label?: string;
  field_type?: string;
  minlen?: number;
  maxlen?: number;
  regex?: string;
  /** An explicit expected value; otherwise looked up in the request. */
  value?: string;
}

/** What the request offers as source values, in the order they are searched. */
export interface GuardSources {
  identifier: string;
  cardholder?: Record<string, unknown>;
  customParams?: Array<{ name: string; value?: unknown }>;
  passThroughData?: unknown;
}

const CARDHOLDER_ALIASES: Record<string, string[]> = {
  postcode: ['address.postcode'],
  address1: ['address.address1'],
  address2: ['address.address2'],
  address3: ['address.address3'],
  area: ['address.area'],
  country: ['address.country'],
  surname: ['lastname'],
  email_address: ['email'],
  mobile: ['mobile_no'],
};

/**
 * The expected value of a guard: its own `value`, else the identifier, cardholder data, custom params and
 * pass-through data, in that order. undefined when none holds a non-empty value (the request then fails with D041).
 */
export function guardSourceValue(guard: GuardDefinition, sources: GuardSources): string | undefined {
  if (nonEmpty(guard.value)) return String(guard.value);
  const name = guard.name;
  if (name === 'identifier') return sources.identifier;
  const holder = sources.cardholder ?? {};
  for (const path of [name, ...(own(CARDHOLDER_ALIASES, name) ?? [])]) {
    const found = pathValue(holder, path);
    if (nonEmpty(found)) return String(found);
  }
  const custom = sources.customParams?.find((p) => p.name === name);
  if (custom && nonEmpty(custom.value)) return String(custom.value);
  const passed = pathValue(sources.passThroughData, name);
  if (nonEmpty(passed)) return String(passed);
  return undefined;
}

/** The names of guards without a source value (each makes the create request fail with D041). */
export function guardsWithoutSource(guards: GuardDefinition[], sources: GuardSources): string[] {
  return guards.filter((g) => guardSourceValue(g, sources) === undefined).map((g) => g.name);
}

/** True when every guard's entered value matches its source value. */
export function allGuardsPass(expected: Array<{ name: string; value: string }>, entered: Record<string, unknown>): boolean {
  return expected.every((g) => {
    const value = own(entered, g.name);
    return typeof value === 'string' && guardValueMatches(value, g.value);
  });
}

/** The value at a dotted path through the request's own data (a guard named `constructor.name` finds nothing). */
function pathValue(root: unknown, path: string): unknown {
  let node = root;
  for (const key of path.split('.')) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = own(node as Record<string, unknown>, key);
  }
  return node;
}

function nonEmpty(v: unknown): boolean {
  return (typeof v === 'string' && v.trim() !== '') || typeof v === 'number';
}
