// Push-notification channels of the Google-style APIs (Drive `watch`, Calendar `watch`, `channels.stop`): a channel
// is a durable subscription of a webhook address to a topic; every notification is an outbox webhook carrying the
// X-Goog-* headers, so deliveries are retried and visible in `GET /outbox`.
import type { Kysely, Migration } from 'kysely';
import type { Clock } from '../clock.ts';
import { columnTypes } from '../db/dialect.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import { inList } from '../db/in-list.ts';
import { preparedOn } from '../db/prepared.ts';
import { randomToken } from '../ids.ts';
import type { Outbox } from '../outbox.ts';
import { GoogleError } from './errors.ts';

export const WATCH_TABLES = ['core_watch_channels'];

export const watchChannelMigrations: Record<string, Migration> = {
  '0001_watch_channels': {
    async up(db: Kysely<any>) {
      const t = columnTypes(db);
      await db.schema
        .createTable('core_watch_channels')
        .addColumn('service', 'text', (c) => c.notNull())
        .addColumn('channel_id', 'text', (c) => c.notNull())
        .addColumn('resource_id', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('topic', 'text', (c) => c.notNull())
        .addColumn('resource_uri', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('token', 'text')
        .addColumn('params', t.json, (c) => c.notNull())
        .addColumn('expires_at', t.bigint, (c) => c.notNull())
        .addColumn('message_number', t.bigint, (c) => c.notNull())
        .addColumn('created_at', t.bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('core_watch_channels_pk', ['service', 'channel_id'])
        .execute();
      await db.schema.createIndex('core_watch_channels_topic').on('core_watch_channels').columns(['service', 'topic']).execute();
    },
  },
};

/** What a client sends to `watch` (the Channel resource's writable fields). */
export interface ChannelRequest {
  id?: unknown;
  type?: unknown;
  address?: unknown;
  token?: unknown;
  /** Milliseconds since the epoch, as an int64 string or a number. */
  expiration?: unknown;
  params?: unknown;
}

/** The api#channel resource answered by `watch`. */
export interface Channel {
  kind: 'api#channel';
  id: string;
  resourceId: string;
  resourceUri: string;
  token?: string;
  expiration: string;
}

export interface OpenOptions {
  service: string;
  ownerId: string;
  /** What the channel follows, e.g. `files:<fileId>` or `calendar:<calendarId>`. */
  topic: string;
  resourceUri: string;
  request: ChannelRequest;
  /** Lifetime when the request names none, and the longest allowed (a later expiration is cut to it). */
  defaultTtlMs?: number;
  maxTtlMs?: number;
}

/**
 * Which of these channel owners (principal ids as the service opened the channels with) may still see what the
 * topic follows; runs in the notifying unit of work, once per notification, only when the topic has live channels.
 */
export type ChannelAudience = (ownerIds: string[]) => Promise<ReadonlySet<string>>;

export interface NotifyInput {
  service: string;
  topic: string;
  state: string;
  changed?: string[];
  /** When given, only the channels of the owners it allows are notified; the others keep their message number. */
  audience?: ChannelAudience;
}

const ID_MAX = 64;
const TOKEN_MAX = 256;
const DAY_MS = 86_400_000;

/** Who watches a topic now (every change of a watched resource asks, inside its unit of work): compiled once. */
const ownersWatching = preparedOn<{ owner_id: unknown }>((db) =>
  db.selectFrom('core_watch_channels').select('owner_id').distinct().where('service', '=', '').where('topic', '=', '').where('expires_at', '>', 0),
);

export class WatchChannels {
  readonly #outbox: Outbox;
  readonly #clock: Clock;

  constructor(outbox: Outbox, clock: Clock) {
    this.#outbox = outbox;
    this.#clock = clock;
  }

  /** Registers a channel and queues its `sync` message. Pass the unit of work's transaction. */
  async open(tx: Kysely<any>, options: OpenOptions): Promise<Channel> {
    const req = validateRequest(options.request);
    const now = this.#clock.now();
    const maxTtl = options.maxTtlMs ?? 7 * DAY_MS;
    const requested = req.expiration ?? now + (options.defaultTtlMs ?? Math.min(DAY_MS, maxTtl));
    if (requested <= now) throw invalid('expiration', 'The channel expiration must be in the future.');
    const expiresAt = Math.min(requested, now + maxTtl);
    const resourceId = randomToken(18);
    try {
      await tx
        .insertInto('core_watch_channels')
        .values({
          service: options.service,
          channel_id: req.id,
          resource_id: resourceId,
          owner_id: options.ownerId,
          topic: options.topic,
          resource_uri: options.resourceUri,
          address: req.address,
          token: req.token ?? null,
          params: JSON.stringify(req.params),
          expires_at: expiresAt,
          message_number: 1,
          created_at: now,
        })
        .execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw new GoogleError(400, `Channel id ${req.id} not unique`, { reason: 'channelIdNotUnique' });
      throw err;
    }
    const channel: StoredChannel = { channelId: req.id, resourceId, resourceUri: options.resourceUri, address: req.address, token: req.token, expiresAt };
    await this.#enqueue(tx, options.service, channel, 1, 'sync');
    return { kind: 'api#channel', id: req.id, resourceId, resourceUri: options.resourceUri, ...(req.token !== undefined ? { token: req.token } : {}), expiration: String(expiresAt) };
  }

  /**
   * Queues a notification to every unexpired channel on `topic` whose owner the audience allows (every one without an
   * audience); answers how many were queued. A channel left out stays open and uses no message number.
   */
  async notify(tx: Kysely<any>, input: NotifyInput): Promise<number> {
    const now = this.#clock.now();
    let allowed: string[] | undefined;
    if (input.audience) {
      const owners = (await ownersWatching(tx, input.service, input.topic, now)).rows;
      if (owners.length === 0) return 0;
      const permitted = await input.audience(owners.map((o) => o.owner_id as string));
      allowed = owners.map((o) => o.owner_id as string).filter((id) => permitted.has(id));
      if (allowed.length === 0) return 0;
    }
    const rows = await tx
      .updateTable('core_watch_channels')
      .set((eb) => ({ message_number: eb('message_number', '+', 1) }))
      .where('service', '=', input.service)
      .where('topic', '=', input.topic)
      .where('expires_at', '>', now)
      .$if(allowed !== undefined, (qb) => qb.where(inList(tx, 'owner_id', allowed!)))
      .returning(['channel_id', 'resource_id', 'resource_uri', 'address', 'token', 'expires_at', 'message_number'])
      .execute();
    for (const r of rows) {
      const channel: StoredChannel = {
        channelId: r.channel_id,
        resourceId: r.resource_id,
        resourceUri: r.resource_uri,
        address: r.address,
        token: r.token ?? undefined,
        expiresAt: Number(r.expires_at),
      };
      await this.#enqueue(tx, input.service, channel, Number(r.message_number), input.state, input.changed);
    }
    return rows.length;
  }

  /** Ends a channel; false when no channel of this owner has that id and resource id. */
  async stop(tx: Kysely<any>, input: { service: string; ownerId: string; id: unknown; resourceId: unknown }): Promise<boolean> {
    if (typeof input.id !== 'string' || typeof input.resourceId !== 'string') return false;
    const result = await tx
      .deleteFrom('core_watch_channels')
      .where('service', '=', input.service)
      .where('channel_id', '=', input.id)
      .where('resource_id', '=', input.resourceId)
      .where('owner_id', '=', input.ownerId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async #enqueue(tx: Kysely<any>, service: string, channel: StoredChannel, number: number, state: string, changed?: string[]): Promise<void> {
    const headers: Record<string, string> = {
      'X-Goog-Channel-ID': channel.channelId,
      'X-Goog-Channel-Expiration': new Date(channel.expiresAt).toUTCString(),
      'X-Goog-Resource-ID': channel.resourceId,
      'X-Goog-Resource-URI': channel.resourceUri,
      'X-Goog-Resource-State': state,
      'X-Goog-Message-Number': String(number),
    };
    if (channel.token !== undefined) headers['X-Goog-Channel-Token'] = channel.token;
    if (changed && changed.length > 0) headers['X-Goog-Changed'] = changed.join(',');
    await this.#outbox.enqueue(
      { service, channel: 'webhook', recipient: channel.address, body: '', headers, correlation: `channel:${channel.channelId}` },
      tx,
    );
  }
}

interface StoredChannel {
  channelId: string;
  resourceId: string;
  resourceUri: string;
  address: string;
  token?: string;
  expiresAt: number;
}

interface ValidRequest {
  id: string;
  address: string;
  token?: string;
  expiration?: number;
  params: Record<string, string>;
}

function validateRequest(req: ChannelRequest): ValidRequest {
  if (!req || typeof req !== 'object') throw invalid('resource', 'A channel resource is required.');
  if (typeof req.id !== 'string' || req.id === '') throw required('id', 'The channel id is required.');
  if (req.id.length > ID_MAX || !/^[A-Za-z0-9\-_+/=]+$/.test(req.id)) {
    throw invalid('id', `The channel id must be 1-${ID_MAX} characters of [A-Za-z0-9-_+/=].`);
  }
  if (req.type !== undefined && req.type !== 'web_hook' && req.type !== 'webhook') throw invalid('type', `Unsupported channel type: ${String(req.type)}`);
  if (typeof req.address !== 'string' || req.address === '') throw required('address', 'The channel address is required.');
  if (!isHttpUrl(req.address)) throw invalid('address', 'The channel address must be an absolute http(s) URL.');
  if (req.token !== undefined && (typeof req.token !== 'string' || req.token.length > TOKEN_MAX)) {
    throw invalid('token', `The channel token must be a string of at most ${TOKEN_MAX} characters.`);
  }
  let expiration: number | undefined;
  if (req.expiration !== undefined && req.expiration !== null) {
    expiration = typeof req.expiration === 'number' ? req.expiration : typeof req.expiration === 'string' && /^\d{1,16}$/.test(req.expiration) ? Number(req.expiration) : NaN;
    if (!Number.isSafeInteger(expiration)) throw invalid('expiration', 'The channel expiration must be milliseconds since the epoch.');
  }
  const params: Record<string, string> = {};
  if (req.params !== undefined && req.params !== null) {
    if (typeof req.params !== 'object' || Array.isArray(req.params)) throw invalid('params', 'Channel params must be a map of strings.');
    for (const [k, v] of Object.entries(req.params as Record<string, unknown>)) {
      if (typeof v !== 'string') throw invalid(`params.${k}`, 'Channel params must be a map of strings.');
      params[k] = v;
    }
  }
  return { id: req.id, address: req.address, token: req.token as string | undefined, expiration, params };
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

const invalid = (field: string, message: string) => new GoogleError(400, message, { reason: 'invalid', location: field, locationType: 'parameter' });
const required = (field: string, message: string) => new GoogleError(400, message, { reason: 'required', location: field, locationType: 'parameter' });
