// Ports are checked before anything is written, so a start that cannot listen leaves no data directory or keys behind
// and says which listener, and which setting, chose the port that is taken.
import { createServer } from 'node:net';

export class PortInUseError extends Error {
  constructor(
    readonly listener: string,
    readonly host: string,
    readonly port: number,
  ) {
    super(
      `port ${port} on ${host}, chosen for ${listener}, is already in use: pick another with --port-${listener} ` +
        `(TWINSTACK_PORT_${listener.toUpperCase()}) or move every port with --port-base`,
    );
  }
}

/** Resolves when `port` can be bound on `host`; rejects with PortInUseError naming `listener` when it is taken. */
export function probePort(listener: string, host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? new PortInUseError(listener, host, port) : err));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve()));
  });
}

/** Rewrites a listen error into PortInUseError (the probe and the real bind can race with another program). */
export function explainListenError(err: unknown, listener: string, host: string, port: number): unknown {
  return (err as NodeJS.ErrnoException)?.code === 'EADDRINUSE' ? new PortInUseError(listener, host, port) : err;
}
