// Answers written during one turn of the event loop leave together at its end. Each socket write on loopback or a
// LAN wakes the peer that waits for it, and waking an idle peer costs the writer far more than the write itself (the
// kernel's wake-up, an interrupt on a VM): in a profile of a small read at 50 connections the write took 15 % of the
// main thread, 9 % once answers left together. When the answers of one turn go out back to back, the first write
// wakes the peer and the rest find it awake.
//
// Node's HTTP response fully uncorks its socket on end(), so a cork cannot hold answers back: the socket's own write
// (`_write`/`_writev`, the stream's implementation hooks) is deferred to setImmediate instead, which runs once the
// turn's I/O callbacks are done. A socket has at most one write in flight (the stream buffers the rest until its
// callback), so each socket holds at most one deferred write, and order is kept.
import type { Socket } from 'node:net';

type WriteCallback = (error?: Error | null) => void;

const DEFERRED = Symbol('deferred write');
const COALESCED = Symbol('writes coalesced');

/** A socket whose write waits: `DEFERRED` runs the socket's own `_write` or `_writev` as the stream called it. */
interface CoalescedSocket {
  [DEFERRED]?: () => void;
  [COALESCED]?: true;
  _write(data: unknown, encoding: BufferEncoding, callback: WriteCallback): void;
  _writev(chunks: unknown, callback: WriteCallback): void;
  _destroy(error: Error | null, callback: WriteCallback): void;
}

let waiting: CoalescedSocket[] = [];

/**
 * Sends every held write now. Long work that runs at the end of a turn (a group commit's units, queued with
 * setImmediate before the first answer was held) calls it first, so that answers never wait behind it.
 */
export function releaseHeldWrites(): void {
  const sockets = waiting;
  waiting = [];
  for (const socket of sockets) release(socket);
}

function release(socket: CoalescedSocket): void {
  const deferred = socket[DEFERRED];
  if (!deferred) return;
  socket[DEFERRED] = undefined;
  deferred();
}

function defer(socket: CoalescedSocket, run: () => void): void {
  if (waiting.length === 0) setImmediate(releaseHeldWrites);
  socket[DEFERRED] = run;
  waiting.push(socket);
}

/**
 * Makes `socket`'s writes wait for the end of the event loop's turn (see above). Idempotent; meant for the sockets of
 * a server's connections, whose writes are answers.
 */
export function coalesceWrites(socket: Socket): void {
  const s = socket as unknown as CoalescedSocket;
  // A request injected in-process has a stand-in socket that is never written to.
  if (s[COALESCED] || typeof s._writev !== 'function') return;
  s[COALESCED] = true;
  const write = s._write;
  const writev = s._writev;
  const destroy = s._destroy;
  s._write = function (this: CoalescedSocket, data: unknown, encoding: BufferEncoding, callback: WriteCallback) {
    defer(this, () => write.call(this, data, encoding, callback));
  };
  s._writev = function (this: CoalescedSocket, chunks: unknown, callback: WriteCallback) {
    defer(this, () => writev.call(this, chunks, callback));
  };
  // A write followed at once by destroy() (an answer to a malformed request, then the socket's end) still goes out,
  // as it would have without the wait.
  s._destroy = function (this: CoalescedSocket, error: Error | null, callback: WriteCallback) {
    release(this);
    destroy.call(this, error, callback);
  };
}
