// Volume ids: 12 URL-safe characters, as Books' own are, derived from where a record comes from so that loading the
// same record again (another instance, a reset) gives the same id.
import { createHash } from 'node:crypto';

export type CatalogSource = 'gutenberg' | 'openlibrary';

export const VOLUME_ID_LENGTH = 12;

export function volumeIdOf(source: CatalogSource, key: string): string {
  return createHash('sha256').update(`${source}:${key}`).digest('base64url').slice(0, VOLUME_ID_LENGTH);
}

export const looksLikeVolumeId = (id: string): boolean => /^[A-Za-z0-9_-]{12}$/.test(id);
