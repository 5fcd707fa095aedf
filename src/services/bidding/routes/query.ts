// Query parameters of the API's methods: each method names the ones it takes, and any other non-system parameter is
// refused the way the real API refuses it.
import type { FastifyRequest } from 'fastify';
import { invalidArgument } from '../../../core/google/errors.ts';

const SYSTEM = new Set(['alt', 'fields', 'key', 'access_token', 'oauth_token', 'prettyPrint', 'quotaUser', '$.xgafv', 'upload_protocol', 'uploadType', 'callback', 'userIp']);

export function queryOf(req: FastifyRequest, accepted: string[]): Record<string, string | undefined> {
  const raw = req.query as Record<string, unknown>;
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (SYSTEM.has(key)) continue;
    if (!accepted.includes(key)) throw invalidArgument(`Invalid JSON payload received. Unknown name "${key}": Cannot bind query parameter. Field '${key}' could not be found in request message.`, key);
    const v = Array.isArray(value) ? value[value.length - 1] : value;
    out[key] = typeof v === 'string' ? v : undefined;
  }
  return out;
}

/** A bool query parameter (`true`/`false`, or `1`/`0`). */
export function boolParam(value: string | undefined, name: string, protoName: string): boolean {
  if (value === undefined || value === '') return false;
  const v = value.toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw invalidArgument(`Invalid value at '${protoName}' (TYPE_BOOL), "${value}"`, name);
}
