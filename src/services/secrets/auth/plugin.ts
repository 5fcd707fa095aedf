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

/** One plugin per running service (the core creates it at register time), installed on that service's core. */
export function createAccessPlugin(): SecretsPlugin {
  let state: { access: Access; auditor: FileAuditor } | undefined;
  const installed = () => {
    if (!state) throw new Error('the access plugin is not installed yet');
    return state;
  };
  const access = () => installed().access;
  return {
    credentialBackends: {
      token: (ctx) => tokenBackend(access(), ctx),
      userpass: (ctx) => userpassBackend(access(), ctx),
      approle: (ctx) => approleBackend(access(), ctx),
    },
    systemRoutes: [...sysAuthRoutes(access), ...policyRoutes(access), ...capabilitiesRoutes(access), ...auditRoutes(() => installed().auditor)],
    install(core: SecretsCore) {
      const auditor = new FileAuditor(core);
      const authorizer = new Access(core);
      authorizer.onDenied = (req, err) => auditor.logDenied(req, err);
      state = { access: authorizer, auditor };
      return { authorizer, auditor };
    },
    async onNamespace(ns) {
      await access().policies.seed(ns);
      access().policies.invalidate();
    },
    async onNamespaceDeleted(ns) {
      await access().tokens.purgeNamespace(ns);
      access().policies.invalidate();
    },
  };
}
