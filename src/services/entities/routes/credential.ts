// Knowledge Graph Search is an API-key API: a request with no credential at all (or an empty `key=`) is refused as
// Google refuses it for such APIs, 403 PERMISSION_DENIED, before the shared check that answers 401 for OAuth APIs.
import type { FastifyRequest } from 'fastify';
import { GoogleError } from '../../../core/google/index.ts';

const MISSING_KEY = 'The request is missing a valid API key.';

const present = (v: unknown): boolean => (Array.isArray(v) ? v.some(present) : typeof v === 'string' && v !== '');

export function requireSomeCredential(req: FastifyRequest): void {
  const q = req.query as Record<string, unknown>;
  const given = [q.key, q.access_token, q.oauth_token, req.headers.authorization, req.headers['x-goog-api-key']].some(present);
  if (!given) throw new GoogleError(403, MISSING_KEY, { reason: 'forbidden', rpcStatus: 'PERMISSION_DENIED' });
}
