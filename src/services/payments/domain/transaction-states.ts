// The transaction state machine. trans_status letters are the API's: H awaiting 3-D Secure, P pre-authorised,
// O open for settlement, A assigned to a batch, S settled, C cancelled (voided), D declined, R rejected,
// E expired (a pre-authorisation not captured within 7 days).
// Each check answers undefined when the operation may proceed, else the documented refusal.

export type TransStatus = 'H' | 'P' | 'O' | 'A' | 'S' | 'C' | 'D' | 'R' | 'E';
/** S sale, P pre-authorisation (captured or not), R refund. */
export type TransType = 'S' | 'P' | 'R';

export interface TxView {
  trans_type: TransType;
  trans_status: TransStatus;
  amount: number;
  refunded: number;
  created_at: number;
}

export interface Refusal {
  code: string;
  message: string;
}

export const CAPTURE_WINDOW_MS = 7 * 24 * 3600_000;

const NOT_AUTHORISED: Refusal = { code: 'T013', message: 'The original transaction was not authorised' };

export function captureRefusal(tx: TxView, nowMs: number, amount: number): Refusal | undefined {
  if (tx.trans_type !== 'P') return { code: 'T012', message: 'Cannot complete: the transaction is not a pre-authorisation' };
  switch (tx.trans_status) {
    case 'P':
      if (nowMs - tx.created_at > CAPTURE_WINDOW_MS) return { code: 'T003', message: 'Invalid capture: the pre-authorisation is older than 7 days' };
      if (amount > tx.amount) return { code: 'T002', message: 'Capture amount exceeds the pre-authorised amount' };
      return undefined;
    case 'O':
    case 'A':
    case 'S':
      return { code: 'T011', message: 'Transaction already completed' };
    case 'C':
      return { code: 'T009', message: 'Transaction already cancelled' };
    case 'E':
      return { code: 'T003', message: 'Invalid capture: the pre-authorisation has expired' };
    default:
      return NOT_AUTHORISED;
  }
}

export function voidRefusal(tx: TxView): Refusal | undefined {
  if (tx.trans_type === 'R') return { code: 'T004', message: 'Invalid reversal: a refund cannot be voided' };
  // Voiding a refunded sale would leave the refund standing while the sale disappears: the cardholder is paid twice.
  if (tx.refunded > 0 && (tx.trans_status === 'O' || tx.trans_status === 'P')) {
    return { code: 'T004', message: 'Invalid reversal: the transaction has been refunded; refund the remainder instead' };
  }
  switch (tx.trans_status) {
    case 'O':
    case 'P':
      return undefined;
    case 'C':
      return { code: 'T009', message: 'Transaction already cancelled' };
    case 'E':
      return { code: 'T009', message: 'Transaction already cancelled: the pre-authorisation has expired' };
    case 'A':
    case 'S':
      return { code: 'T004', message: 'Invalid reversal: the transaction is already batched; refund it instead' };
    default:
      return NOT_AUTHORISED;
  }
}

export function refundRefusal(tx: TxView, amount: number): Refusal | undefined {
  if (tx.trans_type === 'R') return { code: 'R010', message: 'The original transaction is not a purchase' };
  if (!['O', 'A', 'S'].includes(tx.trans_status)) return { code: 'R011', message: 'The original transaction was not accepted or not completed' };
  const remaining = tx.amount - tx.refunded;
  if (remaining <= 0) return { code: 'R003', message: 'The transaction has already been fully refunded' };
  if (amount > tx.amount) return { code: 'R002', message: 'Refund amount exceeds the original value' };
  if (amount > remaining) return { code: 'R005', message: 'Refund amount exceeds the refundable remainder' };
  return undefined;
}

/** AuthReference.result: a word, not a number. */
export function resultWord(status: TransStatus, type: TransType): string {
  if (status === 'D') return 'Declined';
  if (status === 'R') return 'Rejected';
  if (status === 'H') return 'Awaiting authentication';
  if (status === 'C') return 'Cancelled';
  if (status === 'E') return 'Expired';
  return type === 'R' ? 'Refunded' : 'Accepted';
}
