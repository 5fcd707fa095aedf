// Documented requests of direct post and domain keys (post-input.ts and the routes check them themselves). A browser
// posts these form-encoded (nested fields as bill_to.postcode or bill_to[postcode]); scripts may post JSON or XML.
import { Type } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { AuthRequest } from '../../routes/processing-schemas.ts';
import { CresFields, MerchantId, model } from '../../routes/shapes.ts';
import { AUTH_FIELDS } from '../post-input.ts';

const Nonce = Type.String({ pattern: '^[0-9A-Fa-f]{8,128}$', description: 'Hex, 8 to 128 characters; used once.' });
const RedirectUrl = (when: string) => Type.String({ description: `Absolute http or https URL receiving ${when}; required for a form post, with its partner.` });

/** Where the browser goes next, and the domain key when it is not sent as a header. */
const PostFields = {
  redirect_success: RedirectUrl('the authorisation result (also redirectSuccess)'),
  redirect_failure: RedirectUrl('invalid requests and payment failures (also redirectFailure)'),
  'pay-domain-key': Type.String({ description: 'The domain key, when not sent as the pay-domain-key header or query parameter.' }),
};

const cardPostProperties = Object.fromEntries(AUTH_FIELDS.map((name) => [name, AuthRequest.properties[name]!]));
const cardPostRequired = AuthRequest.required!.filter((name) => name !== 'merchantid' && AUTH_FIELDS.includes(name));

const DirectPostRequest = model(
  'DirectPostRequest',
  {
    ...Object.fromEntries(cardPostRequired.map((name) => [name, cardPostProperties[name]!])),
    nonce: Nonce,
    mac: Type.String({ description: 'Upper-case hex HMAC-SHA-256 of nonce + amount digits + identifier, keyed from the licence key.' }),
  },
  {
    ...Object.fromEntries(Object.entries(cardPostProperties).filter(([name]) => !cardPostRequired.includes(name))),
    merchantid: { ...MerchantId, description: "The merchant; the domain key's merchant when absent." },
    ...PostFields,
  },
  'Card data posted by the customer\'s browser; a form post is answered by a 303 redirect.',
);

const DirectTokenAuthRequest = model(
  'DirectTokenAuthRequest',
  { token: Type.String({ description: 'The token /direct/tokenise issued; used once, for its merchant, before it expires.' }) },
  { nonce: Nonce, ...PostFields },
);

const CResDirect = model('CResDirect', CresFields(), { threeDSSessionData: Type.String() });
const ChallengeParams = Type.Object({ id: Type.String({ description: 'The challenge this return address was made for.' }) });

const DomainKeyRequest = model(
  'DomainKeyRequest',
  {
    domain: Type.Array(Type.String({ description: 'A host name.' }), { minItems: 1, maxItems: 20, description: 'Hosts whose pages may post with the key.' }),
    merchantid: MerchantId,
  },
  { live: Type.Boolean({ default: false }) },
  'Makes a domain key for direct posts from the pages of registered hosts.',
);

const DomainKeyCheckRequest = model('DomainKeyCheckRequest', { domain_key: Type.String({ minLength: 1 }) });

export const DIRECT_SCHEMAS = {
  auth: documented({ body: DirectPostRequest }),
  tokenise: documented({ body: DirectPostRequest }),
  token: documented({ body: DirectTokenAuthRequest }),
  cres: documented({ params: ChallengeParams, body: CResDirect }),
  domainKey: documented({ body: DomainKeyRequest }),
  domainKeyCheck: documented({ body: DomainKeyCheckRequest }),
};
