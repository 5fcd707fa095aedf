// Roles, grantees and permission ids. A role's rank orders what it allows; `commenter` is `reader` plus
// additionalRoles ['commenter'] on the v2 wire.
import { createHash } from 'node:crypto';

export const ROLES = ['reader', 'commenter', 'writer', 'fileOrganizer', 'organizer', 'owner'] as const;
export type Role = (typeof ROLES)[number];
export const GRANTEE_TYPES = ['user', 'group', 'domain', 'anyone'] as const;
export type GranteeType = (typeof GRANTEE_TYPES)[number];

const RANK: Record<Role, number> = { reader: 1, commenter: 2, writer: 3, fileOrganizer: 4, organizer: 5, owner: 6 };

export const isRole = (v: unknown): v is Role => typeof v === 'string' && (ROLES as readonly string[]).includes(v);
export const isGranteeType = (v: unknown): v is GranteeType => typeof v === 'string' && (GRANTEE_TYPES as readonly string[]).includes(v);

export function atLeast(role: Role | undefined, need: Role): boolean {
  return role !== undefined && RANK[role] >= RANK[need];
}

export function strongest(roles: Iterable<string>): Role | undefined {
  let best: Role | undefined;
  for (const r of roles) if (isRole(r) && (best === undefined || RANK[r] > RANK[best])) best = r;
  return best;
}

/** The stored grantee key: who a permission names. */
export function granteeKey(type: GranteeType, value: string | undefined): string {
  if (type === 'anyone') return 'anyone';
  return `${type}:${(value ?? '').toLowerCase()}`;
}

/** Drive gives each e-mail address one permission id on every file: a decimal digest of the address. */
export function permissionIdForEmail(email: string): string {
  const digest = createHash('sha256').update(email.trim().toLowerCase()).digest();
  return (digest.readBigUInt64BE(0) % 10n ** 20n).toString().padStart(20, '0');
}

export function permissionIdFor(type: GranteeType, value: string | undefined, withLink: boolean): string {
  if (type === 'anyone') return withLink ? 'anyoneWithLink' : 'anyone';
  const id = permissionIdForEmail(value ?? '');
  return type === 'domain' ? `${id}k` : id;
}

/** v2 wire shape of a stored role. */
export function wireRole(role: Role): { role: string; additionalRoles?: string[] } {
  return role === 'commenter' ? { role: 'reader', additionalRoles: ['commenter'] } : { role };
}

/** The stored role of a v2 role plus additionalRoles. */
export function storedRole(role: string, additional: unknown): Role | undefined {
  if (role === 'reader' && Array.isArray(additional) && additional.includes('commenter')) return 'commenter';
  return isRole(role) ? role : undefined;
}
