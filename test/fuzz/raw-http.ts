// Requests written byte for byte on a socket: the fuzzer must send what fetch and node:http refuse to (invalid UTF-8
// and NUL in the path, repeated headers, any method). Answers are read until the server closes the connection.
import { connect } from 'node:net';

export interface RawRequest {
  method: string;
  /** The request target exactly as sent (may hold any byte). */
  target: Buffer;
  headers: Array<[string, string]>;
  body?: Buffer;
}

export interface RawAnswer {
  status: number;
  /** Head and body as received (for failure messages). */
  text: string;
}

/** Sends one request with `Connection: close` and resolves with the status line's code (0: no parsable answer). */
export function sendRaw(host: string, port: number, req: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    // A server that never answers is a finding too: give up after a while and report no answer (status 0).
    socket.setTimeout(30_000, () => socket.destroy());
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 0, text: text.slice(0, 600) });
    });
    const body = req.body ?? Buffer.alloc(0);
    const lines = [`Host: ${host}:${port}`, 'Connection: close', ...req.headers.map(([k, v]) => `${k}: ${v}`)];
    if (body.length || !['GET', 'HEAD'].includes(req.method)) lines.push(`Content-Length: ${body.length}`);
    // write, not end: a half-closed socket is dropped by the server before a slow answer is ready
    socket.write(Buffer.concat([Buffer.from(`${req.method} `, 'latin1'), req.target, Buffer.from(` HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
  });
}
