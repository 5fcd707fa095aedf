// A read-only SQLite connection on a worker thread: runs compiled queries so a long read never blocks the event
// loop every service shares. Plain JavaScript so it starts without a TypeScript loader.
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { lowerThreadPriority } from '../lower-thread-priority.js';

lowerThreadPriority();

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
