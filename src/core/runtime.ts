// Assembles one running instance: database, clock, identity, jobs, outbox, and a listener per service.
// Knows services only through their manifests.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { ManualClock, SystemClock, type Clock } from './clock.ts';
import { Vault } from './crypto.ts';
import { openDatabase, type Database } from './db/index.ts';
import { RequestInspector } from './http/inspector.ts';
import type { CacheBudget } from './cache.ts';
import { createListener, type ListenerLimits } from './http/listener.ts';
import { serveOpenApi } from './http/openapi.ts';
import { serveDiscovery } from './google/discovery.ts';
import { REDACT_PATHS } from './http/redact.ts';
import { Identity } from './identity.ts';
import { Jobs } from './jobs.ts';
import { CORE_TABLES, coreMigrations, migrateAll } from './migrations.ts';
import { blobMigrations } from './blobs/migrations.ts';
import { watchChannelMigrations } from './google/watch-channels.ts';
import { Outbox } from './outbox.ts';
import { explainListenError, probePort } from './ports.ts';
import type { ServiceContext, ServiceId, ServiceManifest } from './service.ts';
import { randomBytes } from 'node:crypto';
import { Server as TlsServer } from 'node:tls';

export interface RuntimeOptions {
  dataDir: string;
  databaseUrl: string;
  sqliteSynchronous?: 'FULL' | 'NORMAL';
  /** Socket limits of every listener (connections, header, request and keep-alive timeouts). */
  listenerLimits?: Partial<ListenerLimits>;
  /** Budgets of core's caches. */
  caches?: { credentials?: CacheBudget; statements?: CacheBudget };
  host: string;
  /** Port per listener ('admin' and each service id); 0 picks a free port. */
  ports: (id: ServiceId | 'admin') => number;
  clock: 'system' | 'manual';
  clockStart?: number;
  logLevel: string;
  logger?: Logger;
  masterKey?: string;
  devApiKey: string;
  devToken: string;
  principals?: Array<{ id: string; kind: string; name: string; attrs?: Record<string, unknown>; credentials?: Array<{ type: 'api_key' | 'bearer' | 'licence_key'; value: string; scopes?: string[]; label?: string }> }>;
  settings?: Record<string, Record<string, unknown>>;
  /** false: open and migrate only (for `reset` and data commands). */
  listen?: boolean;
  /** How often the scheduler looks for due jobs and outbox messages. */
  tickMs?: number;
}

export interface RunningService {
  manifest: ServiceManifest;
  ctx: ServiceContext;
  app: FastifyInstance;
  url: string;
}

/** Scopes the development token holds: every Google-style scope the services check. */
export const DEV_SCOPES = [
  'https://www.googleapis.com/auth/cloud-platform',
  'https://www.googleapis.com/auth/stackdriver-integration',
  'https://www.googleapis.com/auth/adexchange.buyer',
  'https://www.googleapis.com/auth/content',
  'https://www.googleapis.com/auth/drive',
  'https://www.googleapis.com/auth/books',
  'https://www.googleapis.com/auth/calendar',
];

export const DEV_PRINCIPAL_ID = 'developer';

/** Options for an embedded, silent runtime on ephemeral loopback ports (tests, benchmarks, tools). */
export function loopbackOptions(dataDir: string, databaseUrl: string, overrides: Partial<RuntimeOptions> = {}): RuntimeOptions {
  return {
    dataDir,
    databaseUrl,
    host: '127.0.0.1',
    ports: () => 0,
    clock: 'system',
    logLevel: 'silent',
    logger: pino({ level: 'silent' }),
    devApiKey: 'loopback-dev-api-key',
    devToken: 'loopback-dev-token',
    ...overrides,
  };
}

export class Runtime {
  readonly options: RuntimeOptions;
  readonly log: Logger;
  readonly db: Database;
  readonly clock: Clock;
  readonly vault: Vault;
  readonly identity: Identity;
  readonly jobs: Jobs;
  readonly outbox: Outbox;
  readonly services = new Map<ServiceId, RunningService>();
  /** The last requests of every service, for the console (in memory only). */
  readonly inspector = new RequestInspector();
  admin?: { app: FastifyInstance; url: string };
  #timer?: NodeJS.Timeout;
  #unsubscribeClock?: () => void;
  #closing?: Promise<void>;
  readonly #beforeDatabaseCloses: Array<() => Promise<void>> = [];

  private constructor(options: RuntimeOptions, log: Logger, db: Database, clock: Clock, vault: Vault) {
    this.options = options;
    this.log = log;
    this.db = db;
    this.clock = clock;
    this.vault = vault;
    const wall = new SystemClock();
    this.identity = new Identity(db.kysely, clock, vault, options.caches?.credentials);
    this.jobs = new Jobs(db.kysely, clock, log.child({ part: 'jobs' }), () => wall.now());
    this.outbox = new Outbox(db.kysely, clock, log.child({ part: 'outbox' }), () => wall.now());
  }

  static async start(options: RuntimeOptions, manifests: ServiceManifest[], admin?: (rt: Runtime) => Promise<FastifyInstance>): Promise<Runtime> {
    const log = options.logger ?? pino({ level: options.logLevel, redact: { paths: REDACT_PATHS, censor: '[redacted]' } });
    if (options.listen !== false) {
      for (const id of [...(admin ? ['admin' as const] : []), ...manifests.map((m) => m.id)]) await probePort(id, options.host, options.ports(id));
    }
    // A start that fails before it is up leaves no data directory it made itself (a key for an empty store misleads).
    const madeDataDir = !existsSync(options.dataDir);
    mkdirSync(options.dataDir, { recursive: true });
    let db: Database;
    let vault: Vault;
    try {
      vault = new Vault(masterKey(options));
      db = await openDatabase(options.databaseUrl, { synchronous: options.sqliteSynchronous, statementCache: options.caches?.statements });
    } catch (err) {
      if (madeDataDir) rmSync(options.dataDir, { recursive: true, force: true });
      throw err;
    }
    let rt: Runtime | undefined;
    try {
      const services = manifests.map((m) => [m.id, m.migrations] as const);
      await migrateAll(db, [['core', coreMigrations], ['core_blobs', blobMigrations], ['core_watch', watchChannelMigrations], ...services]);
      const clock = await restoreClock(db, options);
      rt = new Runtime(options, log, db, clock, vault);
      await rt.#seedPrincipals();
      for (const manifest of manifests) await rt.#startService(manifest);
      if (options.listen !== false) {
        if (admin) {
          const app = await admin(rt);
          const url = await listen(app, options.host, options.ports('admin'), 'admin');
          rt.admin = { app, url };
        }
        rt.#startScheduler();
      }
      return rt;
    } catch (err) {
      if (rt) await rt.close();
      else await db.close();
      if (madeDataDir) rmSync(options.dataDir, { recursive: true, force: true });
      throw err;
    }
  }

  async #startService(manifest: ServiceManifest): Promise<void> {
    const log = this.log.child({ service: manifest.id });
    const ctx: ServiceContext = {
      id: manifest.id,
      db: this.db,
      kysely: this.db.kysely,
      clock: this.clock,
      identity: this.identity,
      jobs: this.jobs,
      outbox: this.outbox,
      vault: this.vault,
      log,
      dataDir: this.options.dataDir,
      settings: this.options.settings?.[manifest.id] ?? {},
      baseUrl: '',
      devMode: true,
      dev: { apiKey: this.options.devApiKey, token: this.options.devToken },
    };
    for (const [kind, handler] of Object.entries(manifest.jobs ?? {})) this.jobs.register(manifest.id, kind, handler, ctx);
    const app = createListener({
      name: manifest.id,
      log,
      bodyLimit: manifest.listener?.bodyLimit,
      serverFactory: manifest.listener?.serverFactory,
      https: manifest.listener?.https,
      limits: this.options.listenerLimits,
      inspection: { inspector: this.inspector, principalOf: (req) => this.#principalOf(req.headers, req.query) },
    });
    // Before the service's own routes: the descriptions are generated from routes recorded as they are added.
    await serveOpenApi(app, { title: manifest.title });
    serveDiscovery(app, manifest.id);
    await manifest.register(app, ctx);
    await manifest.start?.(ctx);
    let url = '';
    if (this.options.listen !== false) {
      url = await listen(app, this.options.host, this.options.ports(manifest.id), manifest.id, ctx.tls);
      ctx.baseUrl = url;
    }
    this.services.set(manifest.id, { manifest, ctx, app, url });
  }

  async #seedPrincipals(): Promise<void> {
    await this.identity.upsertPrincipal({ id: DEV_PRINCIPAL_ID, kind: 'user', name: 'Development user', attrs: { email: 'developer@twinstack.local' } });
    await this.identity.ensureCredential({ principalId: DEV_PRINCIPAL_ID, type: 'api_key', value: this.options.devApiKey, label: 'development API key' });
    await this.identity.ensureCredential({ principalId: DEV_PRINCIPAL_ID, type: 'bearer', value: this.options.devToken, scopes: DEV_SCOPES, label: 'development bearer token' });
    for (const p of this.options.principals ?? []) {
      await this.identity.upsertPrincipal(p);
      for (const c of p.credentials ?? []) {
        await this.identity.ensureCredential({ principalId: p.id, type: c.type, value: c.value, scopes: c.scopes, label: c.label, keepSecret: c.type === 'licence_key' });
      }
    }
  }

  /** The principal a request names by a bearer token or an API key of ours (other schemes are the services' own). */
  async #principalOf(headers: Record<string, unknown>, query: unknown): Promise<string | null> {
    const bearer = /^Bearer\s+(\S+)$/i.exec(String(headers.authorization ?? ''))?.[1];
    const apiKey = headers['x-goog-api-key'] ?? (query as { key?: unknown } | undefined)?.key;
    const resolved = bearer
      ? await this.identity.resolve('bearer', bearer)
      : typeof apiKey === 'string' && apiKey
        ? await this.identity.resolve('api_key', apiKey)
        : undefined;
    return resolved?.principal.id ?? null;
  }

  #startScheduler(): void {
    const tickMs = this.options.tickMs ?? 500;
    this.#timer = setInterval(() => void this.tick(), tickMs);
    this.#timer.unref();
    this.#unsubscribeClock = this.clock.onChange(() => void this.tick());
  }

  /** Runs due jobs and delivers due outbox messages now. */
  async tick(): Promise<void> {
    if (this.#closing) return;
    try {
      await this.jobs.runDue();
      await this.outbox.deliverDue();
    } catch (err) {
      this.log.error({ err }, 'scheduler pass failed');
    }
  }

  /** Writes manual time to the database now (it is also written on every change, in the background). */
  async persistClock(): Promise<void> {
    if (this.clock.mode === 'manual') await saveClockInOrder(this.db, this.clock.now(), this.options.clockStart);
  }

  /** After an import replaced state underneath the services: principals seeded again, each service started again on it. */
  async reload(ids: ServiceId[]): Promise<void> {
    this.identity.invalidate();
    await this.#seedPrincipals();
    for (const id of ids) {
      const s = this.services.get(id);
      if (s) await s.manifest.start?.(s.ctx);
    }
  }

  /** Empties one service's data (or everything) and lets the service seed its defaults again. */
  async reset(id?: ServiceId): Promise<ServiceId[]> {
    const targets = id ? [this.services.get(id)!] : [...this.services.values()];
    for (const s of targets) {
      await this.db.clear(s.manifest.tables);
      await this.db.kysely.deleteFrom('core_jobs').where('service', '=', s.manifest.id).execute();
      await this.db.kysely.deleteFrom('core_outbox').where('service', '=', s.manifest.id).execute();
      await this.db.kysely.deleteFrom('core_watch_channels').where('service', '=', s.manifest.id).execute();
    }
    if (!id) {
      await this.db.clear(CORE_TABLES.filter((t) => t !== 'core_settings'));
      this.identity.invalidate();
      await this.#seedPrincipals();
    }
    for (const s of targets) await s.manifest.start?.(s.ctx);
    return targets.map((s) => s.manifest.id);
  }

  /** Stops accepting, lets in-flight requests finish, stops services, closes the database. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#timer) clearInterval(this.#timer);
      this.#unsubscribeClock?.();
      const apps = [...this.services.values()].map((s) => s.app);
      if (this.admin) apps.push(this.admin.app);
      await Promise.allSettled(apps.map((a) => a.close()));
      await this.jobs.runDue().catch(() => 0); // wait for a pass already under way
      for (const s of this.services.values()) await s.manifest.stop?.(s.ctx).catch((err) => this.log.error({ err }, 'stop failed'));
      try {
        for (const fn of this.#beforeDatabaseCloses) await fn();
      } finally {
        await this.db.close();
      }
    })();
    return this.#closing;
  }

  /** Runs `fn` on close once nothing serves requests any more, before the database closes (an export on exit). */
  beforeDatabaseClose(fn: () => Promise<void>): void {
    this.#beforeDatabaseCloses.push(fn);
  }
}

async function listen(app: FastifyInstance, host: string, port: number, listener: string, declaredTls = false): Promise<string> {
  await app.listen({ host, port }).catch((err: unknown) => {
    throw explainListenError(err, listener, host, port);
  });
  // A TLS server, or a service that wraps its sockets in TLS from its own settings and says so.
  const tls = declaredTls || app.server instanceof TlsServer;
  const address = app.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `${tls ? 'https' : 'http'}://${shownHost}:${actual}`;
}

/** The master key encrypts what services keep at rest. Generated once per data directory unless configured. */
function masterKey(options: RuntimeOptions): Buffer {
  if (options.masterKey) return Buffer.from(options.masterKey, 'hex');
  const path = resolve(options.dataDir, 'master.key');
  if (existsSync(path)) {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
    if (key.length !== 32) throw new Error(`${path} does not hold a 64-hex-character key`);
    return key;
  }
  const key = randomBytes(32);
  writeFileSync(path, key.toString('hex') + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
  return key;
}

/** Manual time is kept in the database so that a restart resumes where the user left it. */
async function restoreClock(db: Database, options: RuntimeOptions): Promise<Clock> {
  if (options.clock === 'system') return new SystemClock();
  // A configured start applies once: when it differs from the one recorded, it wins; otherwise the saved time resumes.
  const row = await db.kysely.selectFrom('core_settings').select('value').where('key', '=', 'clock').executeTakeFirst();
  const saved = row ? (JSON.parse(row.value) as { now: number; start?: number }) : undefined;
  const configured = options.clockStart;
  const start = saved && (configured === undefined || configured === saved.start) ? saved.now : (configured ?? Date.now());
  const clock = new ManualClock(start);
  const save = (now: number) => saveClockInOrder(db, now, configured);
  await save(start);
  clock.onChange((now) => void save(now).catch(() => undefined));
  return clock;
}

/**
 * The last save of each database's manual time. Saves run one after another in the order they were asked: on a
 * PostgreSQL pool two could otherwise commit out of order, and a restart resume an earlier time than the last one set.
 */
const lastClockSave = new WeakMap<Database, Promise<void>>();

function saveClockInOrder(db: Database, now: number, start?: number): Promise<void> {
  const previous = lastClockSave.get(db) ?? Promise.resolve();
  const save = previous.catch(() => undefined).then(() => saveClock(db, now, start));
  lastClockSave.set(db, save);
  return save;
}

async function saveClock(db: Database, now: number, start?: number): Promise<void> {
  const value = JSON.stringify({ now, start });
  await db.kysely
    .insertInto('core_settings')
    .values({ key: 'clock', value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
