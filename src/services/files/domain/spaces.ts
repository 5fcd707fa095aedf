// Drive's spaces: `drive` (My Drive, shared drives, shared with me) and `appDataFolder` (the hidden folder private to
// the user and the app). A file's space is its parents' and never changes. `photos` is accepted where Drive lists it
// and reads as `drive`.
import { invalidValue } from '../errors.ts';

export const SPACES = ['drive', 'appDataFolder'] as const;
export type Space = (typeof SPACES)[number];

/** The alias of the caller's application data folder, as `root` is of their My Drive. */
export const APP_DATA_ALIAS = 'appDataFolder';

/** The scopes that reach each space. Drive asks for `drive.appdata` for the application data folder. */
const REACHED_BY: Record<Space, string[]> = {
  drive: ['drive', 'drive.file', 'drive.readonly', 'drive.metadata', 'drive.metadata.readonly', 'cloud-platform'],
  appDataFolder: ['drive.appdata', 'cloud-platform'],
};

/** The spaces a bearer token's scopes reach (`held` tells whether it holds one of the scopes given). */
export function spacesReached(held: (scopes: string[]) => boolean): Set<Space> {
  return new Set(SPACES.filter((space) => held(REACHED_BY[space])));
}

/** A comma-separated `spaces` (or `space`) value: the spaces named, `photos` read as `drive`; 400 for any other. */
export function readSpaces(values: string[], location: string, fallback: Space[] = ['drive']): Space[] {
  if (values.length === 0) return fallback;
  const out = new Set<Space>();
  for (const value of values) {
    if (value === 'photos') out.add('drive');
    else if ((SPACES as readonly string[]).includes(value)) out.add(value as Space);
    else throw invalidValue(location, `Invalid space: ${value}`);
  }
  return [...out];
}
