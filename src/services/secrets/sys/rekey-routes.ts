// sys/rekey/init (GET status, PUT start {secret_shares, secret_threshold}, DELETE cancel) and sys/rekey/update.
import { badRequest } from '../contract.ts';
import { parseInteger } from '../http/fields.ts';
import type { Rekey } from '../seal/rekey.ts';
import type { CoreRoute } from './route.ts';
import { field } from './route.ts';
import { decodeKey } from './seal-routes.ts';

/** `rekeyed` learns the new unseal key (dev mode keeps a single share up to date). */
export function rekeyRoutes(rekey: Rekey, rekeyed: (unsealKey: Buffer, shares: number) => Promise<void>): CoreRoute[] {
  return [
    {
      pattern: /^rekey\/init$/,
      httpHandler: true,
      operations: ['read', 'update', 'delete'],
      unauthenticated: true,
      rootNamespaceOnly: true,
      async handle(req) {
        if (req.operation === 'read') return { raw: { status: 200, body: await rekey.status() } };
        if (req.operation === 'delete') {
          rekey.cancel();
          return null;
        }
        if (req.data.pgp_keys !== undefined || req.data.backup !== undefined) throw badRequest('PGP-encrypted shares and backups are not supported');
        const shares = parseInteger(field(req.data, 'secret_shares') ?? 0, 'secret_shares');
        const threshold = parseInteger(field(req.data, 'secret_threshold') ?? 0, 'secret_threshold');
        return { raw: { status: 200, body: await rekey.start(shares, threshold) } };
      },
    },
    {
      pattern: /^rekey\/update$/,
      httpHandler: true,
      operations: ['update'],
      unauthenticated: true,
      rootNamespaceOnly: true,
      async handle(req) {
        const result = await rekey.update(decodeKey(field(req.data, 'key')), field(req.data, 'nonce'));
        if ('unsealKey' in result) {
          const { unsealKey, ...body } = result;
          await rekeyed(unsealKey, body.keys.length);
          return { raw: { status: 200, body } };
        }
        return { raw: { status: 200, body: result } };
      },
    },
  ];
}
