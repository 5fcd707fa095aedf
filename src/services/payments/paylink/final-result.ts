// The postback of a token that ends unpaid: when it expires after a declined attempt, its last result is final and
// is posted to the merchant (a successful payment is posted at once and cancels this job).
import type { Job } from '../../../core/jobs.ts';
import type { PaymentsDeps } from '../contract.ts';
import type { PaylinkStore } from './store.ts';
import type { PaylinkTokens } from './tokens.ts';

export async function postFinalResult(job: Job, deps: PaymentsDeps, store: PaylinkStore, tokens: PaylinkTokens): Promise<void> {
  const t = await store.byToken(String(job.payload?.token ?? ''));
  if (!t || t.paid || !t.payment) return;
  const merchant = await deps.findMerchant(t.merchantid);
  const licenceKey = merchant ? await deps.licenceKeyOf(merchant.clientid) : undefined;
  const p = t.payment;
  await tokens.notifier.postback(
    t,
    { amount: p.amount, authcode: p.authcode, authorised: false, currency: p.currency, datetime: p.datetime, result: p.result, result_code: p.result_code, result_message: p.result_message, transno: p.transno, maskedpan: p.maskedpan },
    licenceKey,
  );
}
