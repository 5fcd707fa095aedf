// sys/wrapping/wrap, lookup, unwrap and rewrap.
import { badRequest, type LogicalRequest } from '../contract.ts';
import type { CoreRoute } from './route.ts';
import { DEFAULT_WRAP_TTL, wrapTtlOf, type Wrapping } from './wrapping.ts';

/** The wrapping token from the body, or the one presented as the client token. */
const tokenOf = (req: LogicalRequest): unknown => req.data.token ?? req.clientToken;

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
