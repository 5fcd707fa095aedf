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
  // Each store core gets its own state (two runtimes may share this module); backends find theirs by core.
  const byCore = new WeakMap<SecretsCore, { access: Access; auditor: FileAuditor }>();
  let latest: { access: Access; auditor: FileAuditor } | undefined;
  const stateOf = (core: SecretsCore) => {
    const state = byCore.get(core);
    if (!state) throw new Error('the access plugin is not installed on this core');
    return state.access;
  };
  const current = () => {
    if (!latest) throw new Error('the access plugin is not installed yet');
    return latest;
  };
  return {
    credentialBackends: {
      token: (ctx) => tokenBackend(stateOf(ctx.core), ctx),
      userpass: (ctx) => userpassBackend(stateOf(ctx.core), ctx),
      approle: (ctx) => approleBackend(stateOf(ctx.core), ctx),
    },
    /** Read by the core right after `install`, so the routes are bound to that core's state. */
    get systemRoutes() {
      const { access, auditor } = current();
      return [...sysAuthRoutes(() => access), ...policyRoutes(() => access), ...capabilitiesRoutes(() => access), ...auditRoutes(() => auditor)];
    },
    install(core: SecretsCore) {
      latest = { access: new Access(core), auditor: new FileAuditor(core) };
      const auditor = latest.auditor;
      latest.access.onDenied = (req, err) => auditor.logDenied(req, err);
      byCore.set(core, latest);
      return { authorizer: latest.access, auditor: latest.auditor };
    },
    async onNamespace(ns) {
      const { access, auditor } = current();
      await access.policies.seed(ns);
      access.policies.invalidate();
      auditor.reset();
    },
    async onNamespaceDeleted(ns) {
      const { access } = current();
      await access.tokens.purgeNamespace(ns);
      access.policies.invalidate();
    },
  };
}
