// Lowers the calling worker thread below the event loop's priority: when long work and short requests compete for
// the cores, the scheduler serves the short ones first, so a heavy report or conversion slows itself rather than every
// other service. On Linux a thread has its own nice value, addressed by its thread id (/proc/thread-self names it);
// elsewhere the thread keeps the default. Plain JavaScript, for the workers that start without a TypeScript loader.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

export function lowerThreadPriority() {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, 10);
  } catch {
    // No per-thread priority on this platform.
  }
}
