// sys/capabilities-self, sys/capabilities (any token) and sys/capabilities-accessor: what a token may do on paths.
import { dictionary } from '../../../core/own.ts';
import { badRequest, type LogicalRequest, type LogicalResponse, type SystemRoute } from '../contract.ts';
import type { Access } from '../auth/access.ts';
import { stringField, stringListField } from '../auth/fields.ts';

async function answer(access: Access, req: LogicalRequest, token: string): Promise<LogicalResponse> {
  const paths = stringListField(req.data, 'paths') ?? stringListField(req.data, 'path') ?? [];
  if (paths.length === 0) throw badRequest("missing required 'paths' parameter");
  const data = dictionary<unknown>();
  for (const path of paths) data[path] = await access.capabilities(token, req.namespace, path);
  if (paths.length === 1) data.capabilities = data[paths[0]];
  return { data, topLevelData: true };
}

export function capabilitiesRoutes(access: () => Access): SystemRoute[] {
  return [
    {
      pattern: /^capabilities-self$/,
      help: '## DESCRIPTION\n\nCapabilities of the calling token on the given paths.\n',
      operations: ['update'],
      handle: (req) => answer(access(), req, req.clientToken),
    },
    {
      pattern: /^capabilities$/,
      help: '## DESCRIPTION\n\nCapabilities of a token on the given paths.\n',
      operations: ['update'],
      handle: async (req) => {
        const token = stringField(req.data, 'token');
        if (!token) throw badRequest("missing required 'token' parameter");
        return answer(access(), req, token);
      },
    },
    {
      pattern: /^capabilities-accessor$/,
      help: '## DESCRIPTION\n\nCapabilities of the token with the given accessor on the given paths.\n',
      operations: ['update'],
      handle: async (req) => {
        const accessor = stringField(req.data, 'accessor');
        if (!accessor) throw badRequest("missing required 'accessor' parameter");
        const entry = await access().tokens.lookupByAccessor(accessor);
        if (!entry) throw badRequest('invalid accessor');
        const data = dictionary<unknown>();
        const paths = stringListField(req.data, 'paths') ?? stringListField(req.data, 'path') ?? [];
        if (paths.length === 0) throw badRequest("missing required 'paths' parameter");
        const ns = (await access().core.namespaceById(entry.namespaceId)) ?? req.namespace;
        const acl = await access().policies.acl(ns, entry.policies);
        for (const path of paths) data[path] = acl.capabilities(path.replace(/^\/+/, ''));
        if (paths.length === 1) data.capabilities = data[paths[0]];
        return { data, topLevelData: true };
      },
    },
  ];
}
