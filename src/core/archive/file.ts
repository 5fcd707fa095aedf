// Archives as files: written atomically (a reader or a crash never leaves half an archive under the name).
import { createReadStream } from 'node:fs';
import type { Runtime } from '../runtime.ts';
import type { ArchiveManifest } from './format.ts';
import { exportArchive, type ExportOptions } from './export.ts';
import { checkManifest, importArchive, type ImportOptions, type ImportSummary } from './import.ts';
import { lineReader, writeAtomically } from './stream.ts';

export function exportToFile(rt: Runtime, path: string, options: ExportOptions = {}): Promise<ArchiveManifest> {
  return writeAtomically(path, (out) => exportArchive(rt, out, options));
}

export function importFromFile(rt: Runtime, path: string, options: ImportOptions = {}): Promise<ImportSummary> {
  return importArchive(rt, createReadStream(path), options);
}

/** The manifest of an archive file, read without the rest. */
export async function readManifest(path: string): Promise<ArchiveManifest> {
  const lines = lineReader(createReadStream(path));
  try {
    const first = await lines.next();
    return checkManifest(first.done ? undefined : first.value);
  } finally {
    await lines.return(undefined);
  }
}
