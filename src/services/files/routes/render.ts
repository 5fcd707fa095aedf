// Turning stored files into File resources for the caller (one batch of context queries per page).
import type { Kysely } from 'kysely';
import { exportTargets } from '../ops/convert.ts';
import { fileJson, loadContexts } from '../resources.ts';
import type { FilesService } from '../service.ts';
import type { FileRecord } from '../store/files.ts';
import type { Caller } from '../users.ts';

export async function renderFiles(svc: FilesService, caller: Caller, files: FileRecord[], db: Kysely<any> = svc.db): Promise<Record<string, unknown>[]> {
  const contexts = await loadContexts(db, caller, files, svc.now());
  return Promise.all(files.map((f) => fileJson(svc, caller, f, contexts.get(f.id)!, exportTargets)));
}

export async function renderFile(svc: FilesService, caller: Caller, file: FileRecord): Promise<Record<string, unknown>> {
  return (await renderFiles(svc, caller, [file]))[0];
}
