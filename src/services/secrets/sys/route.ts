// What the core's own sys routes add to the shared SystemRoute shape, and their dependencies.
import type { SystemRoute } from '../contract.ts';
import type { CorsSettings } from '../http/cors.ts';
import type { StoreCore } from './core.ts';

export interface CoreRoute extends SystemRoute {
  /** Served while sealed (init, seal-status, unseal, health, leader). */
  whileSealed?: boolean;
  /**
   * Served by Vault's HTTP layer rather than its logical router (init, seal-status, unseal, seal, health, leader,
   * step-down, generate-root, rekey): another verb answers 405 with no error text, before any token check.
   */
  httpHandler?: boolean;
}

export interface SysDeps {
  core: StoreCore;
  cors: CorsSettings;
  /** `sqlite` or `postgresql`, reported by seal-status. */
  storageType: string;
  version: string;
}

/** Body field lookup ignoring case (Vault decodes some sys bodies into Go structs without tags). */
export function field(data: Record<string, unknown>, name: string): unknown {
  if (name in data) return data[name];
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(data)) if (k.toLowerCase() === lower) return v;
  return undefined;
}
