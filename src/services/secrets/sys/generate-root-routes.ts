// sys/generate-root/attempt (GET status, PUT start, DELETE cancel) and sys/generate-root/update {key, nonce}.
import { badRequest } from '../contract.ts';
import { ROOT_NAMESPACE } from '../namespaces/registry.ts';
import type { GenerateRoot } from '../seal/generate-root.ts';
import type { CoreRoute, SysDeps } from './route.ts';
import { field } from './route.ts';
import { decodeKey } from './seal-routes.ts';

export function generateRootRoutes(deps: SysDeps, generate: GenerateRoot): CoreRoute[] {
  return [
    {
      pattern: /^generate-root\/attempt$/,
      httpHandler: true,
      operations: ['read', 'update', 'delete'],
      unauthenticated: true,
      rootNamespaceOnly: true,
      async handle(req) {
        if (req.operation === 'read') return { raw: { status: 200, body: await generate.status() } };
        if (req.operation === 'delete') {
          generate.cancel();
          return null;
        }
        if (req.data.pgp_key !== undefined) throw badRequest('PGP-encrypted root tokens are not supported');
        return { raw: { status: 200, body: await generate.start() } };
      },
    },
    {
      pattern: /^generate-root\/update$/,
      httpHandler: true,
      operations: ['update'],
      unauthenticated: true,
      rootNamespaceOnly: true,
      async handle(req) {
        const status = await generate.update(decodeKey(field(req.data, 'key')), field(req.data, 'nonce'), (id) =>
          deps.core.authorizer.createRootToken(ROOT_NAMESPACE, id),
        );
        return { raw: { status: 200, body: status } };
      },
    },
  ];
}
