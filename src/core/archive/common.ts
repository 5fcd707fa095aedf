// What export and import share: the services an archive covers, the key check, how service files are sealed.
import type { Vault } from '../crypto.ts';
import type { Runtime } from '../runtime.ts';
import type { ServiceId, ServiceManifest } from '../service.ts';
import { whenWarm } from '../warm-up.ts';
import { ArchiveError } from './format.ts';

/** Called as rows, blobs and files go by: how many so far, of how many. */
export type Progress = (done: number, total: number) => void;

/** An HMAC of a fixed label under (a key derived from) the master key: equal exactly when the keys are. */
export const keyCheck = (vault: Vault): string => vault.lookupHash('twinstack archive key check');

/** Binds a sealed service file to its name, so one cannot be passed off as another. */
export const fileAad = (name: string): string => `archive-file:${name}`;

/** The manifests of the named services (each must be running), or of every running service. */
export function selectManifests(rt: Runtime, ids?: ServiceId[]): ServiceManifest[] {
  if (!ids) return [...rt.services.values()].map((s) => s.manifest);
  return [...new Set(ids)].map((id) => {
    const running = rt.services.get(id);
    if (!running) throw new ArchiveError(409, `service ${id} is not running here`);
    return running.manifest;
  });
}

/**
 * Waits until no service is still loading its shipped data (the book catalog, the entity graph), so an export holds
 * all of it and an import is not followed by rows a load was still writing. A failed load leaves what it wrote.
 */
export async function whenLoaded(rt: Runtime, manifests: ServiceManifest[]): Promise<void> {
  for (const m of manifests) await whenWarm([rt.services.get(m.id)!.ctx]).catch(() => undefined);
}
