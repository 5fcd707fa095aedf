// Token creation decodes its body the way Vault's token store does: a weak decode into strings, integers and a string
// map (numbers and booleans become text), then durations parsed from that text. Its error texts are Vault's, so a
// client matching them sees the same strings.
import { badRequest } from '../contract.ts';
import { weakText } from '../http/fields.ts';

const decodeError = (point: string) => badRequest(`Error decoding request: 1 error(s) decoding:\n\n* ${point}`);

/** The Go kind a JSON value decodes to, as the decoder names it. */
const goKind = (v: unknown): string => (Array.isArray(v) ? 'slice' : v === null ? 'invalid' : typeof v === 'object' ? 'map' : typeof v === 'boolean' ? 'bool' : 'string');
const goType = (v: unknown): string => (Array.isArray(v) ? '[]interface {}' : 'map[string]interface {}');

/** A scalar as text: booleans become `1`/`0`, absent and null become ``. */
export function weakString(value: unknown, name: string): string {
  const text = value === undefined ? '' : weakText(value);
  if (text !== undefined) return text;
  throw decodeError(`'${name}' expected type 'string', got unconvertible type '${goType(value)}'`);
}

/** An integer from a number, a decimal string (empty = 0) or a boolean. */
export function weakInt(value: unknown, name: string): number {
  if (value === undefined || value === null || value === '') return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') {
    const text = String(value).trim();
    if (/^[+-]?\d{1,15}$/.test(text)) return Number(text);
    const why = `strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`;
    throw decodeError(typeof value === 'number' ? `error decoding json.Number into ${name}: ${why}` : `cannot parse '${name}' as int: ${why}`);
  }
  throw decodeError(`'${name}' expected type 'int', got unconvertible type '${goType(value)}'`);
}

/** A boolean from JSON, Go's ParseBool text or a number's text; `` is false. Undefined when absent. */
export function weakBool(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  const text = weakString(value, name);
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(text)) return true;
  if (['', '0', 'f', 'F', 'false', 'FALSE', 'False'].includes(text)) return false;
  throw decodeError(`cannot parse '${name}' as bool: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`);
}

/** A list of strings; a lone value is a list of one (a comma string stays one name). Undefined when absent. */
export function weakStringList(value: unknown, name: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : [value];
  return items.map((item, i) => weakString(item, `${name}[${i}]`));
}

/** A map whose values become text; nested objects and arrays are refused. */
export function weakStringMap(value: unknown, name: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw decodeError(`'${name}' expected a map, got '${goKind(value)}'`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    Object.defineProperty(out, k, { value: weakString(v, `${name}[${k}]`), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const GO_UNITS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, μs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/**
 * Seconds from duration text as Vault's token store reads it: an integer is seconds, `<int>d` is days, anything else
 * a Go duration (`1h30m`, `-5m`); negative values come back negative for the caller to refuse by name.
 */
export function durationSecondsOf(text: string): number {
  if (/^[+-]?\d+$/.test(text)) return Number(text);
  if (text.endsWith('d')) {
    const days = text.slice(0, -1);
    if (!/^[+-]?\d+$/.test(days)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(days)}: invalid syntax`);
    return Number(days) * 86400;
  }
  return goDurationSeconds(text);
}

function goDurationSeconds(text: string): number {
  const invalid = () => badRequest(`time: invalid duration ${JSON.stringify(text)}`);
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') throw invalid();
  let total = 0;
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    if (number[0] === '' || number[0] === '.') throw invalid();
    rest = rest.slice(number[0].length);
    const unit = /^[^\d.]*/.exec(rest)![0];
    if (unit === '') throw badRequest(`time: missing unit in duration ${JSON.stringify(text)}`);
    const scale = GO_UNITS[unit];
    if (scale === undefined) throw badRequest(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}`);
    total += Number(number[0]) * scale;
    rest = rest.slice(unit.length);
  }
  return sign * Math.floor(total + 1e-9);
}
