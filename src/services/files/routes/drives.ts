// drives.*: shared drives. A drive's id is its root folder's; members are permissions on that folder. `requestId`
// makes insert idempotent per creator; a drive is deleted only when it holds no untrashed items.
import type { FastifyInstance } from 'fastify';
import { randomToken } from '../../../core/ids.ts';
import { driveFilter } from '../domain/drive-filter.ts';
import { FOLDER } from '../domain/mime.ts';
import { atLeast, granteeKey, permissionIdForEmail, type Role } from '../domain/roles.ts';
import { conflict, forbidden, insufficientPermissions, invalidValue, notFoundOf, requiredValue } from '../errors.ts';
import { iso } from '../resources.ts';
import { newFileRecord, type FilesService, type Unit } from '../service.ts';
import { roleOf, rolesOf } from '../store/access.ts';
import { insertFile, saveFile, getFile } from '../store/files.ts';
import { listPermissions, putPermission } from '../store/permissions.ts';
import type { Caller } from '../users.ts';
import { deleteTree } from '../ops/lifecycle.ts';
import { callerOf } from './files.ts';
import { Query, objectBody, offsetPage, params, route } from './http.ts';
import { DRIVE_RESTRICTIONS, DRIVE_SCHEMAS, MAX_DRIVE_NAME } from './schemas/drives.ts';

export interface DriveRecord {
  id: string;
  name: string;
  creatorEmail: string;
  requestId: string;
  createdAt: number;
  extra: { colorRgb?: string; themeId?: string; restrictions?: Record<string, boolean> };
}

const RESTRICTIONS: readonly string[] = DRIVE_RESTRICTIONS;

export async function loadDrive(svc: FilesService, id: string, db = svc.db): Promise<DriveRecord | undefined> {
  const row = await db.selectFrom('files_drives').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? { id: row.id, name: row.name, creatorEmail: row.creator_email, requestId: row.request_id, createdAt: Number(row.created_at), extra: JSON.parse(row.extra) } : undefined;
}

export async function driveJson(svc: FilesService, caller: Caller, d: DriveRecord, role?: Role): Promise<Record<string, unknown>> {
  const r = role ?? (await roleOf(svc.db, d.id, caller.keys, svc.now()));
  const hidden = await svc.db.selectFrom('files_drive_hidden').select('drive_id').where('drive_id', '=', d.id).where('email', '=', caller.email).executeTakeFirst();
  const organizer = atLeast(r, 'organizer');
  return {
    kind: 'drive#drive',
    id: d.id,
    name: d.name,
    createdDate: iso(d.createdAt),
    hidden: hidden !== undefined,
    colorRgb: d.extra.colorRgb ?? '#4986e7',
    themeId: d.extra.themeId,
    backgroundImageLink: `${svc.ctx.baseUrl}/drives/${d.id}/background.png`,
    restrictions: Object.fromEntries(RESTRICTIONS.map((k) => [k, d.extra.restrictions?.[k] === true])),
    capabilities: {
      canAddChildren: atLeast(r, 'writer'),
      canComment: atLeast(r, 'commenter'),
      canCopy: true,
      canDeleteDrive: organizer,
      canDownload: true,
      canEdit: atLeast(r, 'writer'),
      canListChildren: true,
      canManageMembers: organizer,
      canReadRevisions: true,
      canRename: organizer,
      canRenameDrive: organizer,
      canChangeDriveBackground: organizer,
      canShare: organizer,
      canTrashChildren: atLeast(r, 'fileOrganizer'),
    },
  };
}

function readDriveBody(body: Record<string, unknown>, insert: boolean): { name?: string; colorRgb?: string; themeId?: string; restrictions?: Record<string, boolean> } {
  const out: ReturnType<typeof readDriveBody> = {};
  if (body.name === undefined || body.name === null) {
    if (insert) throw requiredValue('name', 'A shared drive needs a name.');
  } else {
    if (typeof body.name !== 'string' || body.name.trim() === '') throw invalidValue('name', 'Invalid value for name.');
    if (body.name.length > MAX_DRIVE_NAME) throw invalidValue('name', `The name must be at most ${MAX_DRIVE_NAME} characters.`);
    out.name = body.name;
  }
  if (body.colorRgb !== undefined) {
    if (typeof body.colorRgb !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(body.colorRgb)) throw invalidValue('colorRgb');
    out.colorRgb = body.colorRgb.toLowerCase();
  }
  if (body.themeId !== undefined) {
    if (typeof body.themeId !== 'string' || body.themeId.length > 64) throw invalidValue('themeId');
    out.themeId = body.themeId;
  }
  if (body.restrictions !== undefined) {
    if (typeof body.restrictions !== 'object' || body.restrictions === null || Array.isArray(body.restrictions)) throw invalidValue('restrictions');
    out.restrictions = {};
    for (const [k, v] of Object.entries(body.restrictions)) {
      if (!RESTRICTIONS.includes(k) || typeof v !== 'boolean') throw invalidValue(`restrictions.${k}`);
      out.restrictions[k] = v;
    }
  }
  return out;
}

export function driveRoutes(app: FastifyInstance, svc: FilesService): void {
  const notFound = (id: string) => notFoundOf('Shared drive', id, 'driveId');
  const memberOf = async (db: any, caller: Caller, id: string, need?: Role) => {
    const d = await loadDrive(svc, id, db);
    const role = d ? await roleOf(db, id, caller.keys, svc.now()) : undefined;
    if (!d || !role) throw notFound(id);
    if (need && !atLeast(role, need)) throw insufficientPermissions('The user does not have sufficient permissions for this shared drive.');
    return { d, role };
  };
  const members = async (u: Unit, id: string) => (await listPermissions(u.tx, [id])).filter((p) => p.type === 'user').map((p) => p.grantee);

  route(app, 'POST', '/drives', DRIVE_SCHEMAS.insert, async (req) => {
    const caller = await callerOf(svc, req, 'write');
    const q = new Query(req);
    const requestId = q.required('requestId');
    if (requestId.length > 256) throw invalidValue('requestId', 'The requestId is too long.');
    const input = readDriveBody(objectBody(req), true);
    const d = await svc.write(caller, async (u) => {
      const existing = await u.tx.selectFrom('files_drives').select('id').where('creator_email', '=', caller.email).where('request_id', '=', requestId).executeTakeFirst();
      if (existing) throw conflict(`A shared drive was already created with requestId ${requestId}.`, 'duplicate');
      const id = '0A' + randomToken(12) + 'Uk9PVA';
      const d: DriveRecord = { id, name: input.name!, creatorEmail: caller.email, requestId, createdAt: u.now, extra: { colorRgb: input.colorRgb, themeId: input.themeId, restrictions: input.restrictions } };
      await u.tx.insertInto('files_drives').values({ id, name: d.name, creator_email: caller.email, request_id: requestId, created_at: u.now, extra: JSON.stringify(d.extra) }).execute();
      await insertFile(u.tx, newFileRecord({ id, ownerEmail: null, driveId: id, title: d.name, mimeType: FOLDER, now: u.now }), []);
      await putPermission(u.tx, { fileId: id, id: permissionIdForEmail(caller.email), type: 'user', role: 'organizer', grantee: granteeKey('user', caller.email), withLink: false, expiresAt: null, createdAt: u.now, version: 1 });
      u.touchDrive(id, [granteeKey('user', caller.email)]);
      return d;
    });
    return driveJson(svc, caller, d, 'organizer');
  });

  route(app, 'GET', '/drives/:driveId', DRIVE_SCHEMAS.get, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const { d, role } = await memberOf(svc.db, caller, params(req).driveId);
    return driveJson(svc, caller, d, role);
  });

  route(app, 'GET', '/drives', DRIVE_SCHEMAS.list, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const q = new Query(req);
    const limit = q.int('maxResults', 10, 1, 100);
    q.bool('useDomainAdminAccess', false);
    const filter = driveFilter(q.string('q'));
    const ids = (await svc.db.selectFrom('files_drives').select('id').orderBy('created_at').orderBy('id').execute()).map((r) => r.id as string);
    const roles = await rolesOf(svc.db, ids, caller.keys, svc.now());
    const all = [];
    for (const id of ids.filter((i) => roles.has(i))) {
      const json = await driveJson(svc, caller, (await loadDrive(svc, id))!, roles.get(id));
      if (filter({ name: json.name as string, hidden: json.hidden as boolean })) all.push(json);
    }
    return { kind: 'drive#driveList', ...(await offsetPage(q, `drives:${caller.email}:${q.string('q') ?? ''}:${limit}`, all, limit, (d) => d)) };
  });

  route(app, 'PUT', '/drives/:driveId', DRIVE_SCHEMAS.update, async (req) => {
    const caller = await callerOf(svc, req, 'write');
    const input = readDriveBody(objectBody(req), false);
    const { d, role } = await svc.write(caller, async (u) => {
      const { d, role } = await memberOf(u.tx, caller, params(req).driveId, 'organizer');
      const next: DriveRecord = { ...d, name: input.name ?? d.name, extra: { ...d.extra, ...Object.fromEntries(Object.entries(input).filter(([k, v]) => k !== 'name' && v !== undefined)) } };
      await u.tx.updateTable('files_drives').set({ name: next.name, extra: JSON.stringify(next.extra) }).where('id', '=', d.id).execute();
      const root = (await getFile(u.tx, d.id))!;
      await saveFile(u.tx, { ...root, title: next.name, version: root.version + 1 });
      u.touchDrive(d.id, await members(u, d.id));
      return { d: next, role };
    });
    return driveJson(svc, caller, d, role);
  });

  for (const [action, hide] of [['hide', true], ['unhide', false]] as const) {
    route(app, 'POST', `/drives/:driveId/${action}`, DRIVE_SCHEMAS.hide, async (req) => {
      const caller = await callerOf(svc, req, 'write');
      const { d, role } = await svc.write(caller, async (u) => {
        const found = await memberOf(u.tx, caller, params(req).driveId);
        await u.tx.deleteFrom('files_drive_hidden').where('drive_id', '=', found.d.id).where('email', '=', caller.email).execute();
        if (hide) await u.tx.insertInto('files_drive_hidden').values({ drive_id: found.d.id, email: caller.email }).execute();
        u.touchDrive(found.d.id, [granteeKey('user', caller.email)]);
        return found;
      });
      return driveJson(svc, caller, d, role);
    });
  }

  route(app, 'DELETE', '/drives/:driveId', DRIVE_SCHEMAS.delete, async (req, reply) => {
    const caller = await callerOf(svc, req, 'write');
    await svc.write(caller, async (u) => {
      const { d } = await memberOf(u.tx, caller, params(req).driveId, 'organizer');
      const items = await u.tx.selectFrom('files_files').select('id').where('drive_id', '=', d.id).where('id', '<>', d.id).where('trashed', '=', 0).executeTakeFirst();
      if (items) throw forbidden('The shared drive cannot be deleted because it contains untrashed items.', 'cannotDeleteSharedDriveWithItems');
      u.touchDrive(d.id, await members(u, d.id));
      await deleteTree(u, d.id);
      const orphans = await u.tx.selectFrom('files_files').select('id').where('drive_id', '=', d.id).execute();
      for (const o of orphans) await deleteTree(u, o.id as string);
      await u.tx.deleteFrom('files_drive_hidden').where('drive_id', '=', d.id).execute();
      await u.tx.deleteFrom('files_drives').where('id', '=', d.id).execute();
    });
    return reply.code(204).send();
  });
}
