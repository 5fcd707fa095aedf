// One configuration schema. Sources, strongest first: command-line flags, TWINSTACK_* environment variables,
// a JSON config file, defaults. Validated once at start; every problem is reported in one message.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { CacheBudgetSchema } from './core/cache.ts';
import { PORT_OFFSETS, SERVICE_IDS, type ServiceId } from './core/service.ts';

const Port = Type.Integer({ minimum: 0, maximum: 65535 });

const PrincipalSeed = Type.Object({
  id: Type.String({ minLength: 1 }),
  kind: Type.String({ minLength: 1 }),
  name: Type.String({ minLength: 1 }),
  attrs: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  credentials: Type.Optional(
    Type.Array(
      Type.Object({
        type: Type.Union([Type.Literal('api_key'), Type.Literal('bearer'), Type.Literal('licence_key')]),
        value: Type.String({ minLength: 8 }),
        scopes: Type.Optional(Type.Array(Type.String())),
        label: Type.Optional(Type.String()),
      }),
    ),
  ),
});

export const ConfigSchema = Type.Object({
  dataDir: Type.String({ minLength: 1 }),
  /** A SQLite file path or a postgres:// URL; default: <dataDir>/twinstack.db. */
  database: Type.Optional(Type.String({ minLength: 1 })),
  /** SQLite durability (FULL fsyncs every commit). */
  sqliteSynchronous: Type.Union([Type.Literal('FULL'), Type.Literal('NORMAL')]),
  host: Type.String({ minLength: 1 }),
  portBase: Port,
  ports: Type.Record(Type.String(), Port),
  /** Services to start; empty means every implemented one. */
  only: Type.Array(Type.String()),
  clock: Type.Union([Type.Literal('system'), Type.Literal('manual')]),
  /** Start of manual time (RFC 3339); default: the real time at first start. */
  clockStart: Type.Optional(Type.String()),
  logLevel: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
  shutdownGraceMs: Type.Integer({ minimum: 0, maximum: 600_000 }),
  /** Budgets (`{ entries, bytes }`) of the caches core keeps; services take theirs in their own settings. */
  caches: Type.Optional(
    Type.Object({ credentials: Type.Optional(CacheBudgetSchema), statements: Type.Optional(CacheBudgetSchema) }, { additionalProperties: false }),
  ),
  /** Socket limits of every listener; each field defaults as documented in core/http/listener.ts. */
  listenerLimits: Type.Optional(
    Type.Object(
      {
        maxConnections: Type.Optional(Type.Integer({ minimum: 1 })),
        headersTimeoutMs: Type.Optional(Type.Integer({ minimum: 100 })),
        requestTimeoutMs: Type.Optional(Type.Integer({ minimum: 100 })),
        keepAliveTimeoutMs: Type.Optional(Type.Integer({ minimum: 100 })),
      },
      { additionalProperties: false },
    ),
  ),
  /** An archive imported into the database before the listeners start (test fixtures). */
  importOnStart: Type.Optional(Type.String({ minLength: 1 })),
  /** Where the state is exported on shutdown (SIGINT/SIGTERM), written atomically. */
  exportOnExit: Type.Optional(Type.String({ minLength: 1 })),
  /** Development credentials printed at start; fixed so scripts can rely on them. */
  devApiKey: Type.String({ minLength: 8 }),
  devToken: Type.String({ minLength: 8 }),
  /** 64 hex characters; default: a key generated once in <dataDir>/master.key. Shared by instances on one PostgreSQL. */
  masterKey: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  principals: Type.Array(PrincipalSeed),
  services: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown())),
});

export type Config = Static<typeof ConfigSchema>;

export const DEFAULTS: Config = {
  dataDir: '.twinstack',
  sqliteSynchronous: 'FULL',
  host: '127.0.0.1',
  portBase: 4400,
  ports: {},
  only: [],
  clock: 'system',
  logLevel: 'warn',
  shutdownGraceMs: 10_000,
  devApiKey: 'twinstack-dev-api-key',
  devToken: 'twinstack-dev-token',
  principals: [],
  services: {},
};

export class ConfigError extends Error {}

/** Environment variables read, and the config key each sets. */
const ENV: Record<string, keyof Config> = {
  TWINSTACK_DATA_DIR: 'dataDir',
  TWINSTACK_DATABASE: 'database',
  TWINSTACK_SQLITE_SYNCHRONOUS: 'sqliteSynchronous',
  TWINSTACK_HOST: 'host',
  TWINSTACK_PORT_BASE: 'portBase',
  TWINSTACK_ONLY: 'only',
  TWINSTACK_CLOCK: 'clock',
  TWINSTACK_CLOCK_START: 'clockStart',
  TWINSTACK_LOG_LEVEL: 'logLevel',
  TWINSTACK_SHUTDOWN_GRACE_MS: 'shutdownGraceMs',
  TWINSTACK_IMPORT_ON_START: 'importOnStart',
  TWINSTACK_EXPORT_ON_EXIT: 'exportOnExit',
  TWINSTACK_DEV_API_KEY: 'devApiKey',
  TWINSTACK_DEV_TOKEN: 'devToken',
  TWINSTACK_MASTER_KEY: 'masterKey',
};

export interface LoadInput {
  flags?: Partial<Record<keyof Config, unknown>> & { config?: string };
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export function loadConfig(input: LoadInput = {}): Config {
  const env = input.env ?? process.env;
  const cwd = input.cwd ?? process.cwd();
  const flags = { ...(input.flags ?? {}) };
  const configPath = (flags.config as string | undefined) ?? env.TWINSTACK_CONFIG ?? (existsSync(resolve(cwd, 'twinstack.config.json')) ? 'twinstack.config.json' : undefined);
  delete flags.config;

  let fromFile: Record<string, unknown> = {};
  if (configPath) {
    const path = resolve(cwd, configPath);
    try {
      fromFile = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new ConfigError(`cannot read config file ${path}: ${(err as Error).message}`);
    }
  }

  const fromEnv: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(ENV)) if (env[name] !== undefined && env[name] !== '') fromEnv[key] = env[name];
  for (const id of SERVICE_IDS) {
    const port = env[`TWINSTACK_PORT_${id.toUpperCase()}`];
    if (port) fromEnv.ports = { ...(fromEnv.ports as object), [id]: port };
  }
  const adminPort = env.TWINSTACK_PORT_ADMIN;
  if (adminPort) fromEnv.ports = { ...(fromEnv.ports as object), admin: adminPort };

  const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  const merged: Record<string, unknown> = { ...DEFAULTS, ...defined(fromFile), ...defined(fromEnv), ...defined(flags) };
  merged.ports = { ...((fromFile.ports as object) ?? {}), ...((fromEnv.ports as object) ?? {}), ...((flags.ports as object) ?? {}) };
  if (typeof merged.only === 'string') merged.only = merged.only.split(',').map((s) => s.trim()).filter(Boolean);

  const converted = Value.Convert(ConfigSchema, merged) as Record<string, unknown>;
  const problems = [...Value.Errors(ConfigSchema, converted)].map((e) => `${e.path || '/'}: ${e.message} (got ${JSON.stringify(e.value)})`);
  for (const id of converted.only as string[]) {
    if (!(SERVICE_IDS as readonly string[]).includes(id)) problems.push(`/only: unknown service id "${id}" (known: ${SERVICE_IDS.join(', ')})`);
  }
  for (const name of Object.keys(converted.ports as object)) {
    if (name !== 'admin' && !(SERVICE_IDS as readonly string[]).includes(name)) problems.push(`/ports: unknown service id "${name}"`);
  }
  if (converted.clockStart !== undefined && Number.isNaN(Date.parse(String(converted.clockStart)))) {
    problems.push(`/clockStart: not a timestamp (got ${JSON.stringify(converted.clockStart)})`);
  }
  const base = Number(converted.portBase);
  if (Number.isInteger(base) && base !== 0 && base + 9 > 65535) problems.push(`/portBase: ${base} leaves no room for the nine service ports`);
  if (problems.length) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  const config = converted as Config;
  config.dataDir = resolve(cwd, config.dataDir);
  if (config.importOnStart) config.importOnStart = resolve(cwd, config.importOnStart);
  if (config.exportOnExit) config.exportOnExit = resolve(cwd, config.exportOnExit);
  return config;
}

/** The port of a listener: an explicit port, else the base plus the service's offset (0 keeps 0: an ephemeral port). */
export function portOf(config: Config, id: ServiceId | 'admin'): number {
  if (config.ports[id] !== undefined) return config.ports[id];
  if (config.portBase === 0) return 0;
  return config.portBase + (id === 'admin' ? 0 : PORT_OFFSETS[id]);
}

export function databaseUrl(config: Config): string {
  return config.database ?? resolve(config.dataDir, 'twinstack.db');
}
