// Documented requests of ping, BIN lookup, the merchant list, /v6/authenticate and the sandbox ACS (their routes
// check them themselves).
import { Type } from '@sinclair/typebox';
import { documented } from '../../../core/http/documented.ts';
import { Identifier, model } from './shapes.ts';

const BinLookup = model(
  'BinLookup',
  { bin: Type.Integer({ minimum: 100_000, maximum: 999_999_999_999, description: 'The first 6 to 12 digits of a card number (more digits give a more accurate result).' }) },
);

const AuthenticateRequest = model(
  'AuthenticateRequest',
  {
    clientid: Type.String({ minLength: 1, maxLength: 50, description: 'Client id.' }),
    licencekey: Type.String({ minLength: 1, maxLength: 255, description: 'Licence key of the client.' }),
  },
  {
    subject: Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^\\d{1,10}$' })], {
      description: 'A merchant id of the client: the key then acts for that merchant only.',
    }),
  },
  'Exchanges a client id and licence key for an API key (pay-api-key).',
);

/** What a browser or script posts to the sandbox ACS: the challenge request and the session data to carry back. */
const AcsPost = (extra: Record<string, ReturnType<typeof Type.String>>) =>
  Type.Object({
    creq: Type.Optional(Type.String({ description: 'The challenge request of the Decision (RequestChallenged.creq).' })),
    threeDSSessionData: Type.Optional(Type.String({ description: 'Any value identifying the session; returned next to cres.' })),
    ...Object.fromEntries(Object.entries(extra).map(([k, s]) => [k, Type.Optional(s)])),
  });

const TransStatus = Type.String({ description: 'The ACS result: Y authenticated, anything else not.' });

export const MISC_SCHEMAS = {
  ping: documented({ body: model('Ping', {}, { identifier: Identifier }) }),
  bin: documented({ body: BinLookup }),
  merchants: documented({
    params: Type.Object({ clientid: Type.String({ description: "The caller's client id, or default." }) }),
    querystring: Type.Object({ sort: Type.Optional(Type.Union([Type.Literal('merchantid'), Type.Literal('name')])) }),
  }),
  authenticate: documented({ body: AuthenticateRequest }),
  acs: documented({ body: AcsPost({}) }),
  acsResult: documented({ body: AcsPost({ transStatus: TransStatus, otp: Type.String({ description: 'One-time passcode (any value in the sandbox).' }) }) }),
  genRreq: documented({ body: AcsPost({ transStatus: TransStatus }) }),
};
