// Helpers for tests that run the `twinstack` program itself: a free block of ports and waiting for its output.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const BIN = join(import.meta.dirname, '../../bin/twinstack.js');

/** A free block of ten consecutive ports (admin plus nine services). */
export async function freePortBase(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 30000);
    const ok = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        new Promise<boolean>((resolve) => {
          const s = createServer();
          s.once('error', () => resolve(false));
          s.listen(base + i, '127.0.0.1', () => s.close(() => resolve(true)));
        }),
      ),
    );
    if (ok.every(Boolean)) return base;
  }
  throw new Error('no free port block');
}

/** Resolves with everything the child printed once `pattern` appears on its stdout; rejects if it exits first. */
export function waitForOutput(child: ChildProcess, pattern: RegExp, ms = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in output:\n${out}`)), ms);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (pattern.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}:\n${out}`));
    });
  });
}
