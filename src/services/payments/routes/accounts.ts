// Card-holder accounts: create, retrieve, exists, delete, contact, status, cards (register, status, delete).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCOUNT_ID } from '../accounts.ts';
import { payError, type Caller } from '../contract.ts';
import { Fields } from '../domain/fields.ts';
import { parseCard, parseContact } from '../domain/requests.ts';
import type { Gateway } from '../gateway.ts';
import { ack, bodyOf, send } from '../http.ts';
import { ACCOUNT_SCHEMAS } from './accounts-schemas.ts';

function accountIdOf(value: unknown): string {
  if (typeof value !== 'string' || !ACCOUNT_ID.test(value)) throw payError(400, 'D048', 'Invalid account id: 5 to 50 of A-Z a-z 0-9 - _ . ~');
  return value;
}

export function accountRoutes(app: FastifyInstance, g: Gateway): void {
  const param = (req: FastifyRequest, name: string) => (req.params as Record<string, string>)[name];
  const clientOf = (caller: Caller) => caller.client.clientid;

  app.post('/v6/account/create', ACCOUNT_SCHEMAS.create, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const f = new Fields(bodyOf(req, 'AccountCreate'));
    const accountId = accountIdOf(f.str('account_id', { required: true, missing: 'P040' }));
    const contact = parseContact(f.obj('contact')) ?? {};
    await g.accounts.create(clientOf(caller), accountId, contact);
    return send(req, reply, 'CardHolderAccount', await g.accounts.view(clientOf(caller), accountId));
  });

  app.get('/v6/account/:accountid', ACCOUNT_SCHEMAS.byId, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const accountId = accountIdOf(param(req, 'accountid'));
    return send(req, reply, 'CardHolderAccount', await g.accounts.view(clientOf(caller), accountId));
  });

  app.get('/v6/account-exists/:accountid', ACCOUNT_SCHEMAS.byId, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const account = await g.accounts.exists(clientOf(caller), accountIdOf(param(req, 'accountid')));
    return send(req, reply, 'Exists', {
      exists: account !== undefined,
      active: account?.status === 'ACTIVE',
      ...(account ? { last_modified: new Date(account.last_modified).toISOString() } : {}),
    });
  });

  app.delete('/v6/account/:accountid', ACCOUNT_SCHEMAS.byId, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const accountId = accountIdOf(param(req, 'accountid'));
    await g.accounts.delete(clientOf(caller), accountId);
    return send(req, reply, 'Acknowledgement', ack(req, '001', 'Account deleted', accountId));
  });

  app.post('/v6/account/:accountid/contact', ACCOUNT_SCHEMAS.contact, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const accountId = accountIdOf(param(req, 'accountid'));
    const contact = parseContact(new Fields(bodyOf(req, 'ContactDetails')))!;
    await g.accounts.changeContact(clientOf(caller), accountId, contact);
    return send(req, reply, 'CardHolderAccount', await g.accounts.view(clientOf(caller), accountId));
  });

  app.post('/v6/account/:accountid/status', ACCOUNT_SCHEMAS.status, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const accountId = accountIdOf(param(req, 'accountid'));
    const f = new Fields(bodyOf(req, 'AccountStatus'));
    const code = await g.accounts.setStatus(clientOf(caller), accountId, f.raw('status'));
    return send(req, reply, 'Acknowledgement', ack(req, code, code === '001' ? 'Account status changed' : 'Invalid account status', accountId));
  });

  app.post('/v6/account/:accountid/register', ACCOUNT_SCHEMAS.register, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const accountId = accountIdOf(param(req, 'accountid'));
    const f = new Fields(bodyOf(req, 'RegisterCard'));
    const input = {
      ...parseCard(f),
      default: f.bool('default'),
      name_on_card: f.str('name_on_card', { min: 2, max: 45 }),
    };
    await g.accounts.registerCard(clientOf(caller), accountId, input);
    return send(req, reply, 'CardHolderAccount', await g.accounts.view(clientOf(caller), accountId));
  });

  app.post('/v6/account/:accountid/card/:cardId/status', ACCOUNT_SCHEMAS.cardStatus, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const accountId = accountIdOf(param(req, 'accountid'));
    const f = new Fields(bodyOf(req, 'CardStatus'));
    const change = { card_status: f.raw('card_status'), default: f.bool('default') };
    const code = await g.accounts.setCardStatus(clientOf(caller), accountId, param(req, 'cardId'), change);
    return send(req, reply, 'Acknowledgement', ack(req, code, code === '001' ? 'Card status changed' : 'Not a valid card status change', accountId));
  });

  app.delete('/v6/account/:accountid/card/:cardId', ACCOUNT_SCHEMAS.card, async (req, reply) => {
    const caller = await g.access.authenticate(req);
    const accountId = accountIdOf(param(req, 'accountid'));
    await g.accounts.deleteCard(clientOf(caller), accountId, param(req, 'cardId'));
    return send(req, reply, 'Acknowledgement', ack(req, '001', 'Card deleted', accountId));
  });
}
