// sys/namespaces: list the children of the caller's namespace, create (nested by path), read, patch metadata, delete.
import { badRequest, notFound, type Namespace } from '../contract.ts';
import { parseStringMap } from '../http/fields.ts';
import type { CoreRoute, SysDeps } from '../sys/route.ts';
import { canonicalNamespacePath, namespacePrefix } from './registry.ts';

const view = (ns: Namespace, relativeTo: Namespace) => ({
  id: ns.id,
  path: ns.path.slice(relativeTo.path.length),
  custom_metadata: ns.customMetadata ?? {},
});

export function namespaceRoutes(deps: SysDeps): CoreRoute[] {
  const { core } = deps;
  return [
    {
      pattern: /^namespaces\/?$/,
      operations: ['list'],
      async handle(req) {
        const children = await core.namespaces.children(req.namespace);
        if (!children.length) throw notFound();
        const keys = children.map((c) => c.path.slice(req.namespace.path.length));
        const key_info: Record<string, unknown> = {};
        children.forEach((c, i) => (key_info[keys[i]!] = view(c, req.namespace)));
        return { data: { keys, key_info } };
      },
    },
    {
      pattern: /^namespaces\/(.+)$/,
      operations: ['read', 'create', 'update', 'patch', 'delete'],
      async exists(req, m) {
        return (await core.namespaces.byPath(req.namespace.path + canonicalNamespacePath(m[1]!))) !== undefined;
      },
      async handle(req, m) {
        const relative = canonicalNamespacePath(m[1]!);
        if (!relative) throw badRequest('missing namespace path');
        const full = req.namespace.path + relative;
        const existing = await core.namespaces.byPath(full);
        switch (req.operation) {
          case 'read':
            if (!existing) throw notFound();
            return { data: view(existing, req.namespace) };
          case 'create':
          case 'update': {
            const custom = parseStringMap(req.data.custom_metadata, 'custom_metadata');
            if (existing) return { data: view(existing, req.namespace) };
            const parts = relative.split('/').filter(Boolean);
            const parent = await core.namespaces.byPath(req.namespace.path + parts.slice(0, -1).map((p) => p + '/').join(''));
            if (!parent) throw badRequest(`parent namespace does not exist`);
            const { ns } = await core.namespaces.create(parent, parts[parts.length - 1]!, custom);
            await core.prepareNamespace(ns);
            return { data: view(ns, req.namespace) };
          }
          case 'patch': {
            if (!existing) throw notFound();
            const patch = req.data.custom_metadata;
            const merged: Record<string, string> = { ...(existing.customMetadata ?? {}) };
            for (const [k, v] of Object.entries(parseStringMapOrNulls(patch))) {
              if (v === null) delete merged[k];
              else merged[k] = v;
            }
            return { data: view(await core.namespaces.updateMetadata(existing, merged), req.namespace) };
          }
          case 'delete': {
            if (!existing) return { warnings: ['requested namespace does not exist'] };
            if ((await core.namespaces.children(existing)).length) throw badRequest('unable to delete namespace containing child namespaces');
            await core.plugin?.onNamespaceDeleted?.(existing);
            await core.root.view(namespacePrefix(existing)).clear();
            await core.namespaces.remove(existing);
            core.mounts.invalidate();
            return { data: { status: 'in-progress' } };
          }
          default:
            throw badRequest('unsupported operation');
        }
      },
    },
  ];
}

function parseStringMapOrNulls(value: unknown): Record<string, string | null> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('invalid map for custom_metadata');
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v !== null && typeof v !== 'string') throw badRequest(`custom_metadata values must be strings; ${JSON.stringify(k)} is not`);
    out[k] = v as string | null;
  }
  return out;
}
