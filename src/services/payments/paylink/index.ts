// Paylink: payment-request tokens a merchant creates (plain or as bill payments with notifications and attachments)
// and a hosted payment page where the payer passes field guards and pays. Plugged into the payments listener by the
// service's index.ts.
import type { FastifyInstance } from 'fastify';
import type { PaymentsDeps } from '../contract.ts';
import { PaylinkCheckout } from './checkout.ts';
import { registerHostedPage } from './routes/hosted-page.ts';
import { registerMerchantApi } from './routes/merchant-api.ts';
import { registerUploads } from './routes/uploads.ts';
import { PaylinkStore } from './store.ts';
import { PaylinkTokens } from './tokens.ts';

export { migrations, tables } from './migrations.ts';

export async function register(app: FastifyInstance, deps: PaymentsDeps): Promise<void> {
  const store = new PaylinkStore(deps.ctx.kysely);
  const tokens = new PaylinkTokens(deps, store);
  registerMerchantApi(app, deps, tokens, store);
  registerHostedPage(app, deps, store, tokens, new PaylinkCheckout(deps, store, tokens));
  await registerUploads(app, deps, store);
}
