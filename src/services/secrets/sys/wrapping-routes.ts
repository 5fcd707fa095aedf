// sys/wrapping/wrap, lookup, unwrap and rewrap.
import { badRequest, SecretsError, type LogicalRequest } from '../contract.ts';
import type { CoreRoute } from './route.ts';
import { DEFAULT_WRAP_TTL, wrapTtlOf, type Wrapping } from './wrapping.ts';

/** Vault refuses a wrapping token it cannot even read with 403 and this prefix, before looking it up. */
const unreadable = (why: string) => new SecretsError(403, `error validating wrapping token: ${why}`);

/** The wrapping token from the body, or the one presented as the client token. */
function tokenOf(req: LogicalRequest): string {
  const fromBody = req.data.token;
  if (fromBody !== undefined && fromBody !== null) {
    if (typeof fromBody !== 'string') throw unreadable('could not decode token in request body');
    if (fromBody === '') throw unreadable('empty token in request body');
    return fromBody;
  }
  if (!req.clientToken) throw unreadable('token is empty');
  return req.clientToken;
}

export function wrappingRoutes(wrapping: Wrapping): CoreRoute[] {
  return [
    {
      pattern: /^wrapping\/wrap$/,
      operations: ['update'],
      arbitraryInput: true,
      async handle(req) {
        if (Object.keys(req.data).length === 0) throw badRequest('empty request body');
        return { wrapInfo: await wrapping.wrap(req.namespace, { data: req.data }, wrapTtlOf(req.headers) ?? DEFAULT_WRAP_TTL, 'sys/wrapping/wrap') };
      },
    },
    {
      pattern: /^wrapping\/lookup$/,
      operations: ['update', 'read'],
      unauthenticated: true,
      async handle(req) {
        return wrapping.lookup(tokenOf(req));
      },
    },
    {
      pattern: /^wrapping\/unwrap$/,
      operations: ['update'],
      unauthenticated: true,
      async handle(req) {
        return wrapping.unwrap(tokenOf(req));
      },
    },
    {
      pattern: /^wrapping\/rewrap$/,
      operations: ['update'],
      unauthenticated: true,
      async handle(req) {
        return wrapping.rewrap(tokenOf(req));
      },
    },
  ];
}
