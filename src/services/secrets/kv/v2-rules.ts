// Pure rules of KV version 2: key metadata, check-and-set, version trimming, soft-deletion by time, merge patch,
// subkeys. No I/O; the engine (v2.ts) loads and stores what these functions produce.
import { badRequest } from '../contract.ts';

export interface VersionMeta {
  created_time: string;
  deletion_time: string;
  destroyed: boolean;
}

export interface KeyMetadata {
  versions: Record<string, VersionMeta>;
  current_version: number;
  oldest_version: number;
  max_versions: number;
  cas_required: boolean;
  /** Seconds; 0 = never. */
  delete_version_after: number;
  custom_metadata: Record<string, string> | null;
  created_time: string;
  updated_time: string;
}

export interface EngineConfig {
  max_versions: number;
  cas_required: boolean;
  delete_version_after: number;
}

export const DEFAULT_MAX_VERSIONS = 10;
export const DEFAULT_CONFIG: EngineConfig = { max_versions: 0, cas_required: false, delete_version_after: 0 };

export const iso = (ms: number) => new Date(ms).toISOString();

export function newMetadata(now: number): KeyMetadata {
  return {
    versions: {},
    current_version: 0,
    oldest_version: 0,
    max_versions: 0,
    cas_required: false,
    delete_version_after: 0,
    custom_metadata: null,
    created_time: iso(now),
    updated_time: iso(now),
  };
}

/** Deleted = a deletion time that has been reached. */
export const isDeleted = (v: VersionMeta, now: number) => v.deletion_time !== '' && Date.parse(v.deletion_time) <= now;

/** Enforces check-and-set: `cas` must equal the current version (0 = must not exist) when given or required. */
export function checkCas(meta: KeyMetadata | undefined, config: EngineConfig, cas: unknown): void {
  const required = config.cas_required || Boolean(meta?.cas_required);
  if (cas === undefined || cas === null) {
    if (required) throw badRequest('check-and-set parameter required for this call');
    return;
  }
  const n = typeof cas === 'number' ? cas : typeof cas === 'string' && /^\d+$/.test(cas) ? Number(cas) : NaN;
  if (!Number.isInteger(n) || n < 0) throw badRequest('error parsing check-and-set parameter');
  if (n !== (meta?.current_version ?? 0)) throw badRequest('check-and-set parameter did not match the current version');
}

/** The effective delete_version_after: the shorter non-zero of key and engine settings. */
export function effectiveDeleteAfter(meta: KeyMetadata, config: EngineConfig): number {
  const values = [meta.delete_version_after, config.delete_version_after].filter((v) => v > 0);
  return values.length ? Math.min(...values) : 0;
}

/** The deletion time a version made live at `now` gets: now + effective delete_version_after, or '' for never. */
export function scheduledDeletion(meta: KeyMetadata, config: EngineConfig, now: number): string {
  const after = effectiveDeleteAfter(meta, config);
  return after ? iso(now + after * 1000) : '';
}

/** Soft-deletes a live version now; a destroyed or already deleted one keeps its state and deletion time. */
export function softDelete(v: VersionMeta, now: number): void {
  if (!v.destroyed && !isDeleted(v, now)) v.deletion_time = iso(now);
}

export const effectiveMaxVersions = (meta: KeyMetadata, config: EngineConfig) =>
  meta.max_versions || config.max_versions || DEFAULT_MAX_VERSIONS;

/** Adds version current+1 to `meta`; returns the new version and the versions trimmed away (to delete their data). */
export function addVersion(meta: KeyMetadata, config: EngineConfig, now: number): { version: number; trimmed: number[] } {
  const version = meta.current_version + 1;
  meta.versions[String(version)] = { created_time: iso(now), deletion_time: scheduledDeletion(meta, config, now), destroyed: false };
  meta.current_version = version;
  meta.updated_time = iso(now);
  return { version, trimmed: trim(meta, effectiveMaxVersions(meta, config)) };
}

/** Removes the oldest versions beyond `max`; advances oldest_version. */
export function trim(meta: KeyMetadata, max: number): number[] {
  const numbers = Object.keys(meta.versions).map(Number).sort((a, b) => a - b);
  const trimmed: number[] = [];
  while (numbers.length > max) {
    const n = numbers.shift()!;
    delete meta.versions[String(n)];
    trimmed.push(n);
  }
  if (trimmed.length) meta.oldest_version = numbers[0] ?? 0;
  return trimmed;
}

/** Parses a `versions` list (array or comma string of positive integers); empty → 400. */
export function parseVersions(value: unknown): number[] {
  const raw = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : value === undefined || value === null ? [] : [value];
  const out = raw.map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== '');
  if (out.length === 0) throw badRequest('No version number provided');
  return out.map((v) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < 0) throw badRequest(`invalid version ${JSON.stringify(v)}`);
    return n;
  });
}

/** Sets an own property even for keys such as `__proto__`, which plain assignment would treat as the prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A map without its null entries (the removals of a merge patch); anything else unchanged. */
export function withoutNulls(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

/** RFC 7396 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setOwn(out, k, mergePatch(Object.prototype.hasOwnProperty.call(out, k) ? out[k] : undefined, v));
  }
  return out;
}

/** The structure of `data` with every leaf replaced by null, down to `depth` levels (0 = unlimited). */
export function subkeys(data: unknown, depth: number, level = 1): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    setOwn(out, k, depth !== 0 && level >= depth ? null : subkeys(v, depth, level + 1));
  }
  return out;
}

const CUSTOM_METADATA_ERROR = 'custom_metadata validation failed';

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const printable = (text: string) => !/[\p{C}\p{Z}]/u.test(text.replaceAll(' ', ''));

/** go-multierror's text, which Vault returns as the single error string. */
const multiError = (problems: string[]) =>
  `${problems.length} error${problems.length === 1 ? '' : 's'} occurred:\n${problems.map((p) => `\t* ${p}\n`).join('')}\n`;

/**
 * Validates custom_metadata as Vault does: at most 64 keys (checked alone first), then for every entry a key of 1 to
 * 128 bytes, a value of 1 to 512 bytes, both printable. All problems are reported in one error string.
 */
export function validateCustomMetadata(value: Record<string, string>): void {
  const entries = Object.entries(value);
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
