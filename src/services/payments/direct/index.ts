// Direct post: browsers post card data straight to the gateway (POST /direct/auth, or /direct/tokenise and then
// /direct/token from the merchant's server), authorised by domain keys (/dk/gen, /dk/check). Plugged into the
// payments listener by the service's index.ts.
import type { FastifyInstance } from 'fastify';
import type { PaymentsDeps } from '../contract.ts';
import { registerDirectAuthRoutes } from './routes/direct-auth.ts';
import { registerDomainKeyRoutes } from './routes/domain-keys.ts';
import { registerTokenisationRoutes } from './routes/tokenise.ts';
import { DirectStore } from './store.ts';

export { migrations, tables } from './migrations.ts';

export async function register(app: FastifyInstance, deps: PaymentsDeps): Promise<void> {
  const store = new DirectStore(deps.ctx.kysely, deps.ctx.vault);
  registerDomainKeyRoutes(app, deps, store);
  registerDirectAuthRoutes(app, deps, store);
  registerTokenisationRoutes(app, deps, store);
}
