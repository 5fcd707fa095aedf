// The watch topics (a calendar's events and ACL, a user's settings and calendar list) and the notifications their
// changes send, inside the unit of work of the change. A calendar's topics notify only the channels whose owner can
// still open that watch (reader on the events, writer on the ACL); a user's own topics need no check.
import type { Kysely } from 'kysely';
import type { Channel, ChannelAudience, WatchChannels } from '../../core/google/watch-channels.ts';
import type { ServiceContext } from '../../core/service.ts';
import type { Caller, Calendars } from './access.ts';

export const settingsTopic = (email: string) => `settings:${email.toLowerCase()}`;
export const calendarListTopic = (email: string) => `calendarList:${email.toLowerCase()}`;
export const aclTopic = (calendarId: string) => `acl:${calendarId}`;
export const eventsTopic = (calendarId: string) => `calendar:${calendarId}`;

/** The role a calendar topic's watch needs, by topic prefix. */
const CALENDAR_TOPICS: Record<string, 'reader' | 'writer'> = { 'calendar:': 'reader', 'acl:': 'writer' };

export class ResourceWatches {
  readonly #ctx: ServiceContext;
  readonly #watch: WatchChannels;
  readonly #calendars: Calendars;

  constructor(ctx: ServiceContext, watch: WatchChannels, calendars: Calendars) {
    this.#ctx = ctx;
    this.#watch = watch;
    this.#calendars = calendars;
  }

  /** Opens a channel on `topic` for the resource at `path` (under /calendar/v3). */
  open(tx: Kysely<any>, caller: Caller, topic: string, path: string, request: unknown): Promise<Channel> {
    return this.#watch.open(tx, {
      service: 'calendar',
      ownerId: caller.principalId,
      topic,
      resourceUri: `${this.#ctx.baseUrl}/calendar/v3${path}?alt=json`,
      request: (request ?? {}) as Record<string, unknown>,
    });
  }

  async changed(tx: Kysely<any>, topics: Iterable<string>): Promise<void> {
    for (const topic of new Set(topics)) await this.#watch.notify(tx, { service: 'calendar', topic, state: 'exists', audience: this.#audienceOf(tx, topic) });
  }

  #audienceOf(tx: Kysely<any>, topic: string): ChannelAudience | undefined {
    for (const [prefix, need] of Object.entries(CALENDAR_TOPICS)) {
      if (topic.startsWith(prefix)) return (ownerIds) => this.#calendars.holders(tx, topic.slice(prefix.length), ownerIds, need);
    }
    return undefined;
  }
}
