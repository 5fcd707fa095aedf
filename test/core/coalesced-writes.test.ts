// A listener's answers wait for the end of the event loop's turn and then leave together; nothing is lost or reordered
// on the way: answers to pipelined requests, a large streamed body, and the answer written just before a socket is
// destroyed (a malformed request) all arrive whole.
import assert from 'node:assert/strict';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { coalesceWrites } from '../../src/core/coalesced-writes.ts';
import { createListener } from '../../src/core/http/listener.ts';

/** Sends `raw` on a new socket and resolves with everything received until the server closes it or `until` matches. */
function exchange(port: number, raw: string, until?: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const text = () => Buffer.concat(chunks).toString('latin1');
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (until?.(text())) {
        socket.destroy();
        resolve(text());
      }
    });
    socket.on('close', () => resolve(text()));
    socket.on('error', reject);
    socket.write(raw);
  });
}

describe('coalesced answers of a listener', () => {
  let app: FastifyInstance;
  let port: number;
  const big = Buffer.alloc(3 * 1024 * 1024, 'x');

  before(async () => {
    app = createListener({ name: 'coalesced', log: pino({ level: 'silent' }) });
    app.get<{ Params: { n: string } }>('/echo/:n', async (req) => ({ n: req.params.n }));
    app.get('/big', async (_req, reply) => reply.type('application/octet-stream').send(Readable.from([big.subarray(0, 1 << 20), big.subarray(1 << 20)])));
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  after(() => app.close());

  it('answers pipelined requests on one socket, in order', async () => {
    const requests = [1, 2, 3, 4, 5].map((n) => `GET /echo/${n} HTTP/1.1\r\nHost: x\r\n\r\n`).join('');
    const text = await exchange(port, requests, (t) => t.includes('{"n":"5"}'));
    assert.deepEqual([...text.matchAll(/\{"n":"(\d)"\}/g)].map((m) => m[1]), ['1', '2', '3', '4', '5']);
  });

  it('answers many sockets that ask in the same turn, each with its own answer', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, n) => fetch(`http://127.0.0.1:${port}/echo/${n}`).then((r) => r.json() as Promise<{ n: string }>)),
    );
    assert.deepEqual(
      answers.map((a) => a.n),
      Array.from({ length: 40 }, (_, n) => String(n)),
    );
  });

  it('streams a large body whole', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/big`);
    assert.equal(res.status, 200);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(big));
  });

  it('still sends the answer written just before the socket is destroyed (a malformed request)', async () => {
    // An answered request makes the socket one whose writes wait; the malformed one after it is answered, then closed.
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const text = () => Buffer.concat(chunks).toString('latin1');
    socket.on('data', (c: Buffer) => chunks.push(c));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write('GET /echo/1 HTTP/1.1\r\nHost: x\r\n\r\n');
    while (!text().includes('{"n":"1"}')) await new Promise((resolve) => setTimeout(resolve, 5));
    socket.write('NOT A REQUEST\r\n\r\n');
    await closed;
    assert.match(text(), /^HTTP\/1\.1 200 OK\r\n[^]*\{"n":"1"\}HTTP\/1\.1 400 Bad Request\r\n[^]*"statusCode":400/);
  });
});

describe('coalesceWrites on a plain socket', () => {
  let server: Server;
  let port: number;
  const accepted: Socket[] = [];

  before(async () => {
    server = createServer((socket) => {
      coalesceWrites(socket);
      accepted.push(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('holds a write until the end of the turn, then sends it', async () => {
    const client = connect({ host: '127.0.0.1', port });
    await new Promise((resolve) => client.once('connect', resolve));
    while (accepted.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const socket = accepted[0];
    const received = new Promise<string>((resolve) => client.once('data', (c: Buffer) => resolve(c.toString())));
    socket.write('hello');
    // Still in the stream (not yet handed to the kernel) for the rest of this turn.
    assert.equal(socket.writableLength, 5);
    assert.equal(await received, 'hello');
    assert.equal(socket.writableLength, 0);
    client.destroy();
  });
});
