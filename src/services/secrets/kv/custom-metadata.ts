// KV v2 custom_metadata: decoding the request's map to strings and Vault's limits on keys and values.
import { badRequest } from '../contract.ts';
import { weakText } from '../http/fields.ts';
import { setOwn } from '../../../core/own.ts';

const CUSTOM_METADATA_ERROR = 'custom_metadata validation failed';

/**
 * Decodes custom_metadata as Vault's engine does: a map whose values are weakly decoded to strings (numbers in decimal
 * form, booleans as "1" and "0", null as "", which the length rule then refuses). In a patch a null stays null: it
 * removes that key. A list or a map as a value is refused.
 */
export function decodeCustomMetadata(value: unknown, patch: boolean): Record<string, string | null> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest('invalid map for custom_metadata');
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(value)) {
    const decoded = patch && v === null ? null : weakText(v);
    if (decoded === undefined) throw badRequest(`${CUSTOM_METADATA_ERROR}: value for key ${JSON.stringify(k)} is not a string, a number or a boolean`);
    setOwn(out, k, decoded);
  }
  return out;
}

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const printable = (text: string) => !/[\p{C}\p{Z}]/u.test(text.replaceAll(' ', ''));

/** go-multierror's text, which Vault returns as the single error string. */
const multiError = (problems: string[]) =>
  `${problems.length} error${problems.length === 1 ? '' : 's'} occurred:\n${problems.map((p) => `\t* ${p}\n`).join('')}\n`;

/**
 * Validates decoded custom_metadata as Vault does: at most 64 keys (checked alone first), then for every entry a key of
 * 1 to 128 bytes, a value of 1 to 512 bytes, both printable. All problems are reported in one error string. The nulls
 * of a patch are removals and are not counted.
 */
export function validateCustomMetadata(value: Record<string, string | null>): void {
  const entries = Object.entries(value).filter((entry): entry is [string, string] => entry[1] !== null);
  if (entries.length > 64) {
    throw badRequest(multiError([`${CUSTOM_METADATA_ERROR}: payload must contain at most 64 keys, provided ${entries.length}`]));
  }
  const problems: string[] = [];
  for (const [k, v] of entries) {
    const keyBytes = Buffer.byteLength(k);
    const valueBytes = Buffer.byteLength(v);
    if (keyBytes === 0 || keyBytes > 128) problems.push(`length of key ${JSON.stringify(k)} is ${keyBytes} but must be 0 < len(key) <= 128`);
    if (valueBytes === 0 || valueBytes > 512) problems.push(`length of value for key ${JSON.stringify(k)} is ${valueBytes} but must be 0 < len(value) <= 512`);
    if (!printable(k)) problems.push(`key ${JSON.stringify(k)} (${k}) contains unprintable characters`);
    if (!printable(v)) problems.push(`value for key ${JSON.stringify(k)} contains unprintable characters`);
  }
  if (problems.length) throw badRequest(multiError(problems.map((p) => `${CUSTOM_METADATA_ERROR}: ${p}`)));
}
