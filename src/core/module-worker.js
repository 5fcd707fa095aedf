// A worker thread running the exported functions of one module (workerData.module, a file URL) for OffLoop
// (off-loop.ts). Plain JavaScript, so it starts without a loader; a TypeScript module is compiled by tsx, registered
// in this thread only when the module needs it.
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from './lower-thread-priority.js';

// Below the event loop's priority, as the database readers are.
lowerThreadPriority();

if (workerData.module.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
const functions = await import(workerData.module);

parentPort.on('message', async ({ id, close, fn, args }) => {
  if (close) {
    parentPort.close();
    return;
  }
  try {
    if (typeof functions[fn] !== 'function') throw new Error(`${fn} is not a function of ${workerData.module}`);
    const result = await functions[fn](...args);
    parentPort.postMessage({ id, result }, transferable(result));
  } catch (err) {
    parentPort.postMessage({ id, error: { message: String(err?.message ?? err), code: err?.name } });
  }
});

/** Byte arrays of the result (itself, or its own properties) that own their memory: moved, not copied. */
function transferable(result) {
  const values = result instanceof Uint8Array ? [result] : result && typeof result === 'object' ? Object.values(result) : [];
  const moved = new Set();
  for (const v of values) {
    if (v instanceof Uint8Array && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && !moved.has(v.buffer)) moved.add(v.buffer);
  }
  return [...moved];
}
