// POST /dk/gen and /dk/check: domain keys a merchant's web pages use to post card data straight to us.
import type { FastifyInstance } from 'fastify';
import { randomToken } from '../../../../core/ids.ts';
import { isoMs } from '../../../../core/time.ts';
import { payError, type PaymentsDeps } from '../../contract.ts';
import { canonicalDomain } from '../domain/domain-key.ts';
import type { DirectStore, DomainKeyRecord } from '../store.ts';
import { DIRECT_SCHEMAS } from './schemas.ts';

const MAX_DOMAINS = 20;

export function registerDomainKeyRoutes(app: FastifyInstance, deps: PaymentsDeps, store: DirectStore): void {
  app.post('/dk/gen', DIRECT_SCHEMAS.domainKey, async (req, reply) => {
    const caller = await deps.authenticate(req);
    const body = deps.bodyOf(req, 'DomainKeyRequest');
    const domains = readDomains(body.domain);
    const live = readBoolean(body.live, 'live');
    const merchant = await deps.merchantFor(caller, body.merchantid);
    const domainKey = randomToken(48);
    const record: DomainKeyRecord = { merchantid: merchant.merchantid, clientid: merchant.clientid, domains, live, createdAt: deps.ctx.clock.now() };
    await store.saveDomainKey(domainKey, record);
    return deps.send(req, reply, 'DomainKeyResponse', describe(domainKey, record));
  });

  app.post('/dk/check', DIRECT_SCHEMAS.domainKeyCheck, async (req, reply) => {
    const caller = await deps.authenticate(req);
    const body = deps.bodyOf(req, 'DomainKeyCheckRequest');
    if (typeof body.domain_key !== 'string' || body.domain_key === '') throw payError(400, 'P044', 'domain_key is required.');
    const record = await store.findDomainKey(body.domain_key);
    // Another client's key is reported exactly like an unknown one.
    if (!record || record.clientid !== caller.client.clientid) throw payError(422, 'D101', 'Data is not found');
    return deps.send(req, reply, 'DomainKeyResponse', describe(body.domain_key, record));
  });
}

function describe(domainKey: string, r: DomainKeyRecord) {
  return { domain_key: domainKey, domain: r.domains, live: r.live, merchantid: r.merchantid, date_created: isoMs(r.createdAt) };
}

function readDomains(raw: unknown): string[] {
  // XML gives a single repeated element as a plain value.
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list) || list.length === 0) throw payError(400, 'P044', 'domain must list at least one host name.');
  if (list.length > MAX_DOMAINS) throw payError(400, 'P045', `domain may list at most ${MAX_DOMAINS} host names.`);
  const out: string[] = [];
  for (const d of list) {
    const canonical = typeof d === 'string' ? canonicalDomain(d) : undefined;
    if (!canonical) throw payError(400, 'P045', `domain ${JSON.stringify(String(d)).slice(0, 80)} is not a host name.`);
    if (!out.includes(canonical)) out.push(canonical);
  }
  return out;
}

function readBoolean(raw: unknown, field: string): boolean {
  if (raw === undefined || raw === null || raw === '') return false;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw payError(400, 'P045', `${field} must be true or false.`);
}
