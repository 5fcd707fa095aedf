// The authoriser used until the access half (tokens and policies) is installed: only root tokens issued at init or
// in dev mode exist, each stored as a keyed hash; any other token is denied.
import { createHmac, randomBytes } from 'node:crypto';
import { badRequest, permissionDenied, type Authorizer, type LogicalRequest, type Namespace, type SecretsCore, type TokenSummary } from '../contract.ts';
import { ROOT_NAMESPACE } from '../namespaces/registry.ts';

interface StoredRoot {
  accessor: string;
  namespace_id: string;
}

export function rootOnlyAuthorizer(core: SecretsCore): Authorizer {
  const store = () => core.systemStorage(ROOT_NAMESPACE).view('root-tokens/');
  const hash = async (token: string) => createHmac('sha256', await core.salt()).update(token).digest('hex');
  const lookup = async (token: string): Promise<TokenSummary | undefined> => {
    if (!token) return undefined;
    const found = await store().get<StoredRoot>(await hash(token));
    if (!found) return undefined;
    return { id: token, accessor: found.accessor, policies: ['root'], namespaceId: found.namespace_id, path: 'auth/token/root', displayName: 'root', entityId: '' };
  };
  return {
    async authorize(req: LogicalRequest) {
      const token = await lookup(req.clientToken);
      if (!token) throw permissionDenied();
      return { root: true, token, policies: ['root'] };
    },
    async capabilities(token: string) {
      return (await lookup(token)) ? ['root'] : ['deny'];
    },
    async createRootToken(ns: Namespace, id?: string) {
      const token = id ?? `hvs.${randomBytes(18).toString('base64url')}`;
      await store().put(await hash(token), { accessor: randomBytes(12).toString('base64url'), namespace_id: ns.id });
      return token;
    },
    lookup,
    // Wrapping tokens are real tokens: without the token store none can be issued, so none is ever valid.
    async createWrappingToken() {
      throw badRequest('response wrapping needs the token store');
    },
    async readWrapping() {
      return undefined;
    },
    async takeWrapping() {
      return undefined;
    },
  };
}
