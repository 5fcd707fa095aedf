// sys/internal/specs/openapi: one OpenAPI 3 document of every mount of the namespace (paths prefixed by the mount)
// plus the sys routes, built from the same path tables as ?help=1.
import type { LogicalRequest } from '../contract.ts';
import type { CoreRoute, SysDeps } from './route.ts';

export function openapiRoutes(deps: SysDeps, sysRoutes: () => CoreRoute[]): CoreRoute[] {
  return [
    {
      pattern: /^internal\/specs\/openapi$/,
      operations: ['read'],
      unauthenticated: true,
      async handle(req: LogicalRequest) {
        const paths: Record<string, unknown> = {};
        for (const kind of ['secret', 'auth'] as const) {
          for (const m of await deps.core.mounts.backends(req.namespace, kind)) {
            const help = m.backend.help?.(req);
            if (!help) continue;
            const prefix = '/' + (kind === 'auth' ? 'auth/' : '') + m.entry.path.replace(/\/$/, '');
            for (const [p, item] of Object.entries(help.paths)) paths[prefix + p] = item;
          }
        }
        for (const r of sysRoutes()) {
          const shown = r.pattern.source.replace(/^\^/, '').replace(/\$$/, '').replace(/\\\//g, '/').replace(/\/\?$/, '');
          if (/[()[\]|+*?]/.test(shown)) continue;
          paths[`/sys/${shown}`] = { description: r.help ?? `System endpoint sys/${shown}.`, 'x-vault-unauthenticated': Boolean(r.unauthenticated) };
        }
        return {
          data: {
            openapi: '3.0.2',
            info: { title: 'HashiCorp Vault API', description: 'HTTP API that gives you full access to Vault.', version: deps.version, license: { name: 'Mozilla Public License 2.0', url: 'https://www.mozilla.org/en-US/MPL/2.0' } },
            paths,
            components: { schemas: {} },
          },
        };
      },
    },
  ];
}
