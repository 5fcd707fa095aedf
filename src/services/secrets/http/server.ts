// The secrets listener's server: Node's http server, with the verb rewriter in front of its parser on a connection
// from its first extended verb on (hand-over.ts; a TLS connection from its start), and optional TLS decided when a
// connection arrives (so the certificate can come from the service settings, read after the Fastify instance exists).
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket, createSecureContext, type SecureContext } from 'node:tls';
import { handOverOnClientError, handOverSupported } from './hand-over.ts';
import { VerbRewriter } from './verb-rewriter.ts';

export interface ListenerTls {
  cert: string | Buffer;
  key: string | Buffer;
}

/** Mutable listener options the service fills in at register time, before the server listens. */
export interface ServerSettings {
  tls: ListenerTls | null;
}

const staged = new WeakSet<object>();

/**
 * Whether the rewriter frames `socket`'s requests: only then is a verb marker header its own (it drops the ones a
 * client sends); on a connection Node's parser reads alone, a marker came from the client.
 */
export const isStaged = (socket: object): boolean => staged.has(socket);

/**
 * Makes the rewriter see every byte before the parser: the parser would otherwise read the socket's native handle
 * directly, so we mark the handle as taken and wrap the socket's `push`, through which the stream delivers reads.
 */
export function stageSocket(socket: Socket): void {
  staged.add(socket);
  const handle = (socket as any)._handle;
  if (handle) handle._consumed = true;
  const rewriter = new VerbRewriter();
  const push = socket.push.bind(socket);
  (socket as any).push = (chunk: Buffer | null, encoding?: BufferEncoding): boolean => {
    if (chunk === null) return push(null);
    let ok = true;
    for (const piece of rewriter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding))) ok = push(piece) && ok;
    return ok;
  };
}

const settingsByServer = new WeakMap<object, ServerSettings>();

/** The mutable settings of a server made by `createStagedServer` (TLS is read when a connection arrives). */
export function serverSettingsOf(server: object): ServerSettings {
  const settings = settingsByServer.get(server);
  if (!settings) throw new Error('not a staged secrets server');
  return settings;
}

export function createStagedServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  settings: ServerSettings,
  serverOptions: ServerOptions = {},
): Server {
  const server = createServer(serverOptions, handler);
  settingsByServer.set(server, settings);
  const [httpListener] = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  let context: { source: ListenerTls; secure: SecureContext } | undefined;
  const listen = (socket: Socket) => httpListener!.call(server, socket);
  if (handOverSupported) handOverOnClientError(server, { stage: stageSocket, isStaged, listen });
  server.on('connection', (socket: Socket) => {
    const tls = settings.tls;
    if (!tls) {
      if (!handOverSupported) stageSocket(socket);
      listen(socket);
      return;
    }
    if (context?.source !== tls) context = { source: tls, secure: createSecureContext({ cert: tls.cert, key: tls.key }) };
    const secure = new TLSSocket(socket, { isServer: true, secureContext: context.secure, ALPNProtocols: ['http/1.1'] });
    secure.on('error', () => secure.destroy());
    stageSocket(secure);
    listen(secure);
  });
  return server;
}
