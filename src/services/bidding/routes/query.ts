// Query parameters of the API's methods: each method names the ones it takes, and any other non-system parameter is
// refused the way the real API refuses it.
import type { FastifyRequest } from 'fastify';
import { invalidArgument } from '../../../core/google/errors.ts';
import { SYSTEM_PARAMETERS, refuseUnknownParameters } from '../../../core/google/parameters.ts';

export function queryOf(req: FastifyRequest, accepted: string[]): Record<string, string | undefined> {
  const raw = req.query as Record<string, unknown>;
  refuseUnknownParameters(raw, accepted);
  const out: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (SYSTEM_PARAMETERS.has(key)) continue;
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
