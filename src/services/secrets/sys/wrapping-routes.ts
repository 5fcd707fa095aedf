// sys/wrapping/wrap, lookup, unwrap and rewrap.
import { badRequest, SecretsError, type LogicalRequest } from '../contract.ts';
import type { CoreRoute } from './route.ts';
import { DEFAULT_WRAP_TTL, wrapTtlOf, type Wrapping } from './wrapping.ts';

/** Vault refuses a wrapping token it cannot even read with 403 and this prefix, before looking it up. */
const unreadable = (why: string) => new SecretsError(403, `error validating wrapping token: ${why}`);

/** The wrapping token from the body (undefined when the body names none). */
function bodyTokenOf(req: LogicalRequest): string | undefined {
  const fromBody = req.data.token;
  if (fromBody === undefined || fromBody === null) return undefined;
  if (typeof fromBody !== 'string') throw unreadable('could not decode token in request body');
  if (fromBody === '') throw unreadable('empty token in request body');
  return fromBody;
}

/** The wrapping token from the body, or the one presented as the client token. */
function tokenOf(req: LogicalRequest): string {
  const token = bodyTokenOf(req) ?? req.clientToken;
  if (!token) throw unreadable('token is empty');
  return token;
}

export function wrappingRoutes(wrapping: Wrapping): CoreRoute[] {
  // As in Vault, the wrapping token is validated before the caller's token is: a bad one answers 400 even to a
  // request without a client token, which a good one then does not save from 403.
  const verifyWrappingToken = async (req: LogicalRequest) => wrapping.verify(tokenOf(req));
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
      beforeAuthorization: verifyWrappingToken,
      async handle(req) {
        const fromBody = bodyTokenOf(req);
        if (fromBody !== undefined) return wrapping.unwrap(fromBody);
        // the wrapping token is the client token: its policy allowed this path, and authorising it spent its one use
        return wrapping.unwrap(req.clientToken, { spentByThisRequest: true });
      },
    },
    {
      pattern: /^wrapping\/rewrap$/,
      operations: ['update'],
      beforeAuthorization: verifyWrappingToken,
      async handle(req) {
        return wrapping.rewrap(tokenOf(req));
      },
    },
  ];
}
