// The watch topics of the resources besides events (settings, calendar list, ACL) and the notifications their
// changes send, inside the unit of work of the change.
import type { Kysely } from 'kysely';
import type { Channel, WatchChannels } from '../../core/google/watch-channels.ts';
import type { ServiceContext } from '../../core/service.ts';
import type { Caller } from './access.ts';

export const settingsTopic = (email: string) => `settings:${email.toLowerCase()}`;
export const calendarListTopic = (email: string) => `calendarList:${email.toLowerCase()}`;
export const aclTopic = (calendarId: string) => `acl:${calendarId}`;

export class ResourceWatches {
  readonly #ctx: ServiceContext;
  readonly #watch: WatchChannels;

  constructor(ctx: ServiceContext, watch: WatchChannels) {
    this.#ctx = ctx;
    this.#watch = watch;
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
    for (const topic of new Set(topics)) await this.#watch.notify(tx, { service: 'calendar', topic, state: 'exists' });
  }
}
