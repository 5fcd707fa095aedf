// The sub-shapes the payment models share, as TypeBox schemas for the route documentation (documented(): the
// handlers check every field themselves and answer with the API's result codes). Bounds are those the parsers in
// domain/requests.ts and domain/fields.ts enforce. Bodies are described in their JSON form: an XML or form body
// carries the same fields as text, and JSON may also wrap them in the model's name (`{"AuthRequest": {...}}`).
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { AGREEMENTS } from '../domain/requests.ts';
import { POLICY_VALUES } from '../domain/policies.ts';
import { MAX_RESULTS, MIN_RESULTS } from '../domain/pagination.ts';

const INT32_MAX = 2_147_483_647;

const optional = (props: TProperties): TProperties =>
  Object.fromEntries(Object.entries(props).map(([k, s]) => [k, Type.Optional(s)]));

const oneOfStrings = (values: readonly string[], description: string) => Type.Union(values.map((v) => Type.Literal(v)), { description });

/** The body of a model: its fields (unknown ones are ignored), the required ones named. */
export function model(name: string, required: TProperties, rest: TProperties = {}, description?: string) {
  const wrapped = `May be sent wrapped as {"${name}": {...}} or as XML with root element ${name}.`;
  return Type.Object({ ...required, ...optional(rest) }, { title: name, description: description ? `${description} ${wrapped}` : wrapped });
}

export const Amount = Type.Integer({ minimum: 1, maximum: 999_999_999, description: 'Amount in the lowest unit of the currency, 1 to 9 digits.' });
export const MerchantId = Type.Integer({ minimum: 0, maximum: INT32_MAX, description: 'The merchant account to process for.' });
export const TransNo = Type.Integer({ minimum: 0, maximum: INT32_MAX, description: 'Transaction number.' });
export const Identifier = Type.String({
  minLength: 4,
  maxLength: 50,
  pattern: '^[\\x20-\\x7e]*$',
  description: 'Merchant reference, 4 to 50 printable ASCII characters: used for reconciliation and duplicate checking.',
});
export const Currency = Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code; the merchant account currency when absent.' });
export const TransInfo = Type.String({ maxLength: 50, description: 'Shown in reporting.' });
export const NameOnCard = Type.String({ minLength: 2, maxLength: 45, description: 'Card holder name; needed for 3-D Secure v2 and by some acquirers.' });
export const Policy = oneOfStrings(POLICY_VALUES, '0 the account default, 1 enforced, 2 bypass, 3 ignore.');
const Extension = (description: string) => Type.Object({}, { additionalProperties: true, description });

/** Card number and expiry, as AuthRequest and RegisterCard take them. */
export const CardFields: TProperties = {
  cardnumber: Type.String({ maxLength: 64, description: 'Card number: non-digits are stripped, 12 to 22 digits must remain.' }),
  expmonth: Type.Integer({ minimum: 1, maximum: 12 }),
  expyear: Type.Integer({ minimum: 2000, maximum: 2100 }),
};

export const ContactDetails = Type.Object(
  {
    ...optional(Object.fromEntries(['address1', 'address2', 'address3', 'area', 'company'].map((k) => [k, Type.String({ maxLength: 50 })]))),
    country: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166 code.' })),
    email: Type.Optional(Type.String({ maxLength: 254 })),
    ...optional(Object.fromEntries(['firstname', 'lastname', 'title'].map((k) => [k, Type.String()]))),
    ...optional(Object.fromEntries(['mobile_no', 'telephone_no'].map((k) => [k, Type.String({ maxLength: 20 })]))),
    postcode: Type.Optional(Type.String({ maxLength: 16 })),
  },
  { title: 'ContactDetails', description: 'All optional; for address checks bill_to should be the address registered with the card issuer.' },
);

const BROWSER_FIELDS = ['accept_headers', 'user_agent', 'cp_bx', 'browserColorDepth', 'browserIP', 'browserJavaEnabled', 'browserLanguage', 'browserScreenHeight', 'browserScreenWidth', 'browserTZ'];

export const ThreeDSecure = Type.Object(
  {
    merchant_termurl: Type.Optional(Type.String({ pattern: '^https?://\\S{1,2040}$', description: 'Where the ACS returns the browser with cres.' })),
    tds_policy: Type.Optional(oneOfStrings(['0', '1', '2'], '3-D Secure policy: 0 account default, 1 enforced, 2 bypass.')),
    ...optional(Object.fromEntries(BROWSER_FIELDS.map((k) => [k, Type.String({ maxLength: 4096 })]))),
    downgrade1: Type.Optional(Type.Boolean()),
  },
  { title: 'ThreeDSecure' },
);

/** What AuthRequest and ChargeRequest share, required fields first. */
export const CommonRequired: TProperties = { amount: Amount, identifier: Identifier, merchantid: MerchantId };
export const CommonOptional: TProperties = {
  csc: Type.String({ pattern: '^\\d{3,4}$', description: 'Card security code, 3 or 4 digits, as a string (it may start with 0).' }),
  currency: Currency,
  avs_postcode_policy: Policy,
  csc_policy: Policy,
  duplicate_policy: Policy,
  match_avsa: Policy,
  trans_info: TransInfo,
  trans_type: Type.String({ maxLength: 1, description: 'Set only when the account manager asks.' }),
  pre_auth: Type.Boolean({ description: 'Authorise only; capture later.' }),
  tag: Type.Array(Type.String({ pattern: '^[A-Za-z0-9]{1,20}$' }), { maxItems: 3 }),
  threedsecure: ThreeDSecure,
  event_management: Extension('EventDataModel (event management extension).'),
  airline_data: Extension('AirlineAdvice (airline extension).'),
  mcc6012: Extension('MCC6012, for merchants coded 6012.'),
  external_mpi: Extension('ExternalMPI, when an external 3DS v1 directory is used.'),
};

export const ChargeFields: TProperties = {
  initiation: oneOfStrings(['M', 'C'], 'M merchant initiated (needs cardholder_agreement), C cardholder initiated.'),
  cardholder_agreement: oneOfStrings(AGREEMENTS, 'I instalment, R recurring, A reauthorisation, C unscheduled, D delayed charge, L incremental, S resubmission, X no-show.'),
};

export const CardToken = Type.String({ maxLength: 200, pattern: '^ct[1-9A-HJ-NP-Za-km-z]+$', description: 'Base58 card token starting with ct, from retrieving a card-holder account; lives 30 minutes.' });

/** `identifier` or `transno`: one of them is required (a capture or void acts on the transno when both are given). */
export const TxRefFields: TProperties = { identifier: Identifier, transno: TransNo };
export const TX_REF_NOTE = 'The transaction is named by transno or identifier: one of them is required.';

/** Report paging: maxResults, nextToken and orderBy. */
export function paging(orderable: readonly string[]): TProperties {
  return {
    maxResults: Type.Integer({ minimum: MIN_RESULTS, maximum: MAX_RESULTS, default: 25 }),
    nextToken: Type.String({ maxLength: 500, description: 'Empty for the start; else the nextToken of the previous page of the same query.' }),
    orderBy: Type.String({ maxLength: 200, description: `Comma-separated ${orderable.join(', ')}; prefix - or suffix " DESC" for descending.` }),
  };
}

export const AccountIdParams = Type.Object({
  accountid: Type.String({ pattern: '^[A-Za-z0-9\\-_.~]{5,50}$', description: 'Card-holder account number given at account set-up.' }),
});

export const CardIdParams = Type.Object({ ...AccountIdParams.properties, cardId: Type.String({ description: 'Card id shown when the account is retrieved.' }) });

export const PaylinkTokenParams = Type.Object({ token: Type.String({ description: 'The token returned by Paylink create.' }) });

/** A `cres` body: the value the ACS returned through the browser. */
export const CresFields = (max?: number): Record<string, TSchema> => ({
  cres: Type.String({ minLength: 1, ...(max ? { maxLength: max } : {}), description: 'The cres value the ACS returned through the card holder\'s browser.' }),
});
