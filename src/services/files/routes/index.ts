// Every route of the file storage. Uploads live in their own scope, where any body arrives as raw bytes.
import type { FastifyInstance } from 'fastify';
import type { FilesService } from '../service.ts';
import { parseEveryType } from '../../../core/http/empty-body.ts';
import { downloadRoutes, uploadRoutes } from './content.ts';
import { changeRoutes } from './changes.ts';
import { commentRoutes } from './comments.ts';
import { driveRoutes } from './drives.ts';
import { extraRoutes } from './extras.ts';
import { fileRoutes } from './files.ts';
import { folderRoutes } from './folders.ts';
import { permissionRoutes } from './permissions.ts';
import { propertyRoutes } from './properties.ts';
import { revisionRoutes } from './revisions.ts';

/** Multipart framing and JSON metadata on top of the largest content. */
const UPLOAD_OVERHEAD = 1024 * 1024;

export function registerRoutes(app: FastifyInstance, svc: FilesService): void {
  fileRoutes(app, svc);
  downloadRoutes(app, svc);
  folderRoutes(app, svc);
  permissionRoutes(app, svc);
  revisionRoutes(app, svc);
  propertyRoutes(app, svc);
  commentRoutes(app, svc);
  changeRoutes(app, svc);
  driveRoutes(app, svc);
  extraRoutes(app, svc);
  void app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    parseEveryType(uploads, svc.settings.maxUploadBytes + UPLOAD_OVERHEAD);
    uploadRoutes(uploads, svc);
  });
}
