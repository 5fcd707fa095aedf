// Blob bytes as files under `<root>/<first two hex>/<hash>`. A file is written (and synced) before the unit of work
// that references it commits, and removed only after the commit that dropped its last reference.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export class FilesystemBlobs {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  pathOf(hash: string): string {
    return join(this.root, hash.slice(0, 2), hash);
  }

  /** Writes the content unless a file with this hash already exists (content addressing makes it the same bytes). */
  async write(hash: string, data: Buffer): Promise<void> {
    const path = this.pathOf(hash);
    if (await exists(path)) return;
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  }

  /** Bytes [start, end) of a stored file. */
  async read(hash: string, start: number, end: number): Promise<Buffer> {
    const handle = await open(this.pathOf(hash), 'r');
    try {
      const out = Buffer.alloc(end - start);
      let done = 0;
      while (done < out.length) {
        const { bytesRead } = await handle.read(out, done, out.length - done, start + done);
        if (bytesRead === 0) throw new Error(`blob ${hash} is shorter than recorded`);
        done += bytesRead;
      }
      return out;
    } finally {
      await handle.close();
    }
  }

  async remove(hash: string): Promise<void> {
    await unlink(this.pathOf(hash)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }

  async has(hash: string): Promise<boolean> {
    return exists(this.pathOf(hash));
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
