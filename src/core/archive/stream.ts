// The archive's bytes: JSON lines through gzip, written with back-pressure and read line by line; files written
// atomically (a temporary file beside the target, synced, then renamed), so a reader never sees half an archive.
import { once } from 'node:events';
import { createWriteStream, rmSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { finished, pipeline } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { badArchive } from './format.ts';

export interface LineWriter {
  write(value: unknown): Promise<void>;
  end(): Promise<void>;
}

export function lineWriter(out: Writable): LineWriter {
  const gzip = createGzip();
  const done = pipeline(gzip, out);
  // A failure downstream surfaces through `done`; keep it from being reported as unhandled meanwhile.
  done.catch(() => undefined);
  return {
    async write(value) {
      if (!gzip.write(JSON.stringify(value) + '\n')) await Promise.race([once(gzip, 'drain'), done]);
    },
    async end() {
      gzip.end();
      await done;
    },
  };
}

/** The parsed lines of an archive, in order. */
export async function* lineReader(input: Readable): AsyncGenerator<unknown> {
  const gunzip = createGunzip();
  input.on('error', (err) => gunzip.destroy(err));
  const lines = createInterface({ input: input.pipe(gunzip), crlfDelay: Infinity });
  let n = 0;
  try {
    for await (const line of lines) {
      n++;
      if (line === '') continue;
      try {
        yield JSON.parse(line);
      } catch {
        throw badArchive(`line ${n} is not JSON`);
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('Z_')) throw badArchive(`not gzip data or cut short (${(err as Error).message})`);
    throw err;
  } finally {
    lines.close();
    input.destroy();
  }
}

// Temporary files being written: a process that exits meanwhile (a second signal) removes them on its way out.
const unfinished = new Set<string>();
let cleanupInstalled = false;

function track(tmp: string): void {
  if (!cleanupInstalled) {
    process.once('exit', () => unfinished.forEach((f) => rmSync(f, { force: true })));
    cleanupInstalled = true;
  }
  unfinished.add(tmp);
}

/** Runs `write` on a temporary file and renames it to `path` once complete and synced; removes it on failure. */
export async function writeAtomically<T>(path: string, write: (out: Writable) => Promise<T>): Promise<T> {
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  track(tmp);
  try {
    const result = await write(createWriteStream(tmp, { mode: 0o600 }));
    const handle = await open(tmp, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
    return result;
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  } finally {
    unfinished.delete(tmp);
  }
}

export function writeBytesAtomically(path: string, data: Buffer): Promise<void> {
  return writeAtomically(path, async (out) => {
    out.end(data);
    await finished(out);
  });
}

