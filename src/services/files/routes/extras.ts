// apps.list and apps.get over the registry, and files.listLabels / files.modifyLabels.
import type { FastifyInstance } from 'fastify';
import { APPS, filterApps, type AppEntry } from '../domain/apps.ts';
import { applyFieldModifications, readModifications, type FieldValues } from '../domain/labels.ts';
import { notFoundOf } from '../errors.ts';
import { touchFile } from '../ops/lifecycle.ts';
import { API_PATH } from '../resources.ts';
import type { FilesService } from '../service.ts';
import { callerOf } from './files.ts';
import { Query, objectBody, params, route } from './http.ts';
import { APP_SCHEMAS } from './schemas/apps.ts';
import { LABEL_SCHEMAS } from './schemas/labels.ts';

export function extraRoutes(app: FastifyInstance, svc: FilesService): void {
  const appJson = (a: AppEntry) => ({
    kind: 'drive#app',
    id: a.id,
    name: a.name,
    objectType: a.objectType,
    installed: true,
    authorized: true,
    useByDefault: false,
    hasDriveWideScope: false,
    supportsCreate: a.supportsCreate,
    supportsImport: a.supportsImport,
    supportsMultiOpen: false,
    supportsOfflineCreate: false,
    primaryMimeTypes: a.primaryMimeTypes,
    secondaryMimeTypes: a.secondaryMimeTypes,
    primaryFileExtensions: a.primaryFileExtensions,
    secondaryFileExtensions: a.secondaryFileExtensions,
    openUrlTemplate: `${svc.ctx.baseUrl}/apps/${a.id}/open?ids={ids}`,
    icons: [{ category: 'application', size: 32, iconUrl: `${svc.ctx.baseUrl}/apps/${a.id}/icon.png` }],
  });

  route(app, 'GET', '/apps', APP_SCHEMAS.list, async (req) => {
    await callerOf(svc, req, 'read');
    const q = new Query(req);
    const items = filterApps(q.list('appFilterExtensions'), q.list('appFilterMimeTypes'));
    return { kind: 'drive#appList', selfLink: `${svc.ctx.baseUrl}${API_PATH}/apps`, defaultAppIds: [], items: items.map(appJson) };
  });

  route(app, 'GET', '/apps/:appId', APP_SCHEMAS.get, async (req) => {
    await callerOf(svc, req, 'read');
    const found = APPS.find((a) => a.id === params(req).appId);
    if (!found) throw notFoundOf('App', params(req).appId, 'appId');
    return appJson(found);
  });

  const labelJson = (labelId: string, revision: number, fields: FieldValues) => ({
    kind: 'drive#label',
    id: labelId,
    revisionId: String(revision),
    fields: Object.fromEntries(
      Object.entries(fields).map(([id, f]) => [id, { kind: 'drive#labelField', id, valueType: f.valueType, [f.valueType]: f.values }]),
    ),
  });

  route(app, 'GET', '/files/:fileId/listLabels', LABEL_SCHEMAS.list, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const q = new Query(req);
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: true });
    const limit = q.int('maxResults', 100, 1, 100);
    const after = q.string('pageToken');
    let query = svc.db.selectFrom('files_labels').selectAll().where('file_id', '=', file.id);
    if (after) query = query.where('label_id', '>', after);
    const rows = await query.orderBy('label_id').limit(limit + 1).execute();
    const out: Record<string, unknown> = { kind: 'drive#labelList', items: rows.slice(0, limit).map((r) => labelJson(r.label_id, Number(r.revision), JSON.parse(r.fields))) };
    if (rows.length > limit) out.nextPageToken = rows[limit - 1].label_id;
    return out;
  });

  route(app, 'POST', '/files/:fileId/modifyLabels', LABEL_SCHEMAS.modify, async (req) => {
    const caller = await callerOf(svc, req, 'writeMetadata');
    const mods = readModifications(objectBody(req));
    const modified = await svc.write(caller, async (u) => {
      const { file } = await svc.access(u.tx, caller, params(req).fileId, { need: 'writer', supportsAllDrives: true });
      await u.touch(file.id, 'update', ['labels']);
      const out = [];
      for (const mod of mods) {
        const row = await u.tx.selectFrom('files_labels').selectAll().where('file_id', '=', file.id).where('label_id', '=', mod.labelId).executeTakeFirst();
        if (mod.remove) {
          await u.tx.deleteFrom('files_labels').where('file_id', '=', file.id).where('label_id', '=', mod.labelId).execute();
          out.push(labelJson(mod.labelId, Number(row?.revision ?? 0), {}));
          continue;
        }
        const fields = applyFieldModifications(row ? JSON.parse(row.fields) : {}, mod);
        const revision = Number(row?.revision ?? 0) + 1;
        await u.tx
          .insertInto('files_labels')
          .values({ file_id: file.id, label_id: mod.labelId, revision, fields: JSON.stringify(fields) })
          .onConflict((oc) => oc.columns(['file_id', 'label_id']).doUpdateSet({ revision, fields: JSON.stringify(fields) }))
          .execute();
        out.push(labelJson(mod.labelId, revision, fields));
      }
      await touchFile(u, file);
      return out;
    });
    return { kind: 'drive#modifyLabelsResponse', modifiedLabels: modified };
  });
}
