// What happens on the hosted payment page: field-guard logins (with lockout), and payment attempts through the
// gateway's processing path, including the 3-D Secure challenge round trip. One attempt at a time per token.
import { payError, PaymentsError, type AuthResponse, type Decision, type Merchant, type PaymentsDeps } from '../contract.ts';
import { customValues } from './domain/custom-params.ts';
import { allGuardsPass } from './domain/field-guard.ts';
import { guardLockState, type LockState } from './domain/guard-lockout.ts';
import { transition } from './domain/token-state.ts';
import { EV } from './events.ts';
import type { PaylinkStore, PaymentSummary, TokenRecord } from './store.ts';
import type { PaylinkTokens } from './tokens.ts';

export const FINAL_RESULT_JOB = 'paylink_final_result';
const finalResultJobKey = (token: string) => `payments:paylink-final:${token}`;

/** How long one attempt holds the token (a 3-D Secure challenge included). */
const ATTEMPT_LEASE_MS = 15 * 60_000;

export type AttemptOutcome =
  | { kind: 'challenge'; acsUrl: string; creq: string; sessionData: string }
  | { kind: 'result'; response: AuthResponse }
  | { kind: 'refused'; message: string };

export interface CardEntry {
  cardnumber?: unknown;
  expmonth?: unknown;
  expyear?: unknown;
  csc?: unknown;
  name_on_card?: unknown;
  postcode?: unknown;
}

export class PaylinkCheckout {
  constructor(
    private readonly deps: PaymentsDeps,
    private readonly store: PaylinkStore,
    private readonly tokens: PaylinkTokens,
  ) {}

  private get now(): number {
    return this.deps.ctx.clock.now();
  }

  async lockState(t: TokenRecord): Promise<LockState> {
    return guardLockState(await this.store.eventTimes(t.seq, EV.guardDenied), this.now);
  }

  /** Checks the entered guard values; every denial is recorded, and the one that crosses the limit locks the token. */
  async guardLogin(t: TokenRecord, entered: Record<string, unknown>): Promise<'validated' | 'denied' | 'locked'> {
    if ((await this.lockState(t)).locked) return 'locked';
    const now = this.now;
    if (allGuardsPass(this.tokens.guardsOf(t), entered)) {
      await this.store.addEvent(t.seq, now, EV.guardValidated, 'Field guard validated access');
      return 'validated';
    }
    await this.store.addEvent(t.seq, now, EV.guardDenied, 'Field guard denied access');
    const after = await this.lockState(t);
    if (!after.locked) return 'denied';
    await this.store.addEvent(t.seq, now, EV.guardLocked, after.permanent ? 'Token locked: too many denied guard attempts' : `Token locked until ${new Date(after.until).toISOString()}`);
    return 'locked';
  }

  /** Records the first view of the payment form. */
  async viewed(t: TokenRecord): Promise<void> {
    const step = transition(t, 'open', this.now);
    if ('refused' in step || !step.changed) return;
    if (await this.store.moveState(t.seq, t.state, step.next, this.now)) await this.store.addEvent(t.seq, this.now, EV.formViewed, 'Payment form viewed');
  }

  /** `form` holds the card fields and `custom_<name>` entries for the merchant's custom parameters. */
  async attempt(t: TokenRecord, merchant: Merchant, form: Record<string, unknown>, requestId: string): Promise<AttemptOutcome> {
    const step = transition(t, 'pay', this.now);
    if ('refused' in step) return { kind: 'refused', message: step.refused };
    const custom = customValues(t.request.config?.customParams ?? [], form);
    if ('problem' in custom) return { kind: 'refused', message: custom.problem };
    const card = form as CardEntry;
    if (!(await this.store.claimPayment(t.seq, this.now, ATTEMPT_LEASE_MS))) {
      return { kind: 'refused', message: 'A payment for this request is already in progress or complete.' };
    }
    await this.store.saveCustomValues(t.seq, custom.values);
    let decision: Decision;
    try {
      decision = await this.deps.authorise(merchant, this.deps.parseAuthRequest(this.authRequest(t, card)), { source: 'paylink', requestId });
    } catch (err) {
      // Refused before reaching the acquirer (bad card data, a duplicate): the token stays payable.
      await this.store.releasePayment(t.seq);
      if (!(err instanceof PaymentsError)) throw err;
      await this.store.addEvent(t.seq, this.now, EV.paymentError, `Card details refused (${err.code})`);
      return { kind: 'refused', message: err.message };
    }
    if ('RequestChallenged' in decision) {
      const c = decision.RequestChallenged;
      await this.store.addEvent(t.seq, this.now, EV.challenged, 'Card holder authentication (3-D Secure) challenge started');
      return { kind: 'challenge', acsUrl: c.acs_url, creq: c.creq, sessionData: c.threedserver_trans_id };
    }
    return { kind: 'result', response: await this.finish(t, merchant, decision.AuthResponse) };
  }

  /** Completes a challenged attempt with the `cres` the ACS returned, after checking it belongs to this token. */
  async completeChallenge(t: TokenRecord, merchant: Merchant, cres: string, sessionData: string, requestId: string): Promise<AuthResponse> {
    const challenge = sessionData ? await this.deps.challengeOf(sessionData) : undefined;
    if (!challenge || challenge.source !== 'paylink' || challenge.merchantid !== t.merchantid || challenge.identifier !== t.identifier) {
      throw payError(403, 'S004', 'This authentication result does not belong to this payment request.');
    }
    try {
      return await this.finish(t, merchant, await this.deps.completeChallenge(merchant, cres, { requestId }));
    } catch (err) {
      await this.store.releasePayment(t.seq);
      throw err;
    }
  }

  private async finish(t: TokenRecord, merchant: Merchant, r: AuthResponse): Promise<AuthResponse> {
    await this.store.finishPayment(t.seq, summarise(r, t.currency), this.now);
    const label = `${r.result_code} ${r.result_message}`;
    await this.store.addEvent(t.seq, this.now, r.authorised ? EV.authorised : EV.declined, r.authorised ? `Payment authorised (transaction ${r.transno})` : `Payment declined: ${label}`);
    if (r.authorised) {
      await this.deps.ctx.jobs.cancel(finalResultJobKey(t.token));
      const fresh = (await this.store.byToken(t.token)) ?? t;
      await this.tokens.notifier.afterPayment(fresh, merchant, r as unknown as Record<string, unknown>, await this.deps.licenceKeyOf(merchant.clientid));
    } else if (t.expiresAt !== null && t.request.config?.postback) {
      // Only the final result is posted back: a decline becomes final if nobody pays before the token expires.
      await this.deps.ctx.jobs.schedule({ service: 'payments', kind: FINAL_RESULT_JOB, runAt: t.expiresAt, payload: { token: t.token }, key: finalResultJobKey(t.token) });
    }
    return r;
  }

  /** The AuthRequest a hosted-page attempt makes: the token's amount and identifier, the payer's card, its options. */
  private authRequest(t: TokenRecord, card: CardEntry): Record<string, unknown> {
    const options: string[] = t.request.config?.options ?? [];
    const policy = (bypass: string, enforce: string) => (options.includes(bypass) ? '2' : options.includes(enforce) ? '1' : undefined);
    const address = t.request.cardholder?.address ?? {};
    const postcode = typeof card.postcode === 'string' && card.postcode.trim() ? card.postcode.trim() : address.postcode;
    const raw: Record<string, unknown> = {
      amount: t.amount,
      identifier: t.identifier,
      merchantid: t.merchantid,
      cardnumber: card.cardnumber,
      expmonth: wholeNumber(card.expmonth),
      expyear: expiryYear(card.expyear),
      csc: typeof card.csc === 'string' && card.csc !== '' ? card.csc : undefined,
      name_on_card: typeof card.name_on_card === 'string' && card.name_on_card.trim() ? card.name_on_card.trim() : undefined,
      // ENFORCE_PREAUTH authorises only (the merchant captures later); BYPASS_PREAUTH wins over it.
      pre_auth: options.includes('ENFORCE_PREAUTH') && !options.includes('BYPASS_PREAUTH') ? true : undefined,
      // The token's transaction type override is the AuthRequest's trans_type (`P`: a pre-authorisation), as an
      // override BYPASS_PREAUTH still wins over.
      trans_type: options.includes('BYPASS_PREAUTH') && t.request.tx_type === 'P' ? undefined : t.request.tx_type,
      // The token itself guarantees one payment; retries after a decline must not be refused as duplicates.
      duplicate_policy: '2',
      csc_policy: policy('BYPASS_CSC_REQUIRED', 'ENFORCE_CSC_REQUIRED'),
      avs_postcode_policy: policy('BYPASS_AVS_POSTCODE', 'ENFORCE_AVS_POSTCODE'),
      match_avsa: policy('BYPASS_AVS_ADDRESS', 'ENFORCE_AVS_ADDRESS'),
      bill_to: postcode || address.address1 ? { postcode, address1: address.address1, country: address.country } : undefined,
      threedsecure: {
        merchant_termurl: `${this.deps.ctx.baseUrl}/pay/${t.token}/3ds`,
        ...(options.includes('BYPASS_3DSECURE') ? { tds_policy: '2' } : {}),
      },
    };
    return Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined));
  }
}

function summarise(r: AuthResponse, currency: string): PaymentSummary {
  const last4 = (r.maskedpan ?? '').slice(-4);
  return {
    transno: r.transno,
    authcode: r.authcode ?? '',
    amount: r.amount,
    currency: r.currency || currency,
    card: r.scheme && last4 ? `${r.scheme}/${last4}` : last4,
    maskedpan: r.maskedpan,
    result: r.result,
    result_code: r.result_code,
    result_message: r.result_message,
    authorised: r.authorised,
    datetime: r.datetime,
  };
}

function wholeNumber(v: unknown): unknown {
  return typeof v === 'string' && /^\d{1,4}$/.test(v.trim()) ? Number(v.trim()) : v;
}

/** Payers often type a two-digit year. */
function expiryYear(v: unknown): unknown {
  const n = wholeNumber(v);
  return typeof n === 'number' && n < 100 ? 2000 + n : n;
}
