// The Paylink token life cycle. A token is created, opened when the payer first views the form, and paid by a
// successful payment. The merchant may cancel, close, reconcile it at any time; a closed token can be reopened only
// while unpaid. Expiry is not a state: it is read from the clock against the token's expiry time.

export const TOKEN_STATES = ['created', 'opened', 'paid', 'cancelled', 'closed', 'reopened', 'reconciled'] as const;
export type TokenState = (typeof TOKEN_STATES)[number];

export type MerchantAction = 'cancel' | 'close' | 'reopen' | 'reconcile';
export type TokenAction = MerchantAction | 'open' | 'pay' | 'adjust';

/** States in which a payer may still pay (subject to expiry). */
const PAYABLE: ReadonlySet<TokenState> = new Set(['created', 'opened', 'reopened']);

export interface TokenFacts {
  state: TokenState;
  paid: boolean;
  /** Epoch ms; null when the token never expires. */
  expiresAt: number | null;
}

export const isExpired = (t: TokenFacts, now: number): boolean => t.expiresAt !== null && now >= t.expiresAt;

export const isOpenForPayment = (t: TokenFacts, now: number): boolean => PAYABLE.has(t.state) && !t.paid && !isExpired(t, now);

export type Transition = { next: TokenState; changed: boolean } | { refused: string };

/** The state after `action`, or why the action is refused. Repeating cancel, close or reconcile changes nothing. */
export function transition(t: TokenFacts, action: TokenAction, now: number): Transition {
  const to = (next: TokenState): Transition => ({ next, changed: next !== t.state });
  switch (action) {
    case 'cancel':
      return to('cancelled');
    case 'close':
      return to('closed');
    case 'reconcile':
      return to('reconciled');
    case 'reopen':
      if (t.state !== 'closed') return { refused: 'Only a closed token can be reopened.' };
      if (t.paid) return { refused: 'The token has been paid and cannot be reopened.' };
      return to('reopened');
    case 'open':
      if (!isOpenForPayment(t, now)) return { refused: refusalReason(t, now) };
      return to(t.state === 'created' ? 'opened' : t.state);
    case 'pay':
      if (!isOpenForPayment(t, now)) return { refused: refusalReason(t, now) };
      return to('paid');
    case 'adjust':
      if (!isOpenForPayment(t, now)) return { refused: refusalReason(t, now) };
      return to(t.state);
  }
}

/** Why a token is not open for payment, in words a payer or merchant understands. */
export function refusalReason(t: TokenFacts, now: number): string {
  if (t.paid) return 'The payment has already been made.';
  if (t.state === 'cancelled') return 'The payment request has been cancelled.';
  if (t.state === 'closed') return 'The payment request has been closed.';
  if (t.state === 'reconciled') return 'The payment request has been reconciled.';
  if (isExpired(t, now)) return 'The payment request has expired.';
  return 'The payment request is not open for payment.';
}
