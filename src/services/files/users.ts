// Who calls: the core principal behind the credential, seen as a Drive user (an e-mail address, a display name, a
// domain and the groups it belongs to). Grants are matched by e-mail, so a permission given to an address applies to
// whichever principal has it.
import type { FastifyRequest } from 'fastify';
import { directoryEntryOf, type DirectoryEntry } from '../../core/google/directory.ts';
import { authenticateGoogle } from '../../core/google/index.ts';
import { hasScope, type Principal } from '../../core/identity.ts';
import type { ServiceContext } from '../../core/service.ts';
import { granteeKey } from './domain/roles.ts';
import { appDataFolderId, rootFolderId } from './domain/ids.ts';
import { APP_DATA_ALIAS, SPACES, spacesReached, type Space } from './domain/spaces.ts';

/** A Drive user is the principal's directory entry. */
export type DriveUser = DirectoryEntry;

export interface Caller extends DriveUser {
  principalId: string;
  rootId: string;
  /** The `appDataFolder` alias. */
  appDataId: string;
  /** The spaces the credential reaches: a file of another space is unknown to it (404). */
  spaces: ReadonlySet<Space>;
  /** Grantee keys that admit the caller (user, groups, domain, anyone). */
  keys: string[];
}

/** What a request does to a user's files, which decides the scopes that admit it. */
export type ScopeNeed = 'read' | 'readContent' | 'writeMetadata' | 'write';

/**
 * The metadata scopes see and (drive.metadata) change files' metadata, never their content: downloads and exports
 * need a scope that reads files, uploads and everything else that writes one that manages them.
 */
const SCOPES: Record<ScopeNeed, string[]> = {
  read: ['drive', 'drive.file', 'drive.readonly', 'drive.metadata', 'drive.metadata.readonly', 'drive.appdata', 'cloud-platform'],
  readContent: ['drive', 'drive.file', 'drive.readonly', 'drive.appdata', 'cloud-platform'],
  writeMetadata: ['drive', 'drive.file', 'drive.metadata', 'drive.appdata', 'cloud-platform'],
  write: ['drive', 'drive.file', 'drive.appdata', 'cloud-platform'],
};

export async function authenticate(req: FastifyRequest, ctx: ServiceContext, need: ScopeNeed): Promise<Caller> {
  const { principal, credential, via } = await authenticateGoogle(req, ctx.identity, { scopes: SCOPES[need], apiKey: true });
  // An API key carries no scopes: it reaches the drive space only, where shared files are.
  return callerOf(principal, via === 'api_key' ? new Set(['drive']) : spacesReached((scopes) => hasScope(credential, ...scopes)));
}

/** The aliases a caller may use for a file id: `root` (My Drive) and `appDataFolder`. */
export function resolveAlias(caller: Caller, id: string): string {
  if (id === 'root') return caller.rootId;
  return id === APP_DATA_ALIAS ? caller.appDataId : id;
}

export function callerOf(principal: Principal, spaces: ReadonlySet<Space> = new Set(SPACES)): Caller {
  const user = directoryEntryOf(principal);
  return {
    ...user,
    principalId: principal.id,
    rootId: rootFolderId(user.email),
    appDataId: appDataFolderId(user.email),
    spaces,
    keys: granteeKeysOf(user),
  };
}

/** Grantee keys that admit a user: their address, their groups, their domain and anyone. */
export const granteeKeysOf = (user: DriveUser): string[] => [granteeKey('user', user.email), ...user.groups.map((g) => granteeKey('group', g)), granteeKey('domain', user.domain), 'anyone'];

/** The directory of users by e-mail (display names on permissions, owners and comments), refreshed every few seconds. */
export class Users {
  readonly #ctx: ServiceContext;
  #cache?: { at: number; byEmail: Map<string, DriveUser> };

  constructor(ctx: ServiceContext) {
    this.#ctx = ctx;
  }

  async byEmail(email: string): Promise<DriveUser | undefined> {
    const now = performance.now();
    if (!this.#cache || now - this.#cache.at > 2000) {
      const principals = await this.#ctx.identity.listPrincipals('user');
      this.#cache = { at: now, byEmail: new Map(principals.map((p) => [directoryEntryOf(p).email, directoryEntryOf(p)])) };
    }
    return this.#cache.byEmail.get(email.toLowerCase());
  }

  /** A user as the wire shows it, known or not (an address nobody has yet still gets a name). */
  async describe(email: string): Promise<DriveUser> {
    const known = await this.byEmail(email);
    if (known) return known;
    const domain = email.slice(email.indexOf('@') + 1);
    return { email, name: email.slice(0, email.indexOf('@')), domain, groups: [] };
  }
}
