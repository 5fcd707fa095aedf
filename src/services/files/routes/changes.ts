// The change feed (changes.*), watch channels (files.watch, changes.watch, channels.stop) and about.get.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidValue, notFoundOf } from '../errors.ts';
import { exportFormatsList, IMPORT_FORMATS } from '../ops/convert.ts';
import { API_PATH, iso, userJson } from '../resources.ts';
import { SERVICE, type FilesService } from '../service.ts';
import { rolesOf } from '../store/access.ts';
import { getChange, listChanges, nextChangeId, type ChangeRecord } from '../store/changes.ts';
import { getFiles, within } from '../store/files.ts';
import type { Caller } from '../users.ts';
import { permissionIdForEmail } from '../domain/roles.ts';
import { etagOf } from '../domain/etag.ts';
import { callerOf, grantedSpaces } from './files.ts';
import { Query, nextLink, objectBody, params, route } from './http.ts';
import { CHANGE_SCHEMAS } from './schemas/changes.ts';
import { renderFiles } from './render.ts';
import { driveJson, loadDrive } from './drives.ts';

const DAY_MS = 86_400_000;

export function changeRoutes(app: FastifyInstance, svc: FilesService): void {
  /** The feed a request reads: the caller's own, or a shared drive's (for its members). */
  const subjectsOf = async (caller: Caller, q: Query): Promise<string[]> => {
    const driveId = q.string('driveId') ?? q.string('teamDriveId');
    if (!driveId) return [`user:${caller.email}`];
    await svc.access(svc.db, caller, driveId, { supportsAllDrives: true });
    return [`drive:${driveId}`];
  };
  const token = (q: Query, name: string): number | undefined => {
    const v = q.string(name);
    if (v === undefined) return undefined;
    if (!/^\d{1,15}$/.test(v) || Number(v) < 1) throw invalidValue(name, `Invalid ${name}: ${v}`);
    return Number(v);
  };

  /**
   * The entries of a page of changes. `myDriveOnly` (includeSubscribed=false) leaves out the changes of files the
   * caller sees outside their My Drive (shared with them and not added to it, in the application data folder, in a
   * shared drive) and of shared drives; a removal stays, as its file can no longer be placed.
   */
  const changeJson = async (caller: Caller, rows: ChangeRecord[], includeDeleted: boolean, includeDrives: boolean, myDriveOnly = false) => {
    const fileIds = rows.map((r) => r.fileId).filter((id): id is string => id !== null);
    const files = await getFiles(svc.db, fileIds);
    const roles = await rolesOf(svc.db, fileIds, caller.keys, svc.now());
    const visible = [...files.values()].filter((f) => roles.has(f.id) && caller.spaces.has(f.space));
    const inMyDrive = myDriveOnly ? await within(svc.db, caller.rootId, visible.map((f) => f.id)) : undefined;
    const rendered = new Map((await renderFiles(svc, caller, visible)).map((j) => [j.id as string, j]));
    const out: Record<string, unknown>[] = [];
    for (const r of rows) {
      const base = { kind: 'drive#change', id: String(r.id), selfLink: `${svc.ctx.baseUrl}${API_PATH}/changes/${r.id}`, modificationDate: iso(r.at), changeType: r.changeType };
      if (r.changeType === 'drive') {
        if (myDriveOnly) continue;
        const drive = r.driveId ? await loadDrive(svc, r.driveId) : undefined;
        const member = drive ? await rolesOf(svc.db, [drive.id], caller.keys, svc.now()) : new Map();
        if (drive && member.has(drive.id)) out.push({ ...base, driveId: r.driveId, teamDriveId: r.driveId, deleted: false, drive: await driveJson(svc, caller, drive) });
        else if (includeDeleted) out.push({ ...base, driveId: r.driveId, teamDriveId: r.driveId, deleted: true });
        continue;
      }
      const file = rendered.get(r.fileId!);
      if (file && file.driveId && !includeDrives) continue;
      if (file && inMyDrive && !inMyDrive.has(r.fileId!)) continue;
      if (file) out.push({ ...base, fileId: r.fileId, deleted: false, file, ...(r.driveId ? { driveId: r.driveId, teamDriveId: r.driveId } : {}) });
      else if (includeDeleted) out.push({ ...base, fileId: r.fileId, deleted: true });
    }
    return out;
  };

  route(app, 'GET', '/changes/startPageToken', CHANGE_SCHEMAS.startPageToken, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    await subjectsOf(caller, new Query(req));
    return { kind: 'drive#startPageToken', startPageToken: String(await nextChangeId(svc.db)) };
  });

  route(app, 'GET', '/changes', CHANGE_SCHEMAS.list, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const q = new Query(req);
    const subjects = await subjectsOf(caller, q);
    const spaces = grantedSpaces(caller, q);
    const limit = q.int('maxResults', 100, 1, 1000);
    const includeDeleted = q.bool('includeDeleted', true);
    const includeDrives = (q.bool('includeItemsFromAllDrives', false) || q.bool('includeTeamDriveItems', false)) && q.allDrives;
    // Outside a shared drive's feed, includeSubscribed=false narrows the feed to the caller's My Drive.
    const myDriveOnly = !q.bool('includeSubscribed', true) && subjects[0].startsWith('user:');
    const from = token(q, 'pageToken') ?? token(q, 'startChangeId') ?? 1;
    const next = await nextChangeId(svc.db);
    const rows = await listChanges(svc.db, subjects, spaces, from, limit + 1);
    const page = rows.slice(0, limit);
    const out: Record<string, unknown> = {
      kind: 'drive#changeList',
      selfLink: `${svc.ctx.baseUrl}${API_PATH}/changes`,
      largestChangeId: String(next - 1),
      items: await changeJson(caller, page, includeDeleted, includeDrives || subjects[0].startsWith('drive:'), myDriveOnly),
    };
    if (rows.length > limit) {
      const token = String(page.at(-1)!.id + 1);
      Object.assign(out, { nextPageToken: token, nextLink: nextLink(`${svc.ctx.baseUrl}${API_PATH}/changes`, req, token) });
    } else out.newStartPageToken = String(next);
    return out;
  });

  route(app, 'GET', '/changes/:changeId', CHANGE_SCHEMAS.get, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const q = new Query(req);
    const id = params(req).changeId;
    if (!/^\d{1,15}$/.test(id)) throw notFoundOf('Change', id, 'changeId');
    const row = await getChange(svc.db, await subjectsOf(caller, q), [...caller.spaces], Number(id));
    if (!row) throw notFoundOf('Change', id, 'changeId');
    const [json] = await changeJson(caller, [row], true, true);
    return json;
  });

  route(app, 'POST', '/changes/watch', CHANGE_SCHEMAS.watch, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const q = new Query(req);
    const subjects = await subjectsOf(caller, q);
    return svc.write(caller, (u) =>
      svc.channels.open(u.tx, {
        service: SERVICE,
        ownerId: caller.email,
        topic: `changes:${subjects[0]}`,
        resourceUri: `${svc.ctx.baseUrl}${API_PATH}/changes?pageToken=${q.string('pageToken') ?? ''}&alt=json`,
        request: objectBody(req),
        defaultTtlMs: DAY_MS,
        maxTtlMs: 7 * DAY_MS,
      }),
    );
  });

  route(app, 'POST', '/files/:fileId/watch', CHANGE_SCHEMAS.watchFile, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const q = new Query(req);
    return svc.write(caller, async (u) => {
      const { file } = await svc.access(u.tx, caller, params(req).fileId, { supportsAllDrives: q.allDrives });
      return svc.channels.open(u.tx, {
        service: SERVICE,
        ownerId: caller.email,
        topic: `files:${file.id}`,
        resourceUri: `${svc.ctx.baseUrl}${API_PATH}/files/${file.id}?alt=json`,
        request: objectBody(req),
        defaultTtlMs: 3_600_000,
        maxTtlMs: DAY_MS,
      });
    });
  });

  route(app, 'POST', '/channels/stop', CHANGE_SCHEMAS.stopChannel, async (req, reply) => {
    const caller = await callerOf(svc, req, 'read');
    const body = objectBody(req);
    const stopped = await svc.write(caller, (u) => svc.channels.stop(u.tx, { service: SERVICE, ownerId: caller.email, id: body.id, resourceId: body.resourceId }));
    if (!stopped) throw notFoundOf('Channel', String(body.id ?? ''), 'id');
    return reply.code(204).send();
  });

  route(app, 'GET', '/about', CHANGE_SCHEMAS.about, async (req: FastifyRequest) => {
    const caller = await callerOf(svc, req, 'read');
    const owned = (trashed?: boolean) => {
      let q = svc.db
        .selectFrom('files_files')
        .select((eb) => eb.fn.coalesce(eb.fn.sum('file_size'), eb.lit(0)).as('n'))
        .where('owner_email', '=', caller.email)
        .where('mime_type', 'not like', 'application/vnd.google-apps.%');
      if (trashed !== undefined) q = q.where('trashed', '=', trashed ? 1 : 0);
      return q.executeTakeFirst().then((r) => Number(r?.n ?? 0));
    };
    const [used, inTrash, next] = await Promise.all([owned(), owned(true), nextChangeId(svc.db)]);
    const me = await svc.users.describe(caller.email);
    return {
      kind: 'drive#about',
      etag: etagOf(`about:${caller.email}:${used}`, next),
      selfLink: `${svc.ctx.baseUrl}${API_PATH}/about`,
      name: me.name,
      user: userJson({ ...me, name: caller.name }, caller),
      rootFolderId: caller.rootId,
      permissionId: permissionIdForEmail(caller.email),
      quotaType: 'LIMITED',
      quotaBytesTotal: String(svc.settings.quotaBytes),
      quotaBytesUsed: String(used),
      quotaBytesUsedAggregate: String(used),
      quotaBytesUsedInTrash: String(inTrash),
      quotaBytesByService: [{ serviceName: 'DRIVE', bytesUsed: String(used) }],
      largestChangeId: String(next - 1),
      remainingChangeIds: '0',
      languageCode: 'en',
      domainSharingPolicy: 'allowed',
      isCurrentAppInstalled: false,
      canCreateDrives: true,
      canCreateTeamDrives: true,
      importFormats: Object.entries(IMPORT_FORMATS).map(([source, target]) => ({ source, targets: [target] })),
      exportFormats: exportFormatsList(),
      maxUploadSizes: [{ type: '*', size: String(svc.settings.maxUploadBytes) }],
      folderColorPalette: ['#ac725e', '#d06b64', '#f83a22', '#fa573c', '#ff7537', '#ffad46', '#42d692', '#16a765', '#7bd148', '#b3dc6c', '#fbe983', '#fad165', '#92e1c0', '#9fe1e7', '#9fc6e7', '#4986e7', '#9a9cff', '#b99aff', '#c2c2c2', '#cabdbf', '#cca6ac', '#f691b2', '#cd74e6', '#a47ae2'],
    };
  });
}
