// The /v2beta1 surface. Names are read from the raw path and decoded whole, so `bidders/1/filterSets` arrives the same
// whether a client sends its slashes literally ({+name} expansion) or as %2F.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GoogleError } from '../../../core/google/index.ts';
import { authorize } from '../domain/access.ts';
import { parseTarget, type Target } from '../domain/names.ts';
import type { Bidding } from '../bidding.ts';
import { listBidMetrics } from './bid-metrics.ts';
import { callerAccount } from './caller.ts';
import { createFilterSet, deleteFilterSet, getFilterSet, listFilterSets } from './filter-sets.ts';
import { isOutcomeCollection, listCreativeStatusBreakdown, listOutcomeMetrics } from './outcome-metrics.ts';

const PREFIX = '/v2beta1/';

export function apiRoutes(app: FastifyInstance, b: Bidding): void {
  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: '/v2beta1/*',
    handler: async (req, reply) => dispatch(req, reply, b),
  });
}

async function dispatch(req: FastifyRequest, reply: FastifyReply, b: Bidding): Promise<unknown> {
  const path = req.url.split('?')[0];
  const target = targetOf(path);
  const method = req.method;
  const operation = target && operationOf(target, method);
  if (!target || !operation) throw new GoogleError(404, `The requested URL ${path} was not found on this server.`, { reason: 'notFound' });

  const caller = await callerAccount(req, b);
  const owned = target.owner.level === 'account' ? await b.accounts.get(target.owner.accountId) : undefined;
  authorize(caller, target.owner, owned, target.kind === 'metrics' ? target.collection : undefined);

  reply.header('content-type', 'application/json; charset=UTF-8');
  switch (operation) {
    case 'create':
      return createFilterSet(req, b, target.owner);
    case 'list':
      return listFilterSets(req, b, target.owner);
    case 'get':
      return getFilterSet(req, b, (target as { name: string }).name);
    case 'delete':
      return deleteFilterSet(req, b, (target as { name: string }).name);
    default:
      return listMetrics(req, b, target as Extract<Target, { kind: 'metrics' }>);
  }
}

async function listMetrics(req: FastifyRequest, b: Bidding, target: Extract<Target, { kind: 'metrics' }>): Promise<unknown> {
  if (target.breakdown) return listCreativeStatusBreakdown(req, b, target.name, target.breakdown);
  if (isOutcomeCollection(target.collection)) return listOutcomeMetrics(req, b, target.name, target.collection);
  return listBidMetrics(req, b, target.name);
}

function targetOf(path: string): Target | undefined {
  if (!path.startsWith(PREFIX)) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path.slice(PREFIX.length));
  } catch {
    return undefined;
  }
  return parseTarget(decoded.split('/'));
}

function operationOf(target: Target, method: string): string | undefined {
  if (target.kind === 'filterSets') return method === 'POST' ? 'create' : method === 'GET' ? 'list' : undefined;
  if (target.kind === 'filterSet') return method === 'GET' ? 'get' : method === 'DELETE' ? 'delete' : undefined;
  return method === 'GET' ? 'metrics' : undefined;
}
