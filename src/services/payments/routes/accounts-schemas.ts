// Documented requests of the card-holder account operations (routes/accounts.ts checks them itself).
import { Type } from '@sinclair/typebox';
import { documented } from '../../../core/http/documented.ts';
import { AccountIdParams, CardFields, CardIdParams, ContactDetails, model, NameOnCard } from './shapes.ts';

const AccountCreate = model(
  'AccountCreate',
  { account_id: AccountIdParams.properties.accountid },
  { contact: ContactDetails },
  'Creates a card-holder account.',
);

const AccountStatus = model(
  'AccountStatus',
  {},
  { status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('DISABLED')], { description: 'Any other value leaves the account unchanged and answers code 000.' }) },
);

const RegisterCard = model(
  'RegisterCard',
  CardFields,
  { default: Type.Boolean({ description: 'Make it the default card.' }), name_on_card: { ...NameOnCard, description: 'Required if the account is used for 3-D Secure v2.' } },
  'Registers a card (Luhn-valid, unexpired, known BIN) with the account.',
);

const CardStatus = model(
  'CardStatus',
  {},
  {
    card_status: Type.Union([Type.Literal('ACTIVE'), Type.Literal('INACTIVE')], { description: 'Any other value is not a valid change (code 000).' }),
    default: Type.Boolean({ description: 'Set the card as the default.' }),
  },
);

export const ACCOUNT_SCHEMAS = {
  create: documented({ body: AccountCreate }),
  byId: documented({ params: AccountIdParams }),
  contact: documented({ params: AccountIdParams, body: model('ContactDetails', {}, ContactDetails.properties, 'New contact details of the account.') }),
  status: documented({ params: AccountIdParams, body: AccountStatus }),
  register: documented({ params: AccountIdParams, body: RegisterCard }),
  cardStatus: documented({ params: CardIdParams, body: CardStatus }),
  card: documented({ params: CardIdParams }),
};
