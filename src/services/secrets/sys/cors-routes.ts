// sys/config/cors: read, configure and disable CORS (sudo).
import type { CoreRoute, SysDeps } from './route.ts';

export function corsRoutes(deps: SysDeps): CoreRoute[] {
  return [
    {
      pattern: /^config\/cors$/,
      operations: ['read', 'update', 'delete'],
      rootProtected: true,
      rootNamespaceOnly: true,
      async handle(req) {
        if (req.operation === 'read') {
          const c = await deps.cors.current();
          const data: Record<string, unknown> = { enabled: c.enabled };
          if (c.enabled) Object.assign(data, { allowed_origins: c.allowed_origins, allowed_headers: c.allowed_headers, allow_credentials: c.allow_credentials });
          return { data, topLevelData: true };
        }
        if (req.operation === 'delete') await deps.cors.disable();
        else await deps.cors.update(req.data);
        return null;
      },
    },
  ];
}
