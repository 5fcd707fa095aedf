// Paylink: payment-request tokens a merchant creates (plain or as bill payments with notifications and attachments)
// and a hosted payment page where the payer passes field guards and pays. Plugged into the payments listener by the
// service's index.ts.
import type { FastifyInstance } from 'fastify';
import type { JobHandler } from '../../../core/jobs.ts';
import type { ServiceContext } from '../../../core/service.ts';
import type { PaymentsDeps } from '../contract.ts';
import { FINAL_RESULT_JOB, PaylinkCheckout } from './checkout.ts';
import { postFinalResult } from './final-result.ts';
import { registerHostedPage } from './routes/hosted-page.ts';
import { registerMerchantApi } from './routes/merchant-api.ts';
import { registerUploads } from './routes/uploads.ts';
import { PaylinkStore } from './store.ts';
import { PaylinkTokens } from './tokens.ts';

export { migrations, tables } from './migrations.ts';

/** What jobs need, per service context (jobs receive the context, not the deps). */
const wired = new WeakMap<ServiceContext, { deps: PaymentsDeps; store: PaylinkStore; tokens: PaylinkTokens }>();

export const jobs: Record<string, JobHandler> = {
  [FINAL_RESULT_JOB]: async (job, ctx: ServiceContext) => {
    const w = wired.get(ctx);
    if (!w) throw new Error('Paylink is not registered on this service context');
    await postFinalResult(job, w.deps, w.store, w.tokens);
  },
};

export async function register(app: FastifyInstance, deps: PaymentsDeps): Promise<void> {
  const store = new PaylinkStore(deps.ctx.db);
  const tokens = new PaylinkTokens(deps, store);
  wired.set(deps.ctx, { deps, store, tokens });
  registerMerchantApi(app, deps, tokens, store);
  registerHostedPage(app, deps, store, tokens, new PaylinkCheckout(deps, store, tokens));
  await registerUploads(app, deps, store);
}
