// The access half as the core sees it: auth method types, the sys routes it owns, and the authoriser and auditor
// built once the core exists.
import type { SecretsCore, SecretsPlugin } from '../contract.ts';
import { FileAuditor } from '../audit/auditor.ts';
import { auditRoutes } from '../audit/routes.ts';
import { capabilitiesRoutes } from '../policy/capabilities-routes.ts';
import { policyRoutes } from '../policy/routes.ts';
import { tokenBackend } from '../token/backend.ts';
import { Access } from './access.ts';
import { approleBackend } from './approle.ts';
import { sysAuthRoutes } from './sys-auth-routes.ts';
import { userpassBackend } from './userpass.ts';

export function createAccessPlugin(): SecretsPlugin {
  let access: Access | undefined;
  let auditor: FileAuditor | undefined;
  const installed = () => {
    if (!access) throw new Error('the access plugin is not installed yet');
    return access;
  };
  const audit = () => {
    if (!auditor) throw new Error('the access plugin is not installed yet');
    return auditor;
  };
  return {
    credentialBackends: {
      token: (ctx) => tokenBackend(installed(), ctx),
      userpass: (ctx) => userpassBackend(installed(), ctx),
      approle: (ctx) => approleBackend(installed(), ctx),
    },
    systemRoutes: [...sysAuthRoutes(installed), ...policyRoutes(installed), ...capabilitiesRoutes(installed), ...auditRoutes(audit)],
    install(core: SecretsCore) {
      access = new Access(core);
      auditor = new FileAuditor(core);
      return { authorizer: access, auditor };
    },
    async onNamespace(ns) {
      await installed().policies.seed(ns);
      installed().policies.invalidate();
      auditor?.reset();
    },
    async onNamespaceDeleted(ns) {
      await installed().tokens.purgeNamespace(ns);
      installed().policies.invalidate();
    },
  };
}

export const accessPlugin: SecretsPlugin = createAccessPlugin();
