// The service's settings (`services.files` in the config file), validated at start.
import { ApiError } from '../../core/errors.ts';
import type { BlobBackend } from '../../core/blobs/index.ts';

export interface FilesSettings {
  /** Largest content accepted by any upload, in bytes (413 above). */
  maxUploadBytes: number;
  /** How long a resumable session stays usable after its last activity. */
  resumableTtlMs: number;
  /** Bytes per user reported as the quota in about.get. */
  quotaBytes: number;
  blobBackend?: BlobBackend;
  blobDirectory?: string;
}

export const DEFAULT_SETTINGS: FilesSettings = {
  maxUploadBytes: 100 * 1024 * 1024,
  resumableTtlMs: 7 * 86_400_000,
  quotaBytes: 15 * 1024 ** 3,
};

export function readSettings(raw: Record<string, unknown>): FilesSettings {
  const out: FilesSettings = { ...DEFAULT_SETTINGS };
  const positive = (key: 'maxUploadBytes' | 'resumableTtlMs' | 'quotaBytes') => {
    const v = raw[key];
    if (v === undefined) return;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) throw new ApiError(400, `services.files.${key} must be a positive integer`);
    out[key] = v;
  };
  positive('maxUploadBytes');
  positive('resumableTtlMs');
  positive('quotaBytes');
  if (raw.blobBackend !== undefined) {
    if (raw.blobBackend !== 'filesystem' && raw.blobBackend !== 'database') throw new ApiError(400, 'services.files.blobBackend must be filesystem or database');
    out.blobBackend = raw.blobBackend;
  }
  if (raw.blobDirectory !== undefined) {
    if (typeof raw.blobDirectory !== 'string' || raw.blobDirectory === '') throw new ApiError(400, 'services.files.blobDirectory must be a path');
    out.blobDirectory = raw.blobDirectory;
  }
  return out;
}
