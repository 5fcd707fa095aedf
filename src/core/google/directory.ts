// How a principal appears to the Google-style services that share by e-mail address (files, calendar): its address
// (its `email` attribute, else one made from its id), its display name, its domain and the groups it belongs to (its
// `groups` attribute: group addresses). Addresses are compared lower-cased. There is no other group directory: a
// group is the set of users whose `groups` attribute names it.
import { sql, type Kysely } from 'kysely';
import { escapeLike, likeEscaped } from '../db/like.ts';
import type { Principal } from '../identity.ts';

export interface DirectoryEntry {
  email: string;
  name: string;
  domain: string;
  groups: string[];
}

export function directoryEntryOf(p: Pick<Principal, 'id' | 'name' | 'attrs'>): DirectoryEntry {
  const attrs = p.attrs as { email?: unknown; groups?: unknown };
  const email = (typeof attrs.email === 'string' && attrs.email.includes('@') ? attrs.email : `${p.id}@twinstack.local`).toLowerCase();
  const groups = Array.isArray(attrs.groups) ? attrs.groups.filter((g): g is string => typeof g === 'string').map((g) => g.toLowerCase()) : [];
  return { email, name: p.name, domain: email.slice(email.lastIndexOf('@') + 1), groups };
}

/** The entry of a principal read from its table (its attributes are JSON text). */
export const storedDirectoryEntry = (row: { id: string; name: string; attrs: unknown }): DirectoryEntry =>
  directoryEntryOf({ id: row.id, name: row.name, attrs: ((typeof row.attrs === 'string' ? JSON.parse(row.attrs) : row.attrs) ?? {}) as Record<string, unknown> });

/** The users whose `groups` attribute names `group`, ordered by address. */
export async function groupMembers(db: Kysely<any>, group: string): Promise<DirectoryEntry[]> {
  const address = group.toLowerCase();
  // No index reads inside the attributes: the JSON text holding the address narrows the rows, the parse decides.
  const rows = await db
    .selectFrom('core_principals')
    .select(['id', 'name', 'attrs'])
    .where('kind', '=', 'user')
    .where(likeEscaped(sql`lower(cast(${sql.ref('attrs')} as text))`, `%${escapeLike(address)}%`))
    .execute();
  return rows
    .map((r) => storedDirectoryEntry(r as { id: string; name: string; attrs: unknown }))
    .filter((entry) => entry.groups.includes(address))
    .sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
}
