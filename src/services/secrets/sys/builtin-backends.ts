// Engines every namespace has: cubbyhole (a KV v1 private to each token, keyed by its accessor) and identity
// (present in the mount table; its API is not served).
import { permissionDenied, unsupportedPath, type Backend, type BackendFactory } from '../contract.ts';
import { kvV1 } from '../kv/v1.ts';

export const cubbyholeBackend: BackendFactory = (ctx): Backend => {
  const forToken = (accessor: string) => kvV1({ ...ctx, storage: ctx.storage.view(`${accessor}/`) });
  const accessorOf = (req: Parameters<Backend['handle']>[0]) => {
    const accessor = req.auth?.token.accessor;
    if (!accessor) throw permissionDenied();
    return accessor;
  };
  return {
    arbitraryInputPaths: ['*'],
    async exists(req) {
      // The existence check runs before authorisation, when the token's accessor is not known yet.
      const accessor = req.auth?.token.accessor;
      return accessor ? forToken(accessor).exists!(req) : false;
    },
    async handle(req) {
      return forToken(accessorOf(req)).handle(req);
    },
  };
};

export const identityBackend: BackendFactory = (): Backend => ({
  async handle() {
    throw unsupportedPath();
  },
});
