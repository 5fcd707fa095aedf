// Processing: authorisation (with duplicate detection, the sandbox acquirer and 3-D Secure), the 3DS completion,
// capture, void, refund and retrieve. Declines are answers, not errors; refusals are PaymentsErrors.
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { Database } from '../../core/db/index.ts';
import type { Vault } from '../../core/crypto.ts';
import { randomHex, uuid } from '../../core/ids.ts';
import {
  payError,
  type AuthInput,
  type AuthResponse,
  type CardAuthentication,
  type Decision,
  type Merchant,
  type PaymentSource,
  type PreparedPayment,
  type TokenisedChallenge,
} from './contract.ts';
import type { Clients } from './clients.ts';
import { binInfo, isExpired, luhnValid, maskPan } from './domain/card.ts';
import { responseDigest } from './domain/digest.ts';
import { decimalAmount } from './domain/money.ts';
import { effectivePolicies } from './domain/policies.ts';
import { acquire, AUTH_CODES, type AcquirerOutcome } from './domain/sandbox.ts';
import { challengeResult, threeDsFor } from './domain/three-d-secure.ts';
import { decodeMessage, encodeMessage, MESSAGE_VERSION, type CReq, type CRes } from './domain/three-d-secure-messages.ts';
import { captureRefusal, refundRefusal, resultWord, voidRefusal, type Refusal } from './domain/transaction-states.ts';
import { AuthenticationStore } from './store/authentications.ts';
import { MerchantStore } from './store/merchants.ts';
import { DuplicateGuard, TransactionStore, type PendingChallenge, type Tx, type TxChecks } from './store/transactions.ts';

const RETRIEVE_DAYS_MS = 90 * 24 * 3600_000;
const RETRIEVE_LIMIT = 5;

export interface ProcessorDeps {
  /** Groups an operation's writes into one unit of work (group commit: durable before the answer). */
  db: Database;
  merchants: MerchantStore;
  transactions: TransactionStore;
  duplicates: DuplicateGuard;
  clients: Clients;
  vault: Vault;
  clock: Clock;
  /** The service's public address, for the ACS link (known once the listener is up). */
  baseUrl: () => string;
}

export interface AuthOptions {
  source: PaymentSource;
  requestId: string;
  /** Marks the API key's nonce used inside the authorisation's transaction (one commit for both). */
  claimNonce?: (trx: Kysely<any>) => Promise<void>;
  /** Merchant-initiated charges skip 3-D Secure. */
  skipThreeDs?: boolean;
}

/** Which transaction a capture or void names. */
export type TxRef = { identifier: string; transno?: undefined } | { transno: number; identifier?: undefined };

/** What a retrieve matches: an identifier, a transno, or both. */
export type TxFilter = { identifier?: string; transno?: number };

const refuse = (r: Refusal, identifier?: string) => payError(422, r.code, r.message, identifier);

export class Processor {
  readonly #d: ProcessorDeps;
  constructor(deps: ProcessorDeps) {
    this.#d = deps;
  }

  async authorise(merchant: Merchant, input: AuthInput, options: AuthOptions): Promise<Decision> {
    const now = this.#d.clock.now();
    const { bin, currency } = this.#checkCard(merchant, input, now);
    const policies = effectivePolicies(merchant, input);
    const preAuth = input.pre_auth === true || input.trans_type === 'P';
    const dupKey = this.#duplicateKey(merchant, input, policies.duplicate);

    // Decide first (pure), then write everything in one transaction: the duplicate slot, the transno, the row.
    const base: Tx = { ...newTx(merchant, input, currency, 0, now), id: uuid(), source: options.source, trans_type: preAuth ? 'P' : 'S' };
    const acquirerInput = { amount: input.amount, csc: input.csc, cscLength: bin.cscLength, policies, postcode: input.bill_to?.postcode, address1: input.bill_to?.address1, preAuth };
    const tds = input.threedsecure;
    const threeDsApplies = merchant.threeDSecure && tds !== undefined && tds.tds_policy !== '2' && !options.skipThreeDs;
    let decided: Tx;
    if (!threeDsApplies) {
      decided = withOutcome(base, acquire(acquirerInput), {});
    } else {
      const tdsOutcome = threeDsFor(input.csc, bin.scheme_id);
      if (tdsOutcome.kind === 'error') {
        decided = { ...base, result: 2, result_code: 'D047', result_message: tdsOutcome.message, trans_status: 'R', checks: { ...base.checks, authen_result: 'U' } };
      } else if (tdsOutcome.kind === 'frictionless') {
        const auth = { authen_result: tdsOutcome.authen_result, eci: tdsOutcome.eci, cavv: tdsOutcome.proceed ? randomHex(14) : '' };
        decided = tdsOutcome.proceed
          ? withOutcome(base, acquire(acquirerInput), auth)
          : { ...base, result: 0, result_code: '098', result_message: tdsOutcome.message, trans_status: 'D', checks: { ...base.checks, ...auth } };
      } else {
        // A challenge: the acquirer outcome is decided now (the CSC is not kept), the ACS result comes later.
        const pending: PendingChallenge = { termurl: tds?.merchant_termurl, acsTransId: uuid(), outcome: acquire(acquirerInput), dupKey };
        decided = { ...base, trans_status: 'H', result: 21, result_code: '050', result_message: 'Waiting authorisation: 3-D Secure challenge required', threeds_id: uuid(), threeds: pending };
      }
    }
    return this.#commit(merchant, input, currency, decided, dupKey, now, options);
  }

  /**
   * Checks a card and decides, from its CSC, what the acquirer and 3-D Secure will say, without authorising: the
   * tokenisation flow authorises later, when the CSC is gone. 3-D Secure refusals are thrown (D047, 098).
   */
  prepare(merchant: Merchant, input: AuthInput): { payment: PreparedPayment; challenge: boolean } {
    const now = this.#d.clock.now();
    if (input.merchantid !== merchant.merchantid) throw payError(403, 'S002', 'The merchant id does not match the request');
    const { bin, currency } = this.#checkCard(merchant, input, now);
    const policies = effectivePolicies(merchant, input);
    const preAuth = input.pre_auth === true || input.trans_type === 'P';
    const outcome = acquire({ amount: input.amount, csc: input.csc, cscLength: bin.cscLength, policies, postcode: input.bill_to?.postcode, address1: input.bill_to?.address1, preAuth });
    const { csc: _csc, threedsecure: tds, ...kept } = input;
    const card = { maskedpan: maskPan(input.cardnumber), scheme: bin.scheme, bin_commercial: bin.bin_commercial, bin_debit: bin.bin_debit, bin_description: bin.bin_description };
    const payment: PreparedPayment = { input: kept, currency, card, outcome };
    if (!merchant.threeDSecure || tds === undefined || tds.tds_policy === '2') return { payment, challenge: false };
    const tdsOutcome = threeDsFor(input.csc, bin.scheme_id);
    if (tdsOutcome.kind === 'error') throw payError(422, 'D047', tdsOutcome.message, input.identifier);
    if (tdsOutcome.kind === 'challenge') return { payment, challenge: true };
    if (!tdsOutcome.proceed) throw payError(422, '098', tdsOutcome.message, input.identifier);
    return { payment: { ...payment, authentication: { authen_result: tdsOutcome.authen_result, eci: tdsOutcome.eci, cavv: randomHex(14) } }, challenge: false };
  }

  /** Authorises a prepared payment (the tokenisation flow's second step): duplicate check, transno, storage. */
  async authorisePrepared(merchant: Merchant, payment: PreparedPayment, options: AuthOptions): Promise<AuthResponse> {
    const now = this.#d.clock.now();
    const input = { ...payment.input, merchantid: merchant.merchantid } as AuthInput;
    if (isExpired(input.expmonth, input.expyear, now)) throw payError(422, 'C006', 'Card has expired', input.identifier);
    const policies = effectivePolicies(merchant, input);
    const preAuth = input.pre_auth === true || input.trans_type === 'P';
    const base: Tx = { ...newTx(merchant, input, payment.currency, 0, now), id: uuid(), source: options.source, trans_type: preAuth ? 'P' : 'S' };
    const decided = withOutcome(base, payment.outcome, payment.authentication ?? {});
    const decision = await this.#commit(merchant, input, payment.currency, decided, this.#duplicateKey(merchant, input, policies.duplicate), now, options);
    return (decision as { AuthResponse: AuthResponse }).AuthResponse;
  }

  /** Luhn, BIN, expiry, the scheme's CSC length and the merchant's currency; refusals are thrown. */
  #checkCard(merchant: Merchant, input: AuthInput, now: number): { bin: NonNullable<ReturnType<typeof binInfo>>; currency: string } {
    if (input.merchantid !== merchant.merchantid) throw payError(403, 'S002', 'The merchant id does not match the request');
    const bin = binInfo(input.cardnumber);
    if (!luhnValid(input.cardnumber)) throw payError(422, 'C002', 'Card number failed the Luhn check', input.identifier);
    if (!bin) throw payError(422, 'C022', 'Card BIN not found', input.identifier);
    if (isExpired(input.expmonth, input.expyear, now)) throw payError(422, 'C006', 'Card has expired', input.identifier);
    if (input.csc !== undefined && input.csc.length !== bin.cscLength) {
      throw payError(422, 'C026', `The CSC of a ${bin.scheme} card has ${bin.cscLength} digits`, input.identifier);
    }
    const currency = input.currency ?? merchant.currency;
    if (currency !== merchant.currency) throw payError(422, 'D016', `Currency ${currency} is not set up for merchant ${merchant.merchantid}`, input.identifier);
    return { bin, currency };
  }

  /** Duplicate detection: the identifier and card inside the merchant's window; the CSC is never part of it. */
  #duplicateKey(merchant: Merchant, input: AuthInput, duplicatePolicy: string): string | undefined {
    if (duplicatePolicy !== '1') return undefined;
    return this.#d.vault.lookupHash(`payments-dup:${merchant.merchantid}:${input.identifier}:${input.cardnumber}:${input.expmonth}/${input.expyear}`);
  }

  /** Writes a decided authorisation in one unit: the caller's claim, the duplicate slot, the transno, the row. */
  async #commit(merchant: Merchant, input: AuthInput, currency: string, decided: Tx, dupKey: string | undefined, now: number, options: AuthOptions): Promise<Decision> {
    const d = this.#d;
    const licenceKey = (await d.clients.licenceKeyOf(merchant.clientid)) ?? '';
    // Approvals and open challenges hold the duplicate slot; a declined attempt only checks it, so it may be retried.
    const holdsSlot = decided.result === 1 || decided.trans_status === 'H';
    return d.db.write(async (trx): Promise<Decision> => {
      await options.claimNonce?.(trx);
      const duplicates = d.duplicates.within(trx);
      if (dupKey) {
        const expiresAt = now + merchant.duplicateWindowSeconds * 1000;
        const free = holdsSlot ? await duplicates.claim(merchant.merchantid, dupKey, expiresAt, now) : !(await duplicates.held(merchant.merchantid, dupKey, now));
        if (!free) return { AuthResponse: rejection(merchant, input, currency, 'T001', 'Duplicate transaction', now, licenceKey, options.requestId) };
      }
      const tx: Tx = { ...decided, transno: await this.#d.merchants.nextTransno(merchant.merchantid, trx) };
      await d.transactions.insert(tx, trx);
      if (tx.trans_status !== 'H') return { AuthResponse: authResponse(tx, licenceKey, options.requestId) };
      const creq: CReq = { threeDSServerTransID: tx.threeds_id!, acsTransID: tx.threeds!.acsTransId, messageType: 'CReq', messageVersion: MESSAGE_VERSION, challengeWindowSize: '05' };
      return {
        RequestChallenged: { acs_url: `${d.baseUrl()}/3dsv2/acs`, creq: encodeMessage(creq), merchantid: merchant.merchantid, threedserver_trans_id: tx.threeds_id!, transno: tx.transno },
      };
    });
  }

  /**
   * Starts a challenge that belongs to no transaction (inside the caller's unit `trx`): the ACS shows it like any
   * other and hands the browser to `termurl` with the cres.
   */
  async startAuthentication(trx: Kysely<any>, merchant: Merchant, a: { id: string; amount: number; currency: string; maskedpan: string; termurl: string }): Promise<TokenisedChallenge> {
    const acsTransId = uuid();
    await new AuthenticationStore(trx).insert({ ...a, acsTransId, merchantid: merchant.merchantid, acsResult: null, completedAt: null }, this.#d.clock.now());
    const creq: CReq = { threeDSServerTransID: a.id, acsTransID: acsTransId, messageType: 'CReq', messageVersion: MESSAGE_VERSION, challengeWindowSize: '05' };
    return { acs_url: `${this.#d.baseUrl()}/3dsv2/acs`, creq: encodeMessage(creq), threedserver_trans_id: a.id };
  }

  /**
   * Completes an authentication from the cres the ACS handed back (inside the caller's unit `trx`); once only.
   * `expectedId` is the authentication the caller is completing: a cres of another one is refused.
   */
  async completeAuthentication(trx: Kysely<any>, merchant: Merchant, cresText: unknown, expectedId: string): Promise<CardAuthentication & { proceed: boolean }> {
    const cres = decodeMessage<CRes>(cresText, 'CRes');
    const store = new AuthenticationStore(trx);
    const a = cres && cres.threeDSServerTransID === expectedId ? await store.byId(cres.threeDSServerTransID) : undefined;
    if (!cres || !a || a.acsTransId !== cres.acsTransID) throw payError(422, 'P030', 'Authorisation invalid: the cres is not recognised');
    if (a.merchantid !== merchant.merchantid) throw payError(403, 'S002', 'No permission for this authentication');
    if (!a.acsResult) throw payError(422, '050', 'Waiting authorisation: the challenge has not been completed at the ACS');
    if (!(await store.complete(a.id, this.#d.clock.now()))) throw payError(422, 'P030', 'Authorisation invalid: the challenge has already been completed');
    // The masked number keeps the BIN, which names the scheme (and so the ECI).
    const result = challengeResult(a.acsResult, binInfo(a.maskedpan.slice(0, 6))?.scheme_id ?? '');
    return { authen_result: result.authen_result, eci: result.eci, cavv: result.proceed ? randomHex(14) : '', proceed: result.proceed };
  }

  /** The simulated ACS delivers the challenge result (RReq) and gets the cres for the browser; undefined if unknown. */
  async acsResult(creqText: unknown, transStatus: string): Promise<{ cres: string; termurl?: string } | undefined> {
    const creq = decodeMessage<CReq>(creqText, 'CReq');
    if (!creq) return undefined;
    const status = ['Y', 'N', 'A', 'U', 'R'].includes(transStatus) ? transStatus : 'N';
    const cresFor = (delivered: string) =>
      encodeMessage({ threeDSServerTransID: creq.threeDSServerTransID, acsTransID: creq.acsTransID, messageType: 'CRes', messageVersion: MESSAGE_VERSION, transStatus: delivered });
    const tx = await this.#d.transactions.byThreeDs(creq.threeDSServerTransID);
    if (tx) {
      if (!tx.threeds || tx.threeds.acsTransId !== creq.acsTransID) return undefined;
      if (tx.trans_status === 'H' && !tx.threeds.acsResult) {
        await this.#d.transactions.recordAcsResult(tx.id, { ...tx.threeds, acsResult: status }, this.#d.clock.now());
      }
      const fresh = (await this.#d.transactions.byThreeDs(creq.threeDSServerTransID))!;
      return { cres: cresFor(fresh.threeds?.acsResult ?? status), termurl: tx.threeds.termurl };
    }
    const a = await new AuthenticationStore(this.#d.db.kysely).byId(creq.threeDSServerTransID);
    if (!a || a.acsTransId !== creq.acsTransID) return undefined;
    if (!a.acsResult && a.completedAt === null) await this.#d.db.write((trx) => new AuthenticationStore(trx).recordAcsResult(a.id, status));
    const fresh = (await new AuthenticationStore(this.#d.db.kysely).byId(a.id))!;
    return { cres: cresFor(fresh.acsResult ?? status), termurl: a.termurl ?? undefined };
  }

  /** What the ACS page shows of an open challenge (a transaction's or an authentication's); undefined if none. */
  async challengeFor(creqText: unknown): Promise<{ view: { merchantid: number; amount: number; currency: string; maskedpan: string }; creq: CReq } | undefined> {
    const creq = decodeMessage<CReq>(creqText, 'CReq');
    if (!creq) return undefined;
    const tx = await this.#d.transactions.byThreeDs(creq.threeDSServerTransID);
    if (tx) return tx.trans_status === 'H' && tx.threeds?.acsTransId === creq.acsTransID ? { view: tx, creq } : undefined;
    const a = await new AuthenticationStore(this.#d.db.kysely).byId(creq.threeDSServerTransID);
    return a && a.acsTransId === creq.acsTransID && a.completedAt === null ? { view: a, creq } : undefined;
  }

  /** The transaction a cres is about (for the caller to check ownership), or a P030 refusal. */
  async transactionOfCres(cresText: unknown): Promise<Tx> {
    const cres = decodeMessage<CRes>(cresText, 'CRes');
    const tx = cres ? await this.#d.transactions.byThreeDs(cres.threeDSServerTransID) : undefined;
    if (!cres || !tx || tx.threeds?.acsTransId !== cres.acsTransID) throw payError(422, 'P030', 'Authorisation invalid: the cres is not recognised');
    return tx;
  }

  /** Completes a challenged authorisation: the full authorisation runs with the ACS's result. */
  async completeChallenge(merchant: Merchant, cresText: unknown, requestId: string): Promise<AuthResponse> {
    const d = this.#d;
    const tx = await this.transactionOfCres(cresText);
    if (tx.merchantid !== merchant.merchantid) throw payError(403, 'S002', 'No permission for this transaction');
    if (tx.trans_status !== 'H') throw payError(422, 'P030', 'Authorisation invalid: the challenge has already been completed', tx.identifier);
    const acs = tx.threeds!.acsResult;
    if (!acs) throw payError(422, '050', 'Waiting authorisation: the challenge has not been completed at the ACS', tx.identifier);
    const auth = challengeResult(acs, tx.card.scheme_id);
    const checks: TxChecks = { ...tx.checks, authen_result: auth.authen_result, eci: auth.eci, cavv: auth.proceed ? randomHex(14) : '' };
    const outcome: AcquirerOutcome = auth.proceed
      ? tx.threeds!.outcome
      : { authorised: false, result: 17, result_code: '098', result_message: 'Authentication failure', authcode: '', avs_result: tx.threeds!.outcome.avs_result, csc_result: tx.threeds!.outcome.csc_result, trans_status: 'D' };
    const done = withOutcome(tx, outcome, checks);
    const now = d.clock.now();
    const won = await d.transactions.transition(
      tx.id,
      ['H'],
      { trans_status: done.trans_status, authcode: done.authcode, result: done.result, result_code: done.result_code, result_message: done.result_message, checks: done.checks },
      now,
    );
    if (!won) throw payError(422, 'P030', 'Authorisation invalid: the challenge has already been completed', tx.identifier);
    if (!outcome.authorised) await this.#releaseDuplicate(tx);
    const licenceKey = (await d.clients.licenceKeyOf(merchant.clientid)) ?? '';
    return authResponse({ ...done, updated_at: now }, licenceKey, requestId);
  }

  /** A failed challenge frees its duplicate slot, so the payer may try again. */
  async #releaseDuplicate(tx: Tx): Promise<void> {
    if (tx.threeds?.dupKey) await this.#d.duplicates.release(tx.merchantid, tx.threeds.dupKey);
  }

  async find(merchant: Merchant, ref: TxRef): Promise<Tx> {
    const tx = ref.transno !== undefined ? await this.#d.transactions.byTransno(merchant.merchantid, ref.transno) : await this.#d.transactions.byIdentifier(merchant.merchantid, ref.identifier);
    if (!tx) {
      throw ref.transno !== undefined
        ? payError(422, 'D022', `Transaction not found by transno ${ref.transno}`)
        : payError(422, 'D023', 'Transaction not found by identifier', ref.identifier);
    }
    return tx;
  }

  /** Completes a pre-authorisation, optionally for a different (not larger) amount. */
  async capture(merchant: Merchant, ref: TxRef, amount: number | undefined): Promise<Tx> {
    const now = this.#d.clock.now();
    const tx = await this.find(merchant, ref);
    const final = amount ?? tx.amount;
    const refusal = captureRefusal(tx, now, final);
    if (refusal) throw refuse(refusal, tx.identifier);
    const won = await this.#d.transactions.transition(tx.id, ['P'], { trans_status: 'O', amount: final, authcode: AUTH_CODES.capture }, now);
    if (!won) throw refuse(captureRefusal(await this.find(merchant, { transno: tx.transno }), now, final) ?? { code: 'T011', message: 'Transaction already completed' }, tx.identifier);
    return { ...tx, trans_status: 'O', amount: final };
  }

  /** Cancels a sale or pre-authorisation before it is batched. */
  async void(merchant: Merchant, ref: TxRef): Promise<Tx> {
    const now = this.#d.clock.now();
    const tx = await this.find(merchant, ref);
    const refusal = voidRefusal(tx);
    if (refusal) throw refuse(refusal, tx.identifier);
    // Conditional on no refund as well as on the state, so a racing refund and void cannot both succeed.
    const won = await this.#d.transactions.cancel(tx.id, now);
    if (!won) throw refuse(voidRefusal(await this.find(merchant, { transno: tx.transno })) ?? { code: 'T009', message: 'Transaction already cancelled' }, tx.identifier);
    return { ...tx, trans_status: 'C' };
  }

  /**
   * Refunds part or all of what remains of a completed sale, as a new transaction. With the merchant's duplicate check
   * on, the same identifier for the same original inside the window is a duplicate (T001): a retried refund pays once.
   */
  async refund(merchant: Merchant, input: { amount: number; identifier: string; refund_ref: number; trans_info?: string }, requestId: string): Promise<AuthResponse> {
    const d = this.#d;
    const now = d.clock.now();
    const original = await d.transactions.byTransno(merchant.merchantid, input.refund_ref);
    if (!original) throw payError(422, 'R001', `Original transaction ${input.refund_ref} not found`, input.identifier);
    const licenceKey = (await d.clients.licenceKeyOf(merchant.clientid)) ?? '';
    const dupKey = effectivePolicies(merchant, {}).duplicate === '1' ? d.vault.lookupHash(`payments-refund-dup:${merchant.merchantid}:${original.transno}:${input.identifier}`) : undefined;
    const duplicate = () => authResponse({ ...refundTx(original, input, -1, now), authcode: '', result: 2, result_code: 'T001', result_message: 'Duplicate transaction', trans_status: 'R' }, licenceKey, requestId);
    // A retry of a refund that emptied the original is still a duplicate, not R003: check the slot first.
    if (dupKey && (await d.duplicates.held(merchant.merchantid, dupKey, now))) return duplicate();
    const refusal = refundRefusal(original, input.amount);
    if (refusal) throw refuse(refusal, input.identifier);
    const refund = await d.db.write(async (trx): Promise<Tx | undefined> => {
      const transactions = new TransactionStore(trx);
      if (dupKey && !(await d.duplicates.within(trx).claim(merchant.merchantid, dupKey, now + merchant.duplicateWindowSeconds * 1000, now))) return undefined;
      if (!(await transactions.addRefund(original.id, input.amount, now))) {
        // Thrown, so the unit rolls back and the slot is not held for a refund that did not happen.
        const again = (await transactions.byTransno(merchant.merchantid, input.refund_ref))!;
        throw refuse(refundRefusal(again, input.amount) ?? { code: 'R005', message: 'Refund amount exceeds the refundable remainder' }, input.identifier);
      }
      const tx = refundTx(original, input, await this.#d.merchants.nextTransno(merchant.merchantid, trx), now);
      await transactions.insert(tx);
      return tx;
    });
    return refund ? authResponse(refund, licenceKey, requestId) : duplicate();
  }

  /** Up to five transactions matching an identifier, a transno or both from the last 90 days, newest first. */
  async retrieve(merchant: Merchant, ref: TxFilter): Promise<Tx[]> {
    const found = await this.#d.transactions.search(merchant.merchantid, ref, this.#d.clock.now() - RETRIEVE_DAYS_MS, RETRIEVE_LIMIT);
    if (found.length === 0) {
      throw ref.transno !== undefined
        ? payError(422, 'D022', `Transaction not found by transno ${ref.transno}`)
        : payError(422, 'D023', 'Transaction not found by identifier', ref.identifier);
    }
    return found;
  }
}

function withOutcome(tx: Tx, o: AcquirerOutcome, auth: Partial<TxChecks>): Tx {
  return {
    ...tx,
    trans_status: o.trans_status,
    authcode: o.authcode,
    result: o.result,
    result_code: o.result_code,
    result_message: o.result_message,
    checks: { ...tx.checks, avs_result: o.avs_result, csc_result: o.csc_result, ...auth },
  };
}

/** The acquirer reference: merchant and transaction number; empty when no number was issued. */
const atrnOf = (tx: Tx): string => (tx.transno > 0 ? `${tx.merchantid}${String(tx.transno).padStart(8, '0')}` : '');

export function authResponse(tx: Tx, licenceKey: string, requestId: string): AuthResponse {
  return {
    amount: tx.amount,
    atrn: atrnOf(tx),
    atsd: '',
    authcode: tx.authcode,
    authen_result: tx.checks.authen_result,
    authorised: tx.result === 1,
    avs_result: tx.checks.avs_result,
    csc_result: tx.checks.csc_result,
    bin_commercial: tx.card.bin_commercial,
    bin_debit: tx.card.bin_debit,
    bin_description: tx.card.bin_description,
    cavv: tx.checks.cavv,
    context: requestId,
    currency: tx.currency,
    datetime: new Date(tx.updated_at).toISOString(),
    eci: tx.checks.eci,
    identifier: tx.identifier,
    live: false,
    maskedpan: tx.maskedpan,
    merchantid: tx.merchantid,
    result: tx.result,
    result_code: tx.result_code,
    result_message: tx.result_message,
    scheme: tx.card.scheme,
    scheme_id: tx.card.scheme_id,
    sha256: responseDigest({ authcode: tx.authcode, amount: tx.amount, result_code: tx.result_code, merchantid: tx.merchantid, transno: tx.transno, identifier: tx.identifier }, licenceKey),
    trans_status: tx.trans_status,
    transno: tx.transno,
  };
}

/** The fields of a transaction made now: no checks run yet, no batch, no 3-D Secure. */
const unbatched = (now: number) => ({
  checks: { avs_result: ' ', csc_result: ' ', authen_result: '', eci: '', cavv: '' },
  batch_no: null,
  threeds_id: null,
  threeds: null,
  created_at: now,
  updated_at: now,
});

/** The refund of `original`: a new accepted transaction of type R under its own identifier. */
function refundTx(original: Tx, input: { amount: number; identifier: string; trans_info?: string }, transno: number, now: number): Tx {
  return {
    ...original,
    id: uuid(),
    transno,
    identifier: input.identifier,
    source: 'api',
    trans_type: 'R',
    trans_status: 'O',
    amount: input.amount,
    original_amount: input.amount,
    refunded: 0,
    authcode: AUTH_CODES.refund,
    result: 1,
    result_code: '001',
    result_message: 'Test Refund Accepted',
    trans_info: input.trans_info ?? null,
    refund_ref: original.transno,
    ...unbatched(now),
  };
}

/** A transaction for an authorisation request, not yet decided (rejected until an outcome is applied). */
function newTx(merchant: Merchant, input: AuthInput, currency: string, transno: number, now: number): Tx {
  const bin = binInfo(input.cardnumber);
  return {
    id: '',
    merchantid: merchant.merchantid,
    transno,
    identifier: input.identifier,
    source: 'api',
    trans_type: 'S',
    trans_status: 'R',
    amount: input.amount,
    original_amount: input.amount,
    refunded: 0,
    currency,
    maskedpan: maskPan(input.cardnumber),
    card: { scheme: bin?.scheme ?? '', scheme_id: bin?.scheme_id ?? '', bin_description: bin?.bin_description ?? '', bin_commercial: bin?.bin_commercial ?? false, bin_debit: bin?.bin_debit ?? false },
    authcode: '',
    result: 2,
    result_code: '',
    result_message: '',
    trans_info: input.trans_info ?? null,
    refund_ref: null,
    ...unbatched(now),
  };
}

/** A refusal before the acquirer that creates no transaction (duplicates): transno -1, as the real gateway answers. */
function rejection(merchant: Merchant, input: AuthInput, currency: string, code: string, message: string, now: number, licenceKey: string, requestId: string): AuthResponse {
  const tx: Tx = { ...newTx(merchant, input, currency, -1, now), result_code: code, result_message: message };
  return authResponse(tx, licenceKey, requestId);
}

/** AuthReference, the row shape of retrieve and batch transaction reports. */
export function authReference(tx: Tx) {
  return {
    amount: decimalAmount(tx.amount, tx.currency),
    amount_value: tx.amount,
    atrn: atrnOf(tx),
    authcode: tx.authcode,
    batchno: tx.batch_no === null ? '' : String(tx.batch_no),
    currency: tx.currency,
    datetime: new Date(tx.created_at).toISOString(),
    identifier: tx.identifier,
    maskedpan: tx.maskedpan,
    merchantid: tx.merchantid,
    result: resultWord(tx.trans_status, tx.trans_type),
    trans_status: tx.trans_status,
    trans_type: tx.trans_type,
    transno: tx.transno,
  };
}
