// sys/auth: list, enable, read, tune and disable auth methods of the request's namespace. Disabling a method
// revokes the tokens it issued. `token/` cannot be disabled.
import { badRequest, type LogicalRequest, type MountEntry, type SystemRoute } from '../contract.ts';
import type { TokenEntry } from '../token/entry.ts';
import { tuneView } from '../sys/mount-routes.ts';
import type { Access } from './access.ts';
import { boolField, stringField } from './fields.ts';

const normalise = (raw: string) => `${raw.replace(/^\/+|\/+$/g, '')}/`;

function entryData(m: MountEntry): Record<string, unknown> {
  const { path: _path, ...rest } = m;
  return { ...rest, config: { ...m.config, token_type: m.config.token_type ?? 'default-service' } };
}

export function sysAuthRoutes(access: () => Access): SystemRoute[] {
  const mounts = () => access().core.mounts;

  async function revokeIssuedBy(req: LogicalRequest, path: string): Promise<void> {
    const prefix = `auth/${path}`;
    const view = access().core.systemStorage(req.namespace).view('token/');
    for (const hash of await view.list('id/')) {
      const entry = await view.get<TokenEntry>(`id/${hash}`);
      if (entry?.path.startsWith(prefix)) await access().tokens.revokeTree(entry);
    }
  }

  return [
    {
      pattern: /^auth\/?$/,
      help: '## DESCRIPTION\n\nLists the enabled auth methods.\n',
      operations: ['read'],
      handle: async (req) => {
        const data: Record<string, unknown> = {};
        for (const m of await mounts().list(req.namespace, 'auth')) data[m.path] = entryData(m);
        return { data, topLevelData: true };
      },
    },
    {
      pattern: /^auth\/(.+)\/tune$/,
      help: '## DESCRIPTION\n\nReads or tunes the TTLs and description of an auth method (sudo).\n',
      operations: ['read', 'update'],
      rootProtected: true,
      handle: async (req, m) => {
        const path = normalise(m[1]);
        if (req.operation === 'read') {
          const entry = await mounts().get(req.namespace, 'auth', path);
          if (!entry) throw badRequest(`cannot fetch sysview for path "auth/${path}"`);
          return { data: tuneView(entry, 'auth'), topLevelData: true };
        }
        await mounts().tune(req.namespace, 'auth', path, req.data);
        return null;
      },
    },
    {
      pattern: /^auth\/(.+)$/,
      help: '## DESCRIPTION\n\nEnables (type, description, config, options), reads or disables an auth method (sudo).\n',
      operations: ['read', 'create', 'update', 'delete'],
      rootProtected: true,
      exists: async (req, m) => (await mounts().get(req.namespace, 'auth', normalise(m[1]))) !== undefined,
      handle: async (req, m) => {
        const path = normalise(m[1]);
        if (req.operation === 'read') {
          const entry = await mounts().get(req.namespace, 'auth', path);
          if (!entry) throw badRequest(`No auth engine at auth/${path}`);
          return { data: entryData(entry), topLevelData: true };
        }
        if (req.operation === 'delete') {
          if (path === 'token/') throw badRequest('token credential backend cannot be disabled');
          if (await mounts().get(req.namespace, 'auth', path)) await revokeIssuedBy(req, path);
          await mounts().unmount(req.namespace, 'auth', path);
          return null;
        }
        const type = stringField(req.data, 'type');
        if (!type) throw badRequest('backend type must be specified as a string');
        const config = req.data.config;
        const options = req.data.options;
        if (config !== undefined && (typeof config !== 'object' || config === null || Array.isArray(config))) throw badRequest('config must be an object');
        if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) throw badRequest('options must be an object');
        await mounts().mount(req.namespace, 'auth', {
          path,
          type,
          description: stringField(req.data, 'description') ?? '',
          config: config as Record<string, unknown> | undefined,
          options: options as Record<string, unknown> | null | undefined,
          local: boolField(req.data, 'local') ?? false,
          seal_wrap: boolField(req.data, 'seal_wrap') ?? false,
        });
        return null;
      },
    },
  ];
}
