// The contract between the runtime and a service. Core never imports a service; services import this.
import type { ServerOptions } from 'node:http';
import type { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import type { Kysely, Migration } from 'kysely';
import type { Logger } from 'pino';
import type { Clock } from './clock.ts';
import type { Database } from './db/index.ts';
import type { Identity } from './identity.ts';
import type { Jobs, JobHandler } from './jobs.ts';
import type { Outbox } from './outbox.ts';
import type { Vault } from './crypto.ts';

export const SERVICE_IDS = [
  'secrets',
  'bidding',
  'entities',
  'errorreporting',
  'payments',
  'catalog',
  'files',
  'books',
  'calendar',
] as const;
export type ServiceId = (typeof SERVICE_IDS)[number];

/** Port offset from the base port (admin is base + 0). */
export const PORT_OFFSETS: Record<ServiceId, number> = {
  secrets: 1,
  bidding: 2,
  entities: 3,
  errorreporting: 4,
  payments: 5,
  catalog: 6,
  files: 7,
  books: 8,
  calendar: 9,
};

/** What the runtime hands to a service: every shared facility, already open. */
export interface ServiceContext {
  id: ServiceId;
  db: Database;
  /** Shorthand for db.kysely. */
  kysely: Kysely<any>;
  clock: Clock;
  identity: Identity;
  jobs: Jobs;
  outbox: Outbox;
  /** Encrypts values at rest under the instance's master key. */
  vault: Vault;
  log: Logger;
  /** The data directory (files the service keeps beside the database, such as blobs or a dev unseal share). */
  dataDir: string;
  /** The service's own settings from config (`services.<id>` in the config file); validated by the service. */
  settings: Record<string, unknown>;
  /** Public base URL of this service's listener, e.g. http://127.0.0.1:4404 (for links it generates). */
  baseUrl: string;
  /** Set during `register` by a service whose listener serves TLS itself, so its URL is reported as https. */
  tls?: boolean;
  /** True for tests and `start` without a TTY: quieter output. */
  devMode: boolean;
  /** The development user's credentials (seeded at start; every Google-style scope). */
  dev: { apiKey: string; token: string };
}

/** One line of the table printed at start: what a user needs to call the service. */
export interface CredentialHint {
  label: string;
  value: string;
}

export interface ServiceManifest {
  id: ServiceId;
  title: string;
  /** Kysely migrations of the service's own tables, run at start in name order. Table names start with `<id>_`. */
  migrations: Record<string, Migration>;
  /** Tables emptied by `POST /reset` for this service (children before parents). */
  tables: string[];
  /** Files under the data directory that hold part of the service's state (carried by export and import). */
  dataFiles?: string[];
  /** Durable job kinds this service handles (see core/jobs.ts). */
  jobs?: Record<string, JobHandler>;
  /**
   * Options for the Fastify instance the runtime creates for this service.
   * `serverFactory` lets a service put a stage in front of Node's HTTP parser (the secrets store needs the LIST verb).
   */
  listener?: {
    bodyLimit?: number;
    /** Must create the server with `serverOptions` (the listener's sweep interval, which cannot be set later). */
    serverFactory?: (handler: (req: any, res: any) => void, serverOptions: ServerOptions) => any;
    https?: { key: string | Buffer; cert: string | Buffer } | null;
  };
  /** Registers routes, hooks and error handlers on the service's own Fastify instance. */
  register(app: FastifyInstance, ctx: ServiceContext): Promise<void>;
  /** Runs after migrations and before listening (seed defaults, unseal in dev mode, schedule recurring jobs). */
  start?(ctx: ServiceContext): Promise<void>;
  /** Credentials and hints printed in the start table. */
  credentials?(ctx: ServiceContext): Promise<CredentialHint[]>;
  /** Extra health detail for `GET /health` on the admin listener. */
  health?(ctx: ServiceContext): Promise<Record<string, unknown>>;
  /** Admin routes mounted under `/services/<id>/` on the admin listener (data loading, settings). */
  admin?(app: FastifyInstance, ctx: ServiceContext): Promise<void>;
  /**
   * Adds subcommands under `twinstack <id>` (for example `twinstack bidding load`). `open` gives the service's
   * context on the configured database without starting listeners; call `close` when done.
   */
  commands?(group: Command, open: () => Promise<{ ctx: ServiceContext; close(): Promise<void> }>): void;
  /** Called on shutdown after the listener closed. */
  stop?(ctx: ServiceContext): Promise<void>;
}
