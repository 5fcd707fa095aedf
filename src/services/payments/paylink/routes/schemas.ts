// Documented requests of the Paylink merchant API and hosted pages (request.ts, tokens.ts and the routes check them
// themselves, with the API's result codes).
import { Type, type TSchema } from '@sinclair/typebox';
import { documented } from '../../../../core/http/documented.ts';
import { Amount, Currency, Identifier, model, paging, PaylinkTokenParams } from '../../routes/shapes.ts';
import { MAX_ADDRESSES, MAX_PATHS } from '../domain/notification-rules.ts';
import { CONFIG_OPTIONS, CUSTOM_TYPES } from '../request.ts';

const text = (max: number, description?: string) => Type.String({ maxLength: max, ...(description ? { description } : {}) });
const Url = (description: string) => Type.String({ maxLength: 2048, description: `Absolute http or https URL. ${description}` });
const Email = Type.String({ maxLength: 254, description: 'An e-mail address.' });
/** One object or a list of them (both are accepted). */
const oneOrMany = (item: TSchema, maxItems: number, description: string) => Type.Union([item, Type.Array(item, { maxItems })], { description });

const FieldGuard = Type.Object({
  name: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,50}$', description: 'Field the payer must enter to reach the payment form.' }),
  label: Type.Optional(text(100)),
  field_type: Type.Optional(text(20)),
  value: Type.Optional(text(200, 'The source value; D041 when no value is found for a guarded field.')),
});

const CustomParam = Type.Object({
  name: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,50}$' }),
  field_type: Type.Optional(Type.Union(CUSTOM_TYPES.map((v) => Type.Literal(v)))),
  value: Type.Optional(text(200, 'For a select: its options, a|b or v:label|w:label.')),
  label: Type.Optional(text(100)),
  placeholder: Type.Optional(text(100)),
  locked: Type.Optional(Type.Boolean()),
  required: Type.Optional(Type.Boolean()),
  order: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  pattern: Type.Optional(text(200, 'A regular expression the value must match.')),
});


const PaylinkConfig = Type.Object(
  {
    expire_in: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.String()], { description: 'Seconds, or a duration such as 20m, 4h, 2w, 6M or 1y.' })),
    field_guard: Type.Optional(oneOrMany(FieldGuard, 5, 'At most 5 guards, names unique.')),
    custom_params: Type.Optional(oneOrMany(CustomParam, 20, 'At most 20 parameters, names unique.')),
    pass_through_data: Type.Optional(Type.Unknown({ description: 'Any JSON, at most 4 kB, given back in the postback.' })),
    pass_through_headers: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$' }), Type.String({ description: 'A single line.' }))),
    postback: Type.Optional(Url('Receives the final result; none for no postback.')),
    postback_policy: Type.Optional(Type.Union(['none', 'sync', 'async'].map((v) => Type.Literal(v)))),
    redirect_success: Type.Optional(Url('The payer is sent here when authorised; a GET: prefix redirects instead of posting.')),
    redirect_failure: Type.Optional(Url('The payer is sent here when not authorised; a GET: prefix redirects instead of posting.')),
    return_params: Type.Optional(Type.Boolean({ description: 'Send the result fields to the redirect address.' })),
    descriptor: Type.Optional(text(100)),
    options: Type.Optional(Type.Array(Type.Union(CONFIG_OPTIONS.map((v) => Type.Literal(v))))),
  },
  { title: 'PaylinkConfig', description: 'At most 64 kB of JSON.' },
);

const Cardholder = Type.Object(
  {
    ...Object.fromEntries(['firstname', 'lastname', 'title', 'company', 'accept_headers', 'remote_addr', 'user_agent'].map((k) => [k, Type.Optional(text(255))])),
    mobile_no: Type.Optional(text(20)),
    email: Type.Optional(Email),
    address: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 50, description: 'postcode at most 16, country 2.' }))),
  },
  { title: 'PaylinkCardHolder', description: 'At most 8 kB of JSON; remote_addr and user_agent lock the token to that browser.' },
);

const TokenRequestRequired = {
  amount: Amount,
  identifier: { ...Identifier, description: 'Length 4 to 50, printable ASCII; should be unique.' },
  merchantid: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
};

const TokenRequestOptional = {
  accountno: Type.String({ pattern: '^[A-Za-z0-9]{1,20}$', description: 'Used when creating a card-holder account.' }),
  cardholder: Cardholder,
  cart: Type.Object({}, { additionalProperties: true, title: 'PaylinkCart', description: 'At most 16 kB of JSON.' }),
  client_version: text(50, 'Version of the calling application, for tracing.'),
  config: PaylinkConfig,
  currency: Currency,
  email: { ...Email, description: 'Merchant notification on completion; overrides the stored value.' },
  recurring: Type.Boolean({ description: 'True when a cardholder initiated payment sets up a recurring model.' }),
  subscription_id: text(50, 'Links the token to a subscription.'),
  tx_type: text(1, 'Override of transaction type if the account manager asks.'),
};

const PaylinkTokenRequestModel = model('PaylinkTokenRequestModel', TokenRequestRequired, TokenRequestOptional, 'Creates a payment-request token.');

const EmailList = (description: string) => Type.Array(Email, { maxItems: MAX_ADDRESSES, description });
const EmailNotificationPath = Type.Object({
  template: Type.Optional(Type.String({ description: 'Reserved.' })),
  to: EmailList('1 to 5 addresses.'),
  cc: Type.Optional(EmailList('At most 5 addresses.')),
  bcc: Type.Optional(EmailList('At most 5 addresses.')),
  reply_to: Type.Optional(EmailList('At most 5 addresses (also accepted as reply).')),
});
const SmsNotificationPath = Type.Object({
  template: Type.Optional(Type.String({ description: 'Reserved.' })),
  to: Type.String({ pattern: '^\\+[1-9]\\d{6,14}$', description: 'E.164 phone number; needs a config.field_guard on the token.' }),
});
const Attachment = Type.Object({
  filename: Type.String({ minLength: 1, maxLength: 255, description: 'A file name without a path.' }),
  'mime-type': Type.Literal('application/pdf', { description: 'Also accepted as mime_type.' }),
  data: Type.Optional(Type.String({ description: 'Base64 PDF of at most 32 kB; leave out to get an upload address instead.' })),
});

const PaylinkBillPaymentTokenRequest = model(
  'PaylinkBillPaymentTokenRequest',
  { request: model('PaylinkTokenRequestModel', TokenRequestRequired, TokenRequestOptional) },
  {
    addressee: text(100),
    descriptor: text(100, 'For example what the payment is for.'),
    due: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date' }),
    memo: text(1000),
    email_notification_path: oneOrMany(EmailNotificationPath, MAX_PATHS, 'E-mail notification; at most 3 notification paths per request.'),
    sms_notification_path: oneOrMany(SmsNotificationPath, MAX_PATHS, 'SMS notification; at most 3 notification paths per request.'),
    attachments: oneOrMany(Attachment, 3, 'At most 3 PDF attachments.'),
  },
  'Creates a bill payment: a token with notifications and attachments.',
);

const PaylinkTokenStatusChangeRequest = model(
  'PaylinkTokenStatusChangeRequest',
  {
    after: Type.String({ format: 'date-time', description: 'Tokens changed after this instant (RFC 3339).' }),
    merchantid: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
  },
  { ...paging(['p.id']), nextToken: Type.String({ description: 'From the previous page of the same query.' }) },
  'Tokens changed since a moment, by p.id ascending unless orderBy says otherwise.',
);

const PaylinkAdjustmentRequest = model(
  'PaylinkAdjustmentRequest',
  { amount: Amount },
  { identifier: { ...Identifier, description: "The token's identifier." }, reason: text(255) },
  'Changes the amount of a token not yet paid.',
);

const PaylinkResendNotificationRequest = model(
  'PaylinkResendNotificationRequest',
  {},
  { email: Type.Boolean(), sms: Type.Boolean() },
  'Sends the notifications again: email, sms or both must be true.',
);

const HostedPageParams = PaylinkTokenParams;
const Cres = Type.Object({ cres: Type.Optional(Type.String()), threeDSSessionData: Type.Optional(Type.String()) });
const CardForm = Type.Object(
  {
    cardnumber: Type.Optional(Type.String()),
    expmonth: Type.Optional(Type.String({ description: 'Expiry month, 1 to 12.' })),
    expyear: Type.Optional(Type.String({ description: 'Expiry year.' })),
    csc: Type.Optional(Type.String({ pattern: '^\\d{3,4}$' })),
    name_on_card: Type.Optional(Type.String({ description: 'Card holder name, 2 to 45 characters once trimmed.' })),
    postcode: Type.Optional(Type.String({ maxLength: 16 })),
  },
  { additionalProperties: Type.String(), description: "The payment form's card fields, and custom_<name> for each custom parameter." },
);

export const PAYLINK_SCHEMAS = {
  create: documented({ body: PaylinkTokenRequestModel }),
  billPayment: documented({ body: PaylinkBillPaymentTokenRequest }),
  token: documented({ params: PaylinkTokenParams }),
  changes: documented({ body: PaylinkTokenStatusChangeRequest }),
  adjustment: documented({ params: PaylinkTokenParams, body: PaylinkAdjustmentRequest }),
  resend: documented({ params: PaylinkTokenParams, body: PaylinkResendNotificationRequest }),
  upload: documented({ params: Type.Object({ uploadId: Type.String({ description: 'From the url of an attachment result; the body is the PDF itself.' }) }) }),
  page: documented({ params: HostedPageParams }),
  shortLink: documented({ params: Type.Object({ usc: Type.String({ description: 'The short code an SMS carries.' }) }) }),
  guard: documented({ params: HostedPageParams, body: Type.Record(Type.String(), Type.String(), { description: 'A value for each field guard of the token.' }) }),
  pay: documented({ params: HostedPageParams, body: CardForm }),
  threeDs: documented({ params: HostedPageParams, body: Cres }),
};
