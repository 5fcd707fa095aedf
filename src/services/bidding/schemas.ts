// TypeBox schemas of the service's settings and admin bodies.
import { Type, type Static } from '@sinclair/typebox';
import { CacheBudgetSchema } from '../../core/cache.ts';

const Id = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' });

export const AccountInput = Type.Object(
  {
    accountId: Id,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    parentBidderId: Type.Optional(Id),
    delegatesTo: Type.Optional(Id),
    /** A fixed bearer token (config seeds, demos); a random one is issued otherwise. */
    token: Type.Optional(Type.String({ minLength: 8, maxLength: 512 })),
  },
  { additionalProperties: false },
);
export type AccountInput = Static<typeof AccountInput>;

export const Settings = Type.Object(
  {
    accounts: Type.Optional(Type.Array(AccountInput)),
    /** Seed the demo bidder, its child and a delegating account (default true). */
    demo: Type.Optional(Type.Boolean()),
    /** Time zone of calendar dates in filter sets (default America/Los_Angeles, as the real API). */
    timeZone: Type.Optional(Type.String({ minLength: 1 })),
    /** Keep every raw event beside the aggregates (default true). */
    keepEvents: Type.Optional(Type.Boolean()),
    /** Filter sets kept parsed in memory on SQLite: `{ entries, bytes }`, either optional. */
    filterSetCacheBudget: Type.Optional(Type.Partial(CacheBudgetSchema)),
  },
  { additionalProperties: false },
);
export type Settings = Static<typeof Settings>;

export const IssueToken = Type.Object({ token: Type.Optional(Type.String({ minLength: 8, maxLength: 512 })) }, { additionalProperties: false });
