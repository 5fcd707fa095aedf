// Operator routes under /services/payments/ on the admin listener: clients and licence keys, merchant accounts,
// closing a batch now, and minting an API key for manual calls.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { isTimeZone } from '../../core/time.ts';
import type { Gateway } from './gateway.ts';
import { batchView } from './batches.ts';
import { mintApiKey } from './manual-key.ts';
import { clientConfigProblem, clientConfigView, MerchantConfig, merchantConfigView, merchantFromConfig, problemWith, type ClientConfig } from './settings.ts';

const bad = (message: string) => new ApiError(400, message);
const notFound = (message: string) => new ApiError(404, message);

function merchantIdParam(value: string): number {
  if (!/^\d{1,10}$/.test(value)) throw bad('merchant id must be a positive integer');
  return Number(value);
}

export function adminRoutes(app: FastifyInstance, g: Gateway): void {
  app.get('/clients', async () => ({ clients: (await g.clients.list()).map(clientConfigView) }));

  app.post('/clients', async (req, reply) => {
    const problem = clientConfigProblem(req.body);
    if (problem) throw bad(problem);
    const body = req.body as ClientConfig;
    const existing = await g.clients.get(body.clientid);
    const name = body.name ?? existing?.name ?? body.clientid;
    const licenceKey = await g.clients.upsert({ clientid: body.clientid, name, licenceKey: body.licence_key, acceptedSources: body.accepted_sources });
    reply.code(existing ? 200 : 201);
    const saved = (await g.clients.get(body.clientid))!;
    return { ...clientConfigView(saved), ...(licenceKey ? { licence_key: licenceKey } : {}) };
  });

  app.delete('/clients/:clientid', async (req, reply) => {
    const { clientid } = req.params as { clientid: string };
    if ((await g.merchants.list(clientid)).length > 0) throw new ApiError(409, `client ${clientid} still has merchants`);
    if (!(await g.clients.delete(clientid))) throw notFound(`no client ${clientid}`);
    reply.code(204);
  });

  /** A fresh API key for a client, made with the service's clock (for curl and manual testing). */
  app.post('/clients/:clientid/api-key', async (req) => {
    const { clientid } = req.params as { clientid: string };
    const value = await mintApiKey(g, clientid);
    if (value === undefined) throw notFound(`no client ${clientid}`);
    return { header: 'pay-api-key', value };
  });

  app.get('/merchants', async () => ({ merchants: (await g.merchants.list()).map(merchantConfigView) }));

  app.get('/merchants/:merchantid', async (req) => {
    const id = merchantIdParam((req.params as { merchantid: string }).merchantid);
    const m = await g.merchants.get(id);
    if (!m) throw notFound(`no merchant ${id}`);
    return merchantConfigView(m);
  });

  app.post('/merchants', async (req, reply) => {
    const problem = problemWith(MerchantConfig, req.body);
    if (problem) throw bad(problem);
    const body = req.body as MerchantConfig;
    if (body.time_zone && !isTimeZone(body.time_zone)) throw bad(`unknown time zone ${body.time_zone}`);
    if (!(await g.clients.get(body.clientid))) throw bad(`no client ${body.clientid}: create it first`);
    const previous = await g.merchants.get(body.merchantid);
    const merchant = merchantFromConfig(body, previous);
    await g.merchants.upsert(merchant, g.ctx.clock.now());
    await g.batches.schedule(merchant);
    reply.code(previous ? 200 : 201);
    return merchantConfigView(merchant);
  });

  app.delete('/merchants/:merchantid', async (req, reply) => {
    const id = merchantIdParam((req.params as { merchantid: string }).merchantid);
    if (!(await g.merchants.delete(id))) throw notFound(`no merchant ${id}`);
    await g.batches.unschedule(id);
    reply.code(204);
  });

  /** Closes the merchant's open transactions into a batch now, as the midnight job would. */
  app.post('/merchants/:merchantid/close-batch', async (req) => {
    const id = merchantIdParam((req.params as { merchantid: string }).merchantid);
    if (!(await g.merchants.get(id))) throw notFound(`no merchant ${id}`);
    const batch = await g.batches.close(id, g.ctx.clock.now() + 1);
    return { batch: batch ? batchView(batch) : null };
  });
}
