// sys/leases: no engine here issues leases (KV reads report lease_id ""), so every lease id is unknown. The routes
// exist so that clients calling them get Vault's answers for an unknown lease instead of a missing route.
import { badRequest, type LogicalRequest } from '../contract.ts';
import type { CoreRoute } from './route.ts';

const leaseId = (req: LogicalRequest, fromPath?: string): string => {
  const id = fromPath || req.data.lease_id || req.data.lease;
  if (typeof id !== 'string' || id === '') throw badRequest('missing lease ID');
  return id;
};

export function leaseRoutes(): CoreRoute[] {
  return [
    {
      pattern: /^leases\/lookup\/?$/,
      operations: ['update'],
      async handle(req) {
        leaseId(req);
        throw badRequest('invalid lease');
      },
    },
    {
      pattern: /^(?:leases\/renew|renew)(?:\/(.+))?$/,
      operations: ['update'],
      async handle(req, m) {
        leaseId(req, m[1]);
        throw badRequest('lease not found');
      },
    },
    {
      // Revoking a lease that does not exist succeeds, as in Vault.
      pattern: /^(?:leases\/revoke|revoke)(?:\/(.+))?$/,
      operations: ['update'],
      async handle(req, m) {
        leaseId(req, m[1]);
        return null;
      },
    },
    {
      pattern: /^(?:leases\/revoke-prefix|revoke-prefix|leases\/revoke-force|revoke-force)\/(.+)$/,
      operations: ['update'],
      rootProtected: true,
      async handle() {
        return null;
      },
    },
  ];
}
