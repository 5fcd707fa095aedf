// Turning stored files into File resources for the caller (one batch of context queries per page).
import type { Kysely } from 'kysely';
import type { Role } from '../domain/roles.ts';
import { exportTargets } from '../ops/convert.ts';
import { fileJson, loadContexts } from '../resources.ts';
import type { FilesService } from '../service.ts';
import type { FileRecord } from '../store/files.ts';
import type { Caller } from '../users.ts';

export async function renderFiles(svc: FilesService, caller: Caller, files: FileRecord[], db: Kysely<any> = svc.db, roles?: Map<string, Role>): Promise<Record<string, unknown>[]> {
  const contexts = await loadContexts(db, caller, files, svc.now(), roles);
  return Promise.all(files.map((f) => fileJson(svc, caller, f, contexts.get(f.id)!, exportTargets)));
}

/** `role`: the caller's role on the file when the access check just read it. */
export async function renderFile(svc: FilesService, caller: Caller, file: FileRecord, role?: Role): Promise<Record<string, unknown>> {
  return (await renderFiles(svc, caller, [file], svc.db, role ? new Map([[file.id, role]]) : undefined))[0];
}
