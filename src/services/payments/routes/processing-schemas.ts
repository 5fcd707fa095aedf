// Documented request bodies of the /v6 processing operations (routes/processing.ts checks them itself).
import { Type } from '@sinclair/typebox';
import { documented } from '../../../core/http/documented.ts';
import { Amount, CardFields, CardToken, ChargeFields, CommonOptional, CommonRequired, ContactDetails, CresFields, Identifier, MerchantId, model, NameOnCard, TransInfo, TX_REF_NOTE, TxRefFields } from './shapes.ts';

export const AuthRequest = model('AuthRequest', { ...CommonRequired, ...CardFields }, { ...CommonOptional, bill_to: ContactDetails, ship_to: ContactDetails, name_on_card: NameOnCard }, 'Authorisation of a card payment.');

export const ChargeRequest = model('ChargeRequest', { ...CommonRequired, token: CardToken }, { ...CommonOptional, ...ChargeFields }, 'A charge of a stored card by its token.');

const Extensions = { event_management: CommonOptional.event_management!, airline_data: CommonOptional.airline_data! };

export const CaptureRequest = model('CaptureRequest', { merchantid: MerchantId }, { amount: { ...Amount, description: 'Final amount; the original amount when absent.' }, ...TxRefFields, ...Extensions }, `Capture of a pre-authorised transaction. ${TX_REF_NOTE}`);

export const VoidRequest = model('VoidRequest', { merchantid: MerchantId }, TxRefFields, `Cancellation of a transaction before settlement. ${TX_REF_NOTE}`);

export const RetrieveRequest = model('RetrieveRequest', { merchantid: MerchantId }, TxRefFields, `The transactions matching a reference. ${TX_REF_NOTE} Given both, only transactions matching both are listed.`);

export const RefundRequest = model(
  'RefundRequest',
  {
    amount: Amount,
    identifier: { ...Identifier, description: 'A new identifier for the refund.' },
    merchantid: MerchantId,
    refund_ref: Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Transaction number of the payment refunded.' }),
  },
  { trans_info: TransInfo },
  'Refund of a settled payment.',
);

export const CResAuthRequest = model('CResAuthRequest', CresFields(4096), {}, 'Completes a challenged 3-D Secure authorisation.');

export const PROCESSING_SCHEMAS = {
  authorise: documented({ body: AuthRequest }),
  charge: documented({ body: ChargeRequest }),
  cres: documented({ body: CResAuthRequest }),
  capture: documented({ body: CaptureRequest }),
  void: documented({ body: VoidRequest }),
  refund: documented({ body: RefundRequest }),
  retrieve: documented({ body: RetrieveRequest }),
};
