// Ping, BIN lookup and the client's merchant list.
import type { FastifyInstance } from 'fastify';
import { payError } from '../contract.ts';
import { binInfo } from '../domain/card.ts';
import { Fields } from '../domain/fields.ts';
import { IDENTIFIER } from '../domain/requests.ts';
import type { Gateway } from '../gateway.ts';
import { ack, bodyOf, send } from '../http.ts';
import { MISC_SCHEMAS } from './misc-schemas.ts';

export function miscRoutes(app: FastifyInstance, g: Gateway): void {
  app.post('/v6/ping', MISC_SCHEMAS.ping, async (req, reply) => {
    await g.access.authenticate(req);
    const f = new Fields(bodyOf(req, 'Ping'));
    const identifier = f.str('identifier', IDENTIFIER);
    return send(req, reply, 'Acknowledgement', ack(req, '044', 'Ping OK', identifier));
  });

  app.post('/v6/bin', MISC_SCHEMAS.bin, async (req, reply) => {
    await g.access.authenticate(req);
    const f = new Fields(bodyOf(req, 'BinLookup'));
    const bin = f.int('bin', { required: true, digits: [6, 12], min: 0 })!;
    const info = binInfo(String(bin));
    if (!info) throw payError(422, 'C022', 'BIN not found');
    const { cscLength: _csc, scheme_id: _id, ...view } = info;
    return send(req, reply, 'Bin', view);
  });

  app.get('/v6/merchants/:clientid', MISC_SCHEMAS.merchants, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const { clientid } = req.params as { clientid: string };
    if (clientid !== 'default' && clientid !== caller.client.clientid) throw payError(403, 'S003', `No permission for client ${clientid}`);
    const sort = (req.query as { sort?: string }).sort;
    if (sort !== undefined && sort !== 'merchantid' && sort !== 'name') throw payError(400, 'P045', 'Field invalid: sort accepts merchantid or name');
    // A key issued for a subject sees only that merchant.
    const merchants = await g.access.merchantsOf(caller);
    if (sort === 'name') merchants.sort((a, b) => a.name.localeCompare(b.name) || a.merchantid - b.merchantid);
    return send(req, reply, 'ListMerchantsResponse', {
      client_name: caller.client.name,
      clientid: caller.client.clientid,
      merchants: merchants.map((m) => ({
        currency: m.currency,
        merchantid: m.merchantid,
        name: m.name,
        status: m.status,
        status_label: m.status === 'A' ? 'Active' : 'Suspended',
      })),
    });
  });
}
