// C2 file storage (Drive API v2, served under /storage/v2 and /drive/v2): files with real content, folders,
// sharing, search, revisions, comments, properties, shared drives, the change feed and watch channels.
import { installGoogleFamily } from '../../core/google/index.ts';
import type { ServiceManifest } from '../../core/service.ts';
import { TABLES, migrations } from './migrations.ts';
import { registerRoutes } from './routes/index.ts';
import { EXPIRE_UPLOAD, expireUpload } from './routes/resumable.ts';
import { FilesService, SERVICE } from './service.ts';
import { liveBlobRefs } from './store/revisions.ts';

const services = new WeakMap<object, FilesService>();

export const manifest: ServiceManifest = {
  id: 'files',
  title: 'file storage (Drive API v2)',
  migrations,
  tables: TABLES,
  jobs: {
    [EXPIRE_UPLOAD]: async (job, ctx) => {
      const svc = services.get(ctx);
      if (svc) await expireUpload(svc, (job.payload as { id: string }).id);
    },
  },
  async register(app, ctx) {
    installGoogleFamily(app, { alt: ['media'] });
    const svc = new FilesService(ctx);
    services.set(ctx, svc);
    registerRoutes(app, svc);
  },
  // After migrations and after every reset: the content store's counts are made to match the tables, which frees
  // the bytes of whatever a reset removed.
  async start(ctx) {
    const svc = services.get(ctx);
    svc?.forgetRoots();
    await svc?.blobs.reconcile(SERVICE, async (tx) => ({
      refs: await liveBlobRefs(tx),
      uploads: (await tx.selectFrom('files_uploads').select('id').execute()).map((u) => u.id as string),
    }));
  },
  async credentials(ctx) {
    return [
      { label: 'Bearer token (drive scope)', value: ctx.dev.token },
      { label: 'API key (?key=), acts as the development user', value: ctx.dev.apiKey },
    ];
  },
};

/** The running file storage of a context (for the bench's seeding). */
export const filesServiceOf = (ctx: object): FilesService | undefined => services.get(ctx);
