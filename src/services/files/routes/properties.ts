// properties.*: custom key/value properties of a file, PRIVATE (the default) or PUBLIC. Insert is an upsert.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_PER_VISIBILITY, checkKey, checkSize, readPropertyInput, readVisibility } from '../domain/properties.ts';
import { invalidValue, notFoundOf } from '../errors.ts';
import { propertyJson, API_PATH } from '../resources.ts';
import type { FilesService } from '../service.ts';
import { touchFile } from '../ops/lifecycle.ts';
import { countProperties, deleteProperty, getProperty, listProperties, putProperty } from '../store/properties.ts';
import { callerOf } from './files.ts';
import { Query, objectBody, params, route } from './http.ts';
import { PROPERTY_SCHEMAS } from './schemas/properties.ts';

export function propertyRoutes(app: FastifyInstance, svc: FilesService): void {
  const notFound = (key: string) => notFoundOf('Property', key, 'propertyKey');
  const keyOf = (req: FastifyRequest) => checkKey(params(req).propertyKey, 'propertyKey');

  route(app, 'GET', '/files/:fileId/properties', PROPERTY_SCHEMAS.list, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: true });
    const items = await listProperties(svc.db, [file.id]);
    return { kind: 'drive#propertyList', selfLink: `${svc.ctx.baseUrl}${API_PATH}/files/${file.id}/properties`, items: items.map((p) => propertyJson(svc.ctx.baseUrl, p)) };
  });

  route(app, 'GET', '/files/:fileId/properties/:propertyKey', PROPERTY_SCHEMAS.get, async (req) => {
    const caller = await callerOf(svc, req, 'read');
    const { file } = await svc.access(svc.db, caller, params(req).fileId, { supportsAllDrives: true });
    const p = await getProperty(svc.db, file.id, keyOf(req), readVisibility(new Query(req).string('visibility')));
    if (!p) throw notFound(params(req).propertyKey);
    return propertyJson(svc.ctx.baseUrl, p);
  });

  route(app, 'POST', '/files/:fileId/properties', PROPERTY_SCHEMAS.insert, async (req) => {
    const caller = await callerOf(svc, req, 'writeMetadata');
    const input = readPropertyInput(objectBody(req), 'resource', true);
    const saved = await svc.write(caller, async (u) => {
      const { file } = await svc.access(u.tx, caller, params(req).fileId, { need: 'writer', supportsAllDrives: true });
      await u.touch(file.id, 'update', ['properties']);
      const p = await putProperty(u.tx, file.id, input);
      if ((await countProperties(u.tx, file.id, input.visibility)) > MAX_PER_VISIBILITY) {
        throw invalidValue('resource', `A file can have at most ${MAX_PER_VISIBILITY} ${input.visibility.toLowerCase()} properties.`);
      }
      await touchFile(u, file);
      return p;
    });
    return propertyJson(svc.ctx.baseUrl, saved);
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    route(app, method, '/files/:fileId/properties/:propertyKey', PROPERTY_SCHEMAS.update, async (req) => {
      const caller = await callerOf(svc, req, 'writeMetadata');
      const key = keyOf(req);
      const body = objectBody(req);
      if (body.key !== undefined && body.key !== key) throw invalidValue('key', 'The key of a property cannot be changed.');
      if (body.value !== undefined && typeof body.value !== 'string') throw invalidValue('value', 'Invalid value for value: expected a string.');
      const visibility = readVisibility(new Query(req).string('visibility'));
      const target = readVisibility(body.visibility ?? visibility, 'visibility');
      const saved = await svc.write(caller, async (u) => {
        const { file } = await svc.access(u.tx, caller, params(req).fileId, { need: 'writer', supportsAllDrives: true });
        const old = await getProperty(u.tx, file.id, key, visibility);
        if (!old) throw notFound(key);
        const value = (body.value as string | undefined) ?? old.value;
        checkSize(key, value, 'value');
        await u.touch(file.id, 'update', ['properties']);
        if (target !== visibility) await deleteProperty(u.tx, file.id, key, visibility);
        await touchFile(u, file);
        return putProperty(u.tx, file.id, { key, value, visibility: target });
      });
      return propertyJson(svc.ctx.baseUrl, saved);
    });
  }

  route(app, 'DELETE', '/files/:fileId/properties/:propertyKey', PROPERTY_SCHEMAS.delete, async (req, reply) => {
    const caller = await callerOf(svc, req, 'writeMetadata');
    const key = keyOf(req);
    const visibility = readVisibility(new Query(req).string('visibility'));
    await svc.write(caller, async (u) => {
      const { file } = await svc.access(u.tx, caller, params(req).fileId, { need: 'writer', supportsAllDrives: true });
      await u.touch(file.id, 'update', ['properties']);
      if (!(await deleteProperty(u.tx, file.id, key, visibility))) throw notFound(key);
      await touchFile(u, file);
    });
    return reply.code(204).send();
  });
}
