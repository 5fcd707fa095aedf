// Direct post: browsers post card data straight to the gateway (POST /direct/auth), authorised by domain keys
// (/dk/gen, /dk/check). Plugged into the payments listener by the service's index.ts.
import type { FastifyInstance } from 'fastify';
import type { PaymentsDeps } from '../contract.ts';
import { registerDirectAuthRoutes } from './routes/direct-auth.ts';
import { registerDomainKeyRoutes } from './routes/domain-keys.ts';
import { registerNotImplemented } from './routes/not-implemented.ts';
import { DirectStore } from './store.ts';

export { migrations, tables } from './migrations.ts';

export async function register(app: FastifyInstance, deps: PaymentsDeps): Promise<void> {
  const store = new DirectStore(deps.ctx.kysely, deps.ctx.vault);
  registerDomainKeyRoutes(app, deps, store);
  registerDirectAuthRoutes(app, deps, store);
  registerNotImplemented(app);
}
