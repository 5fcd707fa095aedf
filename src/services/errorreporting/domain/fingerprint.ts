// The group an event belongs to: a stable hash of the exception type and the top frames. Line numbers are left out so
// that the same failure still groups together after unrelated edits move the code. The service is left out too: the
// same kind of error in different service contexts gets the same group id (ErrorGroup.group_id), which is what
// `affectedServices` and `numAffectedServices` count.
import { hash } from 'node:crypto';

/** How many innermost frames identify a failure. */
export const TOP_FRAMES = 3;

export interface GroupKey {
  exceptionType: string;
  frames: string[];
}

/** A group id in the style of Error Reporting's opaque ids (URL-safe, 17 characters). */
export function groupIdOf(key: GroupKey): string {
  const material = [key.exceptionType, ...key.frames.slice(0, TOP_FRAMES)].join('\u0000');
  // The one-shot hash: a Hash object per report cost more than the digest of a few hundred bytes.
  return 'C' + hash('sha256', material, 'base64url').slice(0, 16);
}

/** What a group id may be: what groupIdOf makes, and what a client may name. */
export const GROUP_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const isGroupId = (text: string): boolean => GROUP_ID.test(text);
