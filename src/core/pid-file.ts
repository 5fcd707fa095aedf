// A file holding the running process's id, for scripts that start twinstack in the background and stop it later.
// Written before anything else (a path that cannot be written stops the start at once), removed when the process exits.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Writes the pid atomically and removes the file at exit, unless another process has claimed it since. */
export function writePidFile(path: string): void {
  const file = resolve(path);
  const pending = `${file}.${process.pid}.tmp`;
  writeFileSync(pending, `${process.pid}\n`);
  renameSync(pending, file);
  process.once('exit', () => removePidFile(file));
}

function removePidFile(file: string): void {
  try {
    if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
  } catch {
    // already gone
  }
}
