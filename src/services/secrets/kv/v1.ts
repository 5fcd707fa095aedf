// KV version 1: a flat map per path, no versions. Listing works on directories only (paths ending in `/`).
import { badRequest, notFound, unsupportedOperation, type Backend, type BackendContext, type LogicalRequest, type LogicalResponse } from '../contract.ts';
import { parseDurationSeconds } from '../http/fields.ts';
import { kvHelp } from './help.ts';

/** Vault's system default lease (768h), reported by KV v1 reads without a `ttl` in the data. */
export const SYSTEM_DEFAULT_TTL = 2764800;

export function kvV1(ctx: BackendContext): Backend {
  const storage = ctx.storage;
  /** A stored `ttl` (else `lease`) in seconds or as a duration (`30m`); one that does not parse is ignored, as in Vault. */
  const leaseFor = (data: Record<string, unknown>): number => {
    const ttl = Object.hasOwn(data, 'ttl') ? data.ttl : data.lease;
    if (ttl !== undefined) {
      try {
        return parseDurationSeconds(ttl, 'ttl');
      } catch {
        // the mount's default below
      }
    }
    return ctx.mount.config.default_lease_ttl || SYSTEM_DEFAULT_TTL;
  };
  return {
    arbitraryInputPaths: ['*'],
    async exists(req) {
      return storage.has(req.relativePath);
    },
    async handle(req: LogicalRequest): Promise<LogicalResponse | null> {
      const path = req.relativePath;
      switch (req.operation) {
        case 'list': {
          const keys = await storage.list(path);
          if (keys.length === 0) throw notFound();
          return { data: { keys } };
        }
        case 'read': {
          if (path === '' || path.endsWith('/')) throw notFound();
          const data = await storage.get<Record<string, unknown>>(path);
          if (!data) throw notFound();
          return { data, leaseDuration: leaseFor(data) };
        }
        case 'create':
        case 'update': {
          if (path === '' || path.endsWith('/')) throw badRequest('missing path');
          if (Object.keys(req.data).length === 0) throw badRequest('missing data fields');
          await storage.put(path, req.data);
          return null;
        }
        case 'delete':
          if (path === '' || path.endsWith('/')) throw badRequest('missing path');
          await storage.delete(path);
          return null;
        default:
          throw unsupportedOperation();
      }
    },
    help: () => kvHelp(1),
  };
}
