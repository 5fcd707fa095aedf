// The secrets store (A1): a sealed, encrypted key/value store that speaks the Vault HTTP API.
import type { ServiceContext, ServiceManifest } from '../../core/service.ts';
import { dialectOf } from '../../core/db/dialect.ts';
import { createAccessPlugin } from './auth/plugin.ts';
import { CorsSettings } from './http/cors.ts';
import { installSecretsHttp } from './http/handler.ts';
import { Router } from './http/router.ts';
import { createStagedServer, serverSettingsOf } from './http/server.ts';
import { DEFAULT_MAX_REQUEST_SIZE, parseSettings } from './http/settings.ts';
import { namespaceRoutes } from './namespaces/routes.ts';
import { ROOT_NAMESPACE } from './namespaces/registry.ts';
import { DEV_FILE, bootstrapDev, recordRekey, type DevState } from './seal/dev.ts';
import { ENTRIES_TABLE, storageMigrations } from './storage/physical.ts';
import { StoreCore } from './sys/core.ts';
import { corsRoutes } from './sys/cors-routes.ts';
import { leaseRoutes } from './sys/lease-routes.ts';
import { mountRoutes } from './sys/mount-routes.ts';
import { openapiRoutes } from './sys/openapi-routes.ts';
import type { SysDeps } from './sys/route.ts';
import { sealRoutes } from './sys/seal-routes.ts';
import { toolsRoutes } from './sys/tools-routes.ts';
import { generateRootRoutes } from './sys/generate-root-routes.ts';
import { GenerateRoot } from './seal/generate-root.ts';
import { Rekey } from './seal/rekey.ts';
import { rekeyRoutes } from './sys/rekey-routes.ts';
import { Wrapping } from './sys/wrapping.ts';
import { wrappingRoutes } from './sys/wrapping-routes.ts';

export const SECRETS_VERSION = '1.17.0';

interface Running {
  core: StoreCore;
  cors: CorsSettings;
  dev: DevState | null;
}

const running = new WeakMap<ServiceContext, Running>();

export const manifest: ServiceManifest = {
  id: 'secrets',
  title: 'secrets store (Vault HTTP API)',
  migrations: storageMigrations,
  tables: [ENTRIES_TABLE],
  // The dev unseal key: imported rows stay sealed without the key they were sealed under.
  dataFiles: [DEV_FILE],
  listener: {
    bodyLimit: DEFAULT_MAX_REQUEST_SIZE,
    serverFactory: (handler, serverOptions) => createStagedServer(handler, { tls: null }, serverOptions),
  },

  async register(app, ctx) {
    const settings = parseSettings(ctx.settings);
    serverSettingsOf(app.server).tls = settings.tls;
    ctx.tls = settings.tls !== null;
    // A fresh access half (tokens, policies, auth methods, audit) per running service: runtimes sharing a process
    // (tests, restarts) keep separate state.
    const plugin = createAccessPlugin();
    const sqlite = dialectOf(ctx.kysely) === 'sqlite';
    const core = new StoreCore({ db: ctx.db, clock: ctx.clock, log: ctx.log, plugin, storageCache: settings.storageCache ?? sqlite, storageCacheBudget: settings.storageCacheBudget, aclCacheBudget: settings.aclCacheBudget });
    const cors = new CorsSettings(() => core.systemStorage(ROOT_NAMESPACE));
    cors.onChange(() => core.stamp.bump());
    core.onStale(() => cors.invalidate());
    const deps: SysDeps = {
      core,
      cors,
      storageType: sqlite ? 'sqlite' : 'postgresql',
      version: SECRETS_VERSION,
    };
    const wrapping = new Wrapping(core);
    const routes = [
      ...sealRoutes(deps),
      ...mountRoutes(deps),
      ...corsRoutes(deps),
      ...namespaceRoutes(deps),
      ...leaseRoutes(),
      ...wrappingRoutes(wrapping),
      ...toolsRoutes(),
      ...generateRootRoutes(deps, new GenerateRoot(core.seal)),
      ...rekeyRoutes(new Rekey(core.seal), async (unsealKey, shares) => {
        if (settings.dev) recordRekey(ctx.dataDir, unsealKey, shares);
      }),
      ...core.pluginRoutes,
    ];
    routes.push(...openapiRoutes(deps, () => routes));
    installSecretsHttp(app, {
      router: new Router(core, routes, wrapping),
      cors,
      bodyLimit: settings.maxRequestSize,
      requireRequestHeader: settings.requireRequestHeader,
    });
    running.set(ctx, { core, cors, dev: null });
  },

  async start(ctx) {
    const r = running.get(ctx);
    if (!r) return;
    const settings = parseSettings(ctx.settings);
    r.core.physical.forgetCache();
    r.core.seal.forget();
    r.core.mounts.invalidate();
    r.core.namespaces.invalidate();
    r.cors.invalidate();
    r.dev = settings.dev ? await bootstrapDev(r.core, ctx.dataDir, settings.devRootToken) : null;
  },

  async credentials(ctx) {
    const r = running.get(ctx);
    if (!r?.dev) return [{ label: 'secrets', value: 'production mode: initialise with PUT /v1/sys/init, then unseal' }];
    return [{ label: 'secrets root token (X-Secrets-Token / VAULT_TOKEN)', value: r.dev.rootToken }];
  },

  async health(ctx) {
    const r = running.get(ctx);
    if (!r) return {};
    const s = await r.core.seal.status();
    return { initialized: s.initialized, sealed: s.sealed };
  },
};
