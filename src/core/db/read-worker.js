// A read-only SQLite connection on a worker thread: runs compiled queries so a long read never blocks the event
// loop every service shares. Plain JavaScript so it starts without a TypeScript loader.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

// Below the event loop's priority: when long reads and short requests compete for the cores, the scheduler serves
// the short ones first, so a heavy report slows itself rather than every other service. On Linux a thread has its
// own nice value, addressed by its thread id (/proc/thread-self names it); elsewhere the reader keeps the default.
try {
  const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, 10);
} catch {
  // No per-thread priority on this platform.
}

const handle = new SQLite(workerData.path, { readonly: true, fileMustExist: true });
handle.pragma('busy_timeout = 5000');
const statements = new Map();

parentPort.on('message', ({ id, sql, parameters, heapStatistics }) => {
  if (heapStatistics) {
    const heap = getHeapStatistics();
    parentPort.postMessage({ id, result: { used: heap.used_heap_size, total: heap.total_heap_size } });
    return;
  }
  try {
    let stmt = statements.get(sql);
    if (!stmt) {
      stmt = handle.prepare(sql);
      if (statements.size > 500) statements.clear();
      statements.set(sql, stmt);
    }
    parentPort.postMessage({ id, result: stmt.all(parameters.map(asBuffer)) });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: err.message, code: err.code } });
  }
});

// Structured clone turns a Buffer into a plain Uint8Array, which better-sqlite3 does not bind as a blob.
const asBuffer = (v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v);
