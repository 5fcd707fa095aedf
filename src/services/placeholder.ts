// A listener for an interface twinstack does not implement yet: every request gets that API family's
// "not implemented" error, so a client sees a clear answer instead of a refused connection.
import { installGoogleFamily, unimplemented } from '../core/google/index.ts';
import type { ServiceId, ServiceManifest } from '../core/service.ts';

export function placeholderService(id: ServiceId, title: string): ServiceManifest {
  return {
    id,
    title: `${title} (not implemented yet)`,
    placeholder: true,
    migrations: {},
    tables: [],
    async register(app) {
      installGoogleFamily(app);
      app.all('/*', unimplemented(`The ${title} interface`));
    },
  };
}
