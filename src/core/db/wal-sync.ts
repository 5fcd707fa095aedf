// fdatasync of a SQLite write-ahead log from the thread pool. SQLite in WAL mode with synchronous=NORMAL writes each
// commit's frames to the log without syncing it; syncing the log file afterwards (any descriptor of the same file
// flushes its pages) makes those commits as durable as synchronous=FULL would, without blocking the event loop.
// The log keeps its inode while the database is open: checkpoints rewrite it from the start, they do not replace it.
import { open, type FileHandle } from 'node:fs/promises';

export class WalSync {
  readonly #path: string;
  #handle: Promise<FileHandle> | undefined;

  constructor(walPath: string) {
    this.#path = walPath;
  }

  /** Flushes every commit made so far to stable storage. */
  async sync(): Promise<void> {
    // Opened on first use: the log exists once the first commit has been written to it.
    this.#handle ??= open(this.#path, 'r');
    try {
      await (await this.#handle).datasync();
    } catch (error) {
      this.#handle = undefined;
      throw error;
    }
  }

  async close(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    await (await handle?.catch(() => undefined))?.close();
  }
}
