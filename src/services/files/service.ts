// What every route of the file storage shares: the content store, watch channels, the user directory, the write
// path (a unit of work that records changes and notifies watchers) and the access rule (no access is a 404).
import type { Kysely } from 'kysely';
import { BlobStore } from '../../core/blobs/index.ts';
import { WatchChannels, type ChannelAudience } from '../../core/google/watch-channels.ts';
import type { ServiceContext } from '../../core/service.ts';
import { FOLDER } from './domain/mime.ts';
import { atLeast, granteeKey, permissionIdForEmail, type Role } from './domain/roles.ts';
import { fileNotFound, insufficientPermissions, preconditionFailed } from './errors.ts';
import { readSettings, type FilesSettings } from './settings.ts';
import { audienceOf, granteesOn, roleOf } from './store/access.ts';
import { appendChanges, type ChangeRow } from './store/changes.ts';
import { getFile, insertFileIfAbsent, type FileRecord } from './store/files.ts';
import { recordModification } from './store/modifications.ts';
import { putPermission } from './store/permissions.ts';
import { Users, granteeKeysOf, resolveAlias, type Caller } from './users.ts';
import { etagOf } from './domain/etag.ts';
import type { Space } from './domain/spaces.ts';

export const SERVICE = 'files';

export interface AccessOptions {
  need?: Role;
  /** Shared drive items answer only to callers that say they support them. */
  supportsAllDrives?: boolean;
  ifMatch?: string;
  /** Inside a unit of work the file is locked for update (PostgreSQL); `readOnly` only shares the lock (a new parent). */
  readOnly?: boolean;
}

export class FilesService {
  readonly ctx: ServiceContext;
  readonly settings: FilesSettings;
  readonly blobs: BlobStore;
  readonly channels: WatchChannels;
  readonly users: Users;
  readonly #roots = new Set<string>();

  constructor(ctx: ServiceContext) {
    this.ctx = ctx;
    this.settings = readSettings(ctx.settings);
    this.blobs = new BlobStore(ctx.db, ctx.clock, ctx.dataDir, { backend: this.settings.blobBackend, directory: this.settings.blobDirectory });
    this.channels = new WatchChannels(ctx.outbox, ctx.clock);
    this.users = new Users(ctx);
  }

  get db(): Kysely<any> {
    return this.ctx.kysely;
  }

  now(): number {
    return this.ctx.clock.now();
  }

  /** Forgets which root folders exist (after a reset). */
  forgetRoots(): void {
    this.#roots.clear();
  }

  /**
   * Creates the caller's My Drive root folder and application data folder the first time they are needed: both are
   * roots (never listed, trashed, deleted, renamed or moved), owned by the caller, in their own spaces.
   */
  async ensureRoot(caller: Caller): Promise<void> {
    if (this.#roots.has(caller.rootId)) return;
    const roots: Array<{ id: string; title: string; space: Space }> = [
      { id: caller.rootId, title: 'My Drive', space: 'drive' },
      { id: caller.appDataId, title: 'Application Data', space: 'appDataFolder' },
    ];
    const missing = async (db: Kysely<any>) => {
      const found = await db.selectFrom('files_files').select('id').where('id', 'in', roots.map((r) => r.id)).execute();
      return roots.filter((r) => !found.some((f) => f.id === r.id));
    };
    if ((await missing(this.db)).length) {
      await this.ctx.db.write(async (tx) => {
        const now = this.now();
        // Requests of a new caller may arrive together: the first insert makes each root, the others find it.
        for (const root of await missing(tx)) {
          const record = newFileRecord({ id: root.id, ownerEmail: caller.email, title: root.title, mimeType: FOLDER, now, isRoot: true, space: root.space });
          if (!(await insertFileIfAbsent(tx, record, []))) continue;
          await recordModification(tx, root.id, caller.email, now);
          await putPermission(tx, {
            fileId: root.id,
            id: permissionIdForEmail(caller.email),
            type: 'user',
            role: 'owner',
            grantee: granteeKey('user', caller.email),
            withLink: false,
            expiresAt: null,
            createdAt: now,
            version: 1,
          });
        }
      });
    }
    this.#roots.add(caller.rootId);
  }

  /** `root` names the caller's My Drive, `appDataFolder` their application data folder. */
  resolveId(caller: Caller, id: string): string {
    return resolveAlias(caller, id);
  }

  /** The file and the caller's role on it; 404 without access (as Drive answers), 403 when the role is too weak. */
  async access(db: Kysely<any>, caller: Caller, rawId: string, options: AccessOptions = {}): Promise<{ file: FileRecord; role: Role }> {
    const id = this.resolveId(caller, rawId);
    // Inside a unit of work on PostgreSQL the row is locked: the read that decides a write stays true until commit.
    const locking = db !== this.db && this.ctx.db.dialect === 'postgres';
    const file = await getFile(db, id, locking ? (options.readOnly ? 'share' : 'update') : undefined);
    const role = file ? await roleOf(db, id, caller.keys, this.now()) : undefined;
    if (!file || !role || (file.driveId && !options.supportsAllDrives && !file.isRoot)) throw fileNotFound(rawId);
    // A space the credential's scopes do not reach hides its files, as files of other apps are hidden.
    if (!caller.spaces.has(file.space)) throw fileNotFound(rawId);
    if (options.need && !atLeast(role, options.need)) throw insufficientPermissions();
    if (options.ifMatch !== undefined && options.ifMatch !== '*' && options.ifMatch !== etagOf(file.id, file.version)) throw preconditionFailed();
    return { file, role };
  }

  /**
   * The write path: one unit of work that also appends the change log for every file it touched and queues the
   * watchers' notifications; content freed by the unit is removed once it is committed.
   */
  async write<T>(caller: Caller | undefined, fn: (unit: Unit) => Promise<T>): Promise<T> {
    const freed: string[] = [];
    try {
      return await this.ctx.db.write(async (tx) => {
        const unit = new Unit(this, tx, caller, this.now(), freed);
        const result = await fn(unit);
        await unit.finish();
        return result;
      });
    } finally {
      if (freed.length) await this.blobs.collect(freed);
    }
  }
}

interface Touched {
  before: Set<string>;
  /** The file's space when it was first touched (a file deleted by the unit has no row to read it from after). */
  space: Space | undefined;
  state: string;
  changed: Set<string>;
  /** Grantee keys that could see the file when the unit marked it removed: its channels' audience once it is gone. */
  seenBy?: Set<string>;
}

export class Unit {
  readonly svc: FilesService;
  readonly tx: Kysely<any>;
  readonly caller: Caller | undefined;
  readonly now: number;
  readonly freed: string[];
  readonly #files = new Map<string, Touched>();
  readonly #drives = new Map<string, Set<string>>();

  constructor(svc: FilesService, tx: Kysely<any>, caller: Caller | undefined, now: number, freed: string[]) {
    this.svc = svc;
    this.tx = tx;
    this.caller = caller;
    this.now = now;
    this.freed = freed;
  }

  /**
   * Marks a file as changed by this unit. Call it before changing who may see the file: the users who could see it
   * before hear of the change too (as a removal when they lost access).
   */
  async touch(fileId: string, state = 'update', changed: string[] = []): Promise<void> {
    let entry = this.#files.get(fileId);
    if (!entry) {
      const row = await this.tx.selectFrom('files_files').select('space').where('id', '=', fileId).executeTakeFirst();
      entry = { before: await audienceOf(this.tx, fileId), space: row?.space, state, changed: new Set() };
      this.#files.set(fileId, entry);
    }
    if (state !== 'update') entry.state = state;
    if (state === 'remove') entry.seenBy ??= await granteesOn(this.tx, fileId, this.now);
    for (const c of changed) entry.changed.add(c);
  }

  /** Marks a shared drive's own metadata as changed, for these member subjects. */
  touchDrive(driveId: string, members: Iterable<string>): void {
    const set = this.#drives.get(driveId) ?? new Set<string>();
    for (const m of members) set.add(m);
    this.#drives.set(driveId, set);
  }

  async release(hash: string): Promise<void> {
    const freed = await this.svc.blobs.release(this.tx, SERVICE, hash);
    if (freed) this.freed.push(freed);
  }

  async finish(): Promise<void> {
    const rows: ChangeRow[] = [];
    const subjects = new Set<string>();
    for (const [fileId, t] of this.#files) {
      const after = await audienceOf(this.tx, fileId);
      const file = await this.tx.selectFrom('files_files').select(['drive_id', 'space']).where('id', '=', fileId).executeTakeFirst();
      const space = file?.space ?? t.space ?? 'drive';
      for (const subject of new Set([...t.before, ...after])) {
        rows.push({ subject, fileId, driveId: file?.drive_id ?? null, space, changeType: 'file', at: this.now });
        subjects.add(subject);
      }
      const audience = this.#fileAudience(fileId, file ? undefined : (t.seenBy ?? new Set()));
      await this.svc.channels.notify(this.tx, { service: SERVICE, topic: `files:${fileId}`, state: t.state, changed: [...t.changed], audience });
    }
    for (const [driveId, members] of this.#drives) {
      for (const subject of [`drive:${driveId}`, ...members]) {
        rows.push({ subject, fileId: null, driveId, space: 'drive', changeType: 'drive', at: this.now });
        subjects.add(subject);
      }
    }
    await appendChanges(this.tx, rows);
    // A change feed is its owner's own: every one of its channels hears of it.
    for (const subject of subjects) await this.svc.channels.notify(this.tx, { service: SERVICE, topic: `changes:${subject}`, state: 'change' });
  }

  /**
   * The owners (by e-mail) of a file's channels who may still see it after the unit: a permission on the file or a
   * folder above it names one of their grantee keys. A file the unit removed has no permissions left: `granted` are
   * the keys that could see it before.
   */
  #fileAudience(fileId: string, granted: Set<string> | undefined): ChannelAudience {
    return async (emails) => {
      const keys = new Map(await Promise.all(emails.map(async (email) => [email, granteeKeysOf(await this.svc.users.describe(email))] as const)));
      const live = granted ?? (await granteesOn(this.tx, fileId, this.now, [...new Set([...keys.values()].flat())]));
      return new Set(emails.filter((email) => keys.get(email)!.some((k) => live.has(k))));
    };
  }
}

export function newFileRecord(input: {
  id: string;
  ownerEmail: string | null;
  driveId?: string | null;
  title: string;
  mimeType: string;
  now: number;
  isRoot?: boolean;
  space?: Space;
}): FileRecord {
  return {
    id: input.id,
    ownerEmail: input.ownerEmail,
    driveId: input.driveId ?? null,
    space: input.space ?? 'drive',
    isRoot: input.isRoot ?? false,
    title: input.title,
    mimeType: input.mimeType,
    description: null,
    starred: false,
    hidden: false,
    restricted: false,
    trashed: false,
    explicitlyTrashed: false,
    trashedAt: null,
    trashingUser: null,
    createdAt: input.now,
    modifiedAt: input.now,
    lastModifyingEmail: input.ownerEmail,
    version: 1,
    blobHash: null,
    fileSize: null,
    md5: null,
    headRevisionId: null,
    originalFilename: null,
    writersCanShare: true,
    searchText: input.title.toLowerCase(),
    extra: {},
  };
}
