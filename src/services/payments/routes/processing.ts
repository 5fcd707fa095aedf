// /v6 processing operations: authorise, charge, cres, capture, void, refund, retrieve.
import type { FastifyInstance } from 'fastify';
import { payError } from '../contract.ts';
import { Fields } from '../domain/fields.ts';
import { IDENTIFIER, parseAmount, parseAuthRequest, parseChargeRequest, parseMerchantId } from '../domain/requests.ts';
import type { Gateway } from '../gateway.ts';
import { ack, bodyOf, send, sendDecision } from '../http.ts';
import { authReference, type TxFilter, type TxRef } from '../processing.ts';
import { PROCESSING_SCHEMAS } from './processing-schemas.ts';

/** `identifier` and `transno` as given (each checked), at least one of them. */
function txFilter(f: Fields): TxFilter {
  const transno = f.int('transno', { invalid: 'P014', min: 0, max: 2_147_483_647 });
  const identifier = f.str('identifier', IDENTIFIER);
  if (transno === undefined && identifier === undefined) throw payError(400, 'P013', 'Field not provided: transno or identifier');
  return transno === undefined ? { identifier } : identifier === undefined ? { transno } : { transno, identifier };
}

/** The one transaction a capture or void names: by transno when given, else by identifier. */
function txRef(f: Fields): TxRef {
  const filter = txFilter(f);
  return filter.transno !== undefined ? { transno: filter.transno } : { identifier: filter.identifier! };
}

export function processingRoutes(app: FastifyInstance, g: Gateway): void {
  // Authorisations and charges mark the key's nonce used in their own transaction: one commit per request.
  app.post('/v6/authorise', PROCESSING_SCHEMAS.authorise, async (req, reply) => {
    const { caller, nonce } = await g.access.verify(req);
    const decision = await g.access.withNonce(nonce, async () => {
      const input = parseAuthRequest(bodyOf(req, 'AuthRequest'));
      const merchant = await g.access.merchantFor(caller, input.merchantid);
      return g.processor.authorise(merchant, input, { source: 'api', requestId: req.id, claimNonce: (trx) => g.access.claim(nonce, trx) });
    });
    return sendDecision(req, reply, decision);
  });

  app.post('/v6/charge', PROCESSING_SCHEMAS.charge, async (req, reply) => {
    const { caller, nonce } = await g.access.verify(req);
    const decision = await g.access.withNonce(nonce, async () => {
      const charge = parseChargeRequest(bodyOf(req, 'ChargeRequest'));
      const merchant = await g.access.merchantFor(caller, charge.merchantid);
      const input = await g.accounts.chargeInput(merchant, charge);
      const skipThreeDs = charge.initiation === 'M';
      // 3-D Secure v2 needs the cardholder's name, which a stored card only has if it was registered with one.
      if (!skipThreeDs && merchant.threeDSecure && input.threedsecure && input.threedsecure.tds_policy !== '2' && !input.name_on_card) {
        throw payError(422, 'C028', 'Cardholder name is mandatory for 3-D Secure: register the card with name_on_card', charge.identifier);
      }
      return g.processor.authorise(merchant, input, { source: 'api', requestId: req.id, skipThreeDs, claimNonce: (trx) => g.access.claim(nonce, trx) });
    });
    return sendDecision(req, reply, decision);
  });

  app.post('/v6/cres', PROCESSING_SCHEMAS.cres, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const f = new Fields(bodyOf(req, 'CResAuthRequest'));
    const cres = f.str('cres', { required: true, max: 4096 });
    const tx = await g.processor.transactionOfCres(cres);
    const merchant = await g.access.merchantFor(caller, tx.merchantid);
    return send(req, reply, 'AuthResponse', await g.processor.completeChallenge(merchant, cres, req.id));
  });

  app.post('/v6/capture', PROCESSING_SCHEMAS.capture, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const f = new Fields(bodyOf(req, 'CaptureRequest'));
    const merchantid = parseMerchantId(f);
    const amount = parseAmount(f, false);
    const ref = txRef(f);
    f.obj('airline_data');
    f.obj('event_management');
    const merchant = await g.access.merchantFor(caller, merchantid);
    const tx = await g.processor.capture(merchant, ref, amount);
    return send(req, reply, 'Acknowledgement', ack(req, '001', 'Transaction completed', tx.identifier));
  });

  app.post('/v6/void', PROCESSING_SCHEMAS.void, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const f = new Fields(bodyOf(req, 'VoidRequest'));
    const merchantid = parseMerchantId(f);
    const ref = txRef(f);
    const merchant = await g.access.merchantFor(caller, merchantid);
    const tx = await g.processor.void(merchant, ref);
    return send(req, reply, 'Acknowledgement', ack(req, '001', 'Transaction cancelled', tx.identifier));
  });

  app.post('/v6/refund', PROCESSING_SCHEMAS.refund, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const f = new Fields(bodyOf(req, 'RefundRequest'));
    const input = {
      amount: parseAmount(f, true)!,
      identifier: f.str('identifier', { ...IDENTIFIER, required: true })!,
      merchantid: parseMerchantId(f),
      refund_ref: f.int('refund_ref', { required: true, invalid: 'R007', min: 0, max: 2_147_483_647 })!,
      trans_info: f.str('trans_info', { max: 50 }),
    };
    const merchant = await g.access.merchantFor(caller, input.merchantid);
    return send(req, reply, 'AuthResponse', await g.processor.refund(merchant, input, req.id));
  });

  app.post('/v6/retrieve', PROCESSING_SCHEMAS.retrieve, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const f = new Fields(bodyOf(req, 'RetrieveRequest'));
    const merchantid = parseMerchantId(f);
    // Both given narrow the search: only transactions matching both are listed.
    const filter = txFilter(f);
    const merchant = await g.access.merchantFor(caller, merchantid);
    const found = await g.processor.retrieve(merchant, filter);
    return send(req, reply, 'AuthReferences', { auths: found.map(authReference) });
  });
}
