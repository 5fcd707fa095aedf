// POST /v6/authenticate: exchanges a client id and licence key for an API key, as the client libraries (JS 1.3.x, TS)
// do before their first call. The key is the same time-based key a client can make itself; with `subject` (a
// merchant id of the client) it acts for that merchant only.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { safeEqual } from '../../../core/crypto.ts';
import { isoMs } from '../../../core/time.ts';
import { payError } from '../contract.ts';
import { makeApiKey } from '../domain/api-key.ts';
import type { Gateway } from '../gateway.ts';
import { bodyOf, send } from '../http.ts';
import { KeySubjectStore } from '../store/key-subjects.ts';
import { MISC_SCHEMAS } from './misc-schemas.ts';

const MINUTE = 60_000;

export function authenticateRoutes(app: FastifyInstance, g: Gateway): void {
  app.post('/v6/authenticate', MISC_SCHEMAS.authenticate, async (req, reply) => {
    const body = bodyOf(req, 'AuthenticateRequest');
    const clientid = text(body.clientid, 'clientid', 'D027', 50);
    const licenceKey = text(body.licencekey, 'licencekey', 'P035', 255);
    const subject = subjectOf(body.subject);
    // Unknown client and wrong licence key answer alike, so the answer does not reveal which clients exist.
    const expected = await g.clients.licenceKeyOf(clientid);
    if (expected === undefined || !safeEqual(expected, licenceKey)) throw payError(403, 'S003', 'Invalid client id and licence key combination');
    // A key for a client is issued only where its keys would be accepted.
    g.access.checkSource((await g.clients.get(clientid))!, req);
    const now = g.ctx.clock.now();
    const nonce = randomBytes(16);
    const key = makeApiKey(clientid, licenceKey, nonce, now);
    const minute = Math.floor(now / MINUTE) * MINUTE;
    const expires = minute + g.access.ttlMinutes * MINUTE;
    if (subject !== undefined) {
      const merchant = await g.merchants.get(subject);
      if (!merchant || merchant.clientid !== clientid) throw payError(403, 'S002', `No permission for merchant ${subject}`);
      if (merchant.status !== 'A') throw payError(403, 'Z002', `Merchant ${subject} is not active`);
      // Remembered as long as the key's nonce is (the key's minute, its TTL and the minute of skew).
      const until = minute + (g.access.ttlMinutes + 2) * MINUTE;
      await g.ctx.db.write((tx) => new KeySubjectStore(tx).record(clientid, nonce.toString('hex').toUpperCase(), subject, until, now));
    }
    return send(req, reply, 'AuthenticateResponse', { key, clientid, ...(subject !== undefined ? { subject: String(subject) } : {}), expires: isoMs(expires) });
  });
}

function text(raw: unknown, field: string, missingCode: string, max: number): string {
  if (raw === undefined || raw === null || raw === '') throw payError(400, missingCode, `${field} is required`);
  if (typeof raw !== 'string') throw payError(400, 'P045', `Field invalid: ${field} must be a string`);
  if (raw.length > max) throw payError(400, 'P045', `Field invalid: ${field} is longer than ${max} characters`);
  return raw;
}

/** `subject` names the merchant the key is for: a merchant id (number or digits); absent, null or empty for none. */
function subjectOf(raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const id = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : raw;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw payError(400, 'P045', 'Field invalid: subject must be a merchant id');
  return id;
}
