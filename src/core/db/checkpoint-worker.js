// Checkpoints of a SQLite write-ahead log on a worker thread. A checkpoint copies the log's pages into the database
// file and fsyncs both; run by the writing connection (SQLite's default, once the log passes 1,000 pages) it held the
// event loop of every service for milliseconds at a time. Plain JavaScript so it starts without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const handle = new SQLite(workerData.path, { fileMustExist: true });
handle.pragma('busy_timeout = 5000');
// The log is synced before pages are copied and the database file after: what was committed stays durable.
handle.pragma('synchronous = FULL');
const checkpoint = handle.prepare('pragma wal_checkpoint(PASSIVE)');

parentPort.on('message', ({ id, close }) => {
  if (close) {
    handle.close();
    parentPort.close();
    return;
  }
  try {
    // PASSIVE: copies what no reader still needs, never waits for the writer or the readers.
    const [result] = checkpoint.all();
    parentPort.postMessage({ id, result: { busy: result.busy, log: result.log, checkpointed: result.checkpointed } });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: err.message, code: err.code } });
  }
});
