// Connections start on Node's own HTTP parser, which reads the socket natively (no JavaScript sees the bytes) and
// refuses the extended verbs (LIST, HELP, SCAN) with HPE_INVALID_METHOD. At the first such request the connection is
// handed to the verb rewriter for the rest of its life: Node's parser is let go the way Node lets it go for an upgrade,
// the refused request's bytes go through the rewriter first, and a new parser reads what the rewriter gives. Requests
// already in flight on the connection (pipelined before it) are answered first. Most connections never send an
// extended verb and so never pay for framing in JavaScript.
import { createRequire } from 'node:module';
import { METHODS, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { EXTENDED_VERBS } from './verb-rewriter.ts';

/** Node's own release of a connection's parser (unconsume, leave the connection list, back to the pool). */
const freeParser = ((): ((parser: object, req: null, socket: Socket) => void) | undefined => {
  try {
    return (createRequire(import.meta.url)('_http_common') as { freeParser?: (parser: object, req: null, socket: Socket) => void }).freeParser;
  } catch {
    return undefined;
  }
})();

/**
 * Whether this Node is one whose HTTP server internals (its listeners' names, `_http_common.freeParser`) the hand-over
 * was written and tested against: Node 20. On another, every connection goes through the rewriter from its start.
 */
export const handOverSupported = process.versions.node.split('.')[0] === '20' && typeof freeParser === 'function';

/** What Node's parser attaches to a failed parse (`prepareError` in Node's HTTP server). */
export interface ParseError extends Error {
  code?: string;
  rawPacket?: unknown;
  bytesParsed?: unknown;
}

/** The listeners Node's HTTP server adds to a connection, by name: removed when the connection is handed over. */
const NODE_LISTENERS: Record<string, string> = {
  data: 'bound socketOnData',
  end: 'bound socketOnEnd',
  close: 'bound socketOnClose',
  drain: 'bound socketOnDrain',
  timeout: 'socketOnTimeout',
  resume: 'onSocketResume',
  pause: 'onSocketPause',
};

/** How the listener frames a connection with the rewriter, tells one it frames, and starts Node's HTTP on one. */
export interface Staging {
  stage(socket: Socket): void;
  isStaged(socket: Socket): boolean;
  listen(socket: Socket): void;
}

/**
 * Where Node's parser fails inside each extended verb: at its first byte that no method Node knows has there (LIST at
 * its S, since LINK and LOCK start like it; SCAN at its C).
 */
const FAILS_AT = [...EXTENDED_VERBS].map((verb) => {
  let known = 0;
  while (known < verb.length && METHODS.some((m) => m.startsWith(verb.slice(0, known + 1)))) known++;
  return { word: Buffer.from(`${verb} `, 'latin1'), failsAt: known };
});

/**
 * The bytes of the request Node's parser refused at `at` in `raw` (the chunk it was reading), from its first byte on,
 * or undefined when they are not an extended verb's (and a space). The verb starts where the parser fails inside it
 * less that verb's FAILS_AT: right after the last request's end, which need not be a line's. The chunk may end inside
 * the verb (the rewriter waits for the rest), or start inside it: its first bytes came in an earlier read, which only a
 * pipelining client splitting a request there produces, and the parser took them as the start of a method it knows,
 * so they are not checked again.
 */
export function refusedRequest(raw: Buffer, at: number): Buffer | undefined {
  if (!Number.isInteger(at) || at < 0 || at >= raw.length) return undefined;
  for (const { word, failsAt } of FAILS_AT) {
    const start = at - failsAt;
    const expected = start >= 0 ? word : word.subarray(-start);
    const seen = raw.subarray(Math.max(start, 0), Math.max(start, 0) + expected.length);
    if (!seen.equals(expected.subarray(0, seen.length))) continue;
    return start >= 0 ? raw.subarray(start) : Buffer.concat([word.subarray(0, -start), raw]);
  }
  return undefined;
}

/**
 * Hands `socket` over to the rewriter if `error` is Node's parser refusing an extended verb: true when it did (the
 * error is then dealt with).
 */
export function handOver(error: ParseError, socket: Socket, { stage, isStaged, listen }: Staging): boolean {
  const parser = (socket as Socket & { parser?: { _consumed?: boolean; unconsume(): void } | null }).parser;
  if (error.code !== 'HPE_INVALID_METHOD' || !parser || !Buffer.isBuffer(error.rawPacket) || typeof error.bytesParsed !== 'number') return false;
  // A connection the rewriter frames (from its start, or handed over) passes what it cannot frame to be refused.
  if (isStaged(socket)) return false;
  const request = refusedRequest(error.rawPacket, error.bytesParsed);
  if (!request) return false;
  // The refused parser reads no more: the socket's reads come back to JavaScript, through the rewriter, and wait in
  // the stream (paused) for the new parser.
  if (parser._consumed) {
    parser.unconsume();
    parser._consumed = false;
  }
  removeNodeListeners(socket, ['data', 'resume', 'pause']);
  socket.pause();
  stage(socket);
  socket.push(request);
  whenNothingInFlight(socket, () => {
    removeNodeListeners(socket, ['end', 'close', 'drain', 'timeout']);
    freeParser!(parser, null, socket);
    // The keep-alive timer of the last answer: the new parser sets its own.
    socket.setTimeout(0);
    listen(socket);
    socket.resume();
  });
  return true;
}

function removeNodeListeners(socket: Socket, events: string[]): void {
  for (const event of events) {
    for (const listener of socket.listeners(event)) if (listener.name === NODE_LISTENERS[event]) socket.removeListener(event, listener as (...args: unknown[]) => void);
  }
}

/**
 * Runs `then` once no answer is in flight on the socket. Node gives the socket to each pipelined answer in turn
 * (`_httpMessage`), on the finish of the one before; nothing is left to wait for when the socket is closed.
 */
function whenNothingInFlight(socket: Socket, then: () => void): void {
  const check = (): void => {
    if (socket.destroyed) return;
    const inFlight = (socket as Socket & { _httpMessage?: { once(event: 'finish', fn: () => void): void } | null })._httpMessage;
    if (!inFlight) return then();
    inFlight.once('finish', () => setImmediate(check));
  };
  check();
}

/** Makes `server` offer each refused parse to `handOver` before its own `clientError` listeners see it. */
export function handOverOnClientError(server: Server, staging: Staging): void {
  const emit = server.emit;
  // Every event of the server passes here (each request's too): nothing is allocated on the way through.
  server.emit = function (this: Server, event: string | symbol, error?: unknown, socket?: unknown): boolean {
    if (event === 'clientError' && handOver(error as ParseError, socket as Socket, staging)) return true;
    // eslint-disable-next-line prefer-rest-params
    return emit.apply(this, arguments as unknown as Parameters<Server['emit']>);
  } as Server['emit'];
}
