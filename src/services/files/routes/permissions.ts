// permissions.* and permissionIds: sharing. Only the owner, writers when writersCanShare, and organizers share; the
// owner permission changes only by a transfer; anyone may remove their own permission.
import type { FastifyInstance } from 'fastify';
import { isEmail, readPermissionInput } from '../domain/permission-input.ts';
import { atLeast, granteeKey, permissionIdFor, permissionIdForEmail, type Role } from '../domain/roles.ts';
import { forbidden, insufficientPermissions, invalidValue, notFoundOf, notSupportedForAppData, shortcutPermissionsFixed } from '../errors.ts';
import { isShortcut } from '../domain/shortcuts.ts';
import { permissionJson, API_PATH } from '../resources.ts';
import type { FilesService, Unit } from '../service.ts';
import { saveFile, type FileRecord } from '../store/files.ts';
import { deletePermission, getPermission, listPermissions, putPermission, granteeValue, type PermissionRecord } from '../store/permissions.ts';
import { callerOf } from './files.ts';
import { Query, header, objectBody, offsetPage, params, route } from './http.ts';
import { PERMISSION_SCHEMAS } from './schemas/permissions.ts';

function canShare(file: FileRecord, role: Role): boolean {
  if (file.driveId) return atLeast(role, 'organizer') || (atLeast(role, 'writer') && file.writersCanShare);
  return role === 'owner' || (atLeast(role, 'writer') && file.writersCanShare);
}

/** Files whose permissions Drive never changes directly: those of the application data folder, and shortcuts. */
function refuseUnshareable(file: FileRecord): void {
  if (file.space === 'appDataFolder') throw notSupportedForAppData();
  if (isShortcut(file.mimeType)) throw shortcutPermissionsFixed();
}

/** Makes `to` the owner: the previous owner keeps writer access. */
async function transferOwnership(u: Unit, file: FileRecord, to: PermissionRecord): Promise<void> {
  const from = file.ownerEmail;
  if (from) {
    const old = await getPermission(u.tx, file.id, permissionIdForEmail(from));
    if (old) await putPermission(u.tx, { ...old, role: 'writer', version: old.version + 1 });
  }
  file.ownerEmail = granteeValue(to)!;
  file.version += 1;
  await saveFile(u.tx, file);
}

export function permissionRoutes(app: FastifyInstance, svc: FilesService): void {
  const notFound = (id: string) => notFoundOf('Permission', id, 'permissionId');

  route(app, 'GET', '/files/:fileId/permissions', PERMISSION_SCHEMAS.list, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const q = new Query(req);
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: q.allDrives });
    const limit = q.int('maxResults', 100, 1, 100);
    const all = await listPermissions(svc.db, [file.id]);
    const page = await offsetPage(q, `permissions:${file.id}`, all, limit, (p) => permissionJson(svc, p));
    return { kind: 'drive#permissionList', selfLink: `${svc.ctx.baseUrl}${API_PATH}/files/${file.id}/permissions`, ...page };
  });

  route(app, 'GET', '/files/:fileId/permissions/:permissionId', PERMISSION_SCHEMAS.get, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: new Query(req).allDrives });
    const p = await getPermission(svc.db, file.id, params(req).permissionId);
    if (!p) throw notFound(params(req).permissionId);
    return permissionJson(svc, p);
  });

  route(app, 'POST', '/files/:fileId/permissions', PERMISSION_SCHEMAS.insert, async (req) => {
    const caller = await callerOf(svc, req, 'write');
    const q = new Query(req);
    const body = objectBody(req);
    const notify = q.bool('sendNotificationEmails', true);
    const message = q.string('emailMessage');
    if (message !== undefined && message.length > 10_000) throw invalidValue('emailMessage', 'The e-mail message is too long.');
    const saved = await svc.write(caller, async (u) => {
      // As Google APIs do: the file is looked up (404) and the right to share checked (403) before the body is read.
      const { file, role } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: q.allDrives });
      refuseUnshareable(file);
      if (!canShare(file, role)) throw insufficientPermissions();
      const input = readPermissionInput(body, true, u.now);
      const type = input.type!;
      const wanted = input.role!;
      if ((wanted === 'organizer' || wanted === 'fileOrganizer') && !file.driveId) throw invalidValue('role', `The role ${wanted} is only for shared drive items.`);
      if (wanted === 'owner' && (file.driveId || type !== 'user' || role !== 'owner')) throw forbidden('Only the owner of a My Drive file can make a user its owner.', 'invalidSharingRequest');
      if (wanted === 'organizer' && !atLeast(role, 'organizer')) throw insufficientPermissions();
      if (input.expiresAt !== undefined && type !== 'user' && type !== 'group') throw invalidValue('expirationDate', 'Only user and group permissions can expire.');
      const withLink = input.withLink ?? false;
      const id = permissionIdFor(type, input.value, withLink);
      const existing = await getPermission(u.tx, file.id, id);
      if (existing?.role === 'owner') throw forbidden('The owner permission cannot be changed this way.', 'cannotModifyOwner');
      await u.touch(file.id, 'update', ['permissions']);
      const p: PermissionRecord = {
        fileId: file.id,
        id,
        type,
        role: wanted,
        grantee: granteeKey(type, input.value),
        withLink,
        expiresAt: input.expiresAt ?? null,
        createdAt: existing?.createdAt ?? u.now,
        version: (existing?.version ?? 0) + 1,
      };
      await putPermission(u.tx, p);
      if (wanted === 'owner') await transferOwnership(u, file, p);
      if (notify && (type === 'user' || type === 'group')) {
        await svc.ctx.outbox.enqueue(
          {
            service: 'files',
            channel: 'email',
            recipient: input.value!,
            subject: `${caller.name} shared "${file.title}" with you`,
            body: `${caller.name} (${caller.email}) gave you ${wanted} access to "${file.title}".${message ? `\n\n${message}` : ''}\n\n${svc.ctx.baseUrl}/file/d/${file.id}/view`,
            correlation: `file:${file.id}`,
          },
          u.tx,
        );
      }
      return p;
    });
    return permissionJson(svc, saved);
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    route(app, method, '/files/:fileId/permissions/:permissionId', PERMISSION_SCHEMAS.update, async (req) => {
      const caller = await callerOf(svc, req, 'write');
      const q = new Query(req);
      const body = objectBody(req);
      const transfer = q.bool('transferOwnership', false);
      const removeExpiration = q.bool('removeExpiration', false);
      const saved = await svc.write(caller, async (u) => {
        // The file and the permission are looked up, and the right to share checked, before the body is read.
        const { file, role } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: q.allDrives, ifMatch: header(req, 'if-match') });
        const p = await getPermission(u.tx, file.id, params(req).permissionId);
        if (!p) throw notFound(params(req).permissionId);
        refuseUnshareable(file);
        if (!canShare(file, role)) throw insufficientPermissions();
        const input = readPermissionInput(body, false, u.now);
        if (input.type !== undefined && input.type !== p.type) throw invalidValue('type', 'The type of a permission cannot be changed.');
        if (p.role === 'owner' && input.role !== undefined && input.role !== 'owner') throw forbidden('The owner of a file cannot be demoted; transfer the ownership instead.', 'cannotModifyOwner');
        if (input.role === 'owner' && p.role !== 'owner') {
          if (!transfer) throw forbidden("The transferOwnership parameter must be enabled when the permission role is 'owner'.", 'forbidden');
          if (role !== 'owner' || p.type !== 'user' || file.driveId) throw forbidden('Only the owner of a My Drive file can transfer it to a user.', 'invalidSharingRequest');
        }
        if ((input.role === 'organizer' || input.role === 'fileOrganizer') && !file.driveId) throw invalidValue('role', `The role ${input.role} is only for shared drive items.`);
        await u.touch(file.id, 'update', ['permissions']);
        const next: PermissionRecord = {
          ...p,
          role: input.role ?? p.role,
          expiresAt: removeExpiration ? null : (input.expiresAt ?? p.expiresAt),
          version: p.version + 1,
        };
        await putPermission(u.tx, next);
        if (next.role === 'owner' && p.role !== 'owner') await transferOwnership(u, file, next);
        return next;
      });
      return permissionJson(svc, saved);
    });
  }

  route(app, 'DELETE', '/files/:fileId/permissions/:permissionId', PERMISSION_SCHEMAS.delete, async (req, reply) => {
    const caller = await callerOf(svc, req, 'write');
    const q = new Query(req);
    await svc.write(caller, async (u) => {
      const { file, role } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: q.allDrives });
      const p = await getPermission(u.tx, file.id, params(req).permissionId);
      if (!p) throw notFound(params(req).permissionId);
      if (isShortcut(file.mimeType)) throw shortcutPermissionsFixed();
      const own = caller.keys.includes(p.grantee) && p.type === 'user';
      if (!own && !canShare(file, role)) throw insufficientPermissions();
      if (p.role === 'owner') throw forbidden('The owner of a file cannot be removed.', 'cannotRemoveOwner');
      await u.touch(file.id, 'update', ['permissions']);
      await deletePermission(u.tx, file.id, p.id);
    });
    return reply.code(204).send();
  });

  route(app, 'GET', '/permissionIds/:email', PERMISSION_SCHEMAS.getIdForEmail, async (req) => {
    await callerOf(svc, req, 'read');
    const email = params(req).email.trim().toLowerCase();
    if (!isEmail(email)) throw invalidValue('email', `Invalid e-mail address: ${params(req).email}`);
    return { kind: 'drive#permissionId', id: permissionIdForEmail(email) };
  });
}

