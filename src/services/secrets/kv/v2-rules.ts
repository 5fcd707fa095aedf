// Pure rules of KV version 2: key metadata, check-and-set, the window of kept versions, soft-deletion by time, merge
// patch, subkeys. No I/O; the engine (v2.ts) loads and stores what these functions produce.
import { setOwn } from '../../../core/own.ts';
import { badRequest } from '../contract.ts';
import { ExactNumber, numberOrValue } from '../exact-numbers.ts';

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
  const given = numberOrValue(cas);
  const n = typeof given === 'number' ? given : typeof given === 'string' && /^\d+$/.test(given) ? Number(given) : NaN;
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

/** The versions a key keeps: the greater of its own and the engine's max_versions (0 is unset), else 10, as in Vault. */
export const effectiveMaxVersions = (meta: KeyMetadata, config: EngineConfig) =>
  Math.max(meta.max_versions, config.max_versions) || DEFAULT_MAX_VERSIONS;

/**
 * Adds version current+1 to `meta` and moves the window of kept versions as Vault does: once current - oldest reaches
 * the effective max_versions, every version up to current - max goes and oldest_version becomes current - max + 1.
 * Only a data write moves the window, so a lowered max_versions takes effect here. Returns the new version and the
 * versions removed (to delete their data).
 */
export function addVersion(meta: KeyMetadata, config: EngineConfig, now: number): { version: number; trimmed: number[] } {
  const version = meta.current_version + 1;
  meta.versions[String(version)] = { created_time: iso(now), deletion_time: scheduledDeletion(meta, config, now), destroyed: false };
  meta.current_version = version;
  meta.updated_time = iso(now);
  const max = effectiveMaxVersions(meta, config);
  const trimmed: number[] = [];
  if (version - meta.oldest_version >= max) {
    const lastRemoved = version - max;
    for (let n = meta.oldest_version; n <= lastRemoved; n++) {
      if (!meta.versions[String(n)]) continue;
      delete meta.versions[String(n)];
      trimmed.push(n);
    }
    meta.oldest_version = lastRemoved + 1;
  }
  return { version, trimmed };
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

/** RFC 7396 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch) || patch instanceof ExactNumber) return patch;
  const out: Record<string, unknown> = target && typeof target === 'object' && !Array.isArray(target) && !(target instanceof ExactNumber) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setOwn(out, k, mergePatch(Object.prototype.hasOwnProperty.call(out, k) ? out[k] : undefined, v));
  }
  return out;
}

/** The structure of `data` with every leaf replaced by null, down to `depth` levels (0 = unlimited). */
export function subkeys(data: unknown, depth: number, level = 1): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data) || data instanceof ExactNumber) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    setOwn(out, k, depth !== 0 && level >= depth ? null : subkeys(v, depth, level + 1));
  }
  return out;
}
