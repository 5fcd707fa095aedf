// Slow and idle clients cannot hold a listener: a socket that sends nothing, or stops halfway through a body, is
// closed by the server; past the configured connection limit new sockets are closed at once; limits come from the
// configuration (`listenerLimits`).
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { DEV_API_KEY, startTestRuntime, type TestRuntime } from '../helpers/runtime.ts';

interface Held {
  socket: Socket;
  /** Everything received until the server closed the socket. */
  closed: Promise<string>;
}

function open(url: string): Promise<Held> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    const closed = new Promise<string>((done) => socket.on('close', () => done(Buffer.concat(chunks).toString('latin1'))));
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** A complete keep-alive request whose answer proves the server accepted and counts the socket. */
async function answered(held: Held, path: string): Promise<string> {
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    const onData = (c: Buffer) => {
      chunks.push(c);
      const text = Buffer.concat(chunks).toString('latin1');
      if (/\r\n\r\n/.test(text)) {
        held.socket.off('data', onData);
        resolve(text);
      }
    };
    held.socket.on('data', onData);
    held.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`);
  });
}

describe('listener limits in the configuration', () => {
  it('are validated with the rest of the configuration', () => {
    const config = loadConfig({ flags: { listenerLimits: { maxConnections: 50, headersTimeoutMs: 5_000 } }, env: {}, cwd: '/' });
    assert.deepEqual(config.listenerLimits, { maxConnections: 50, headersTimeoutMs: 5_000 });
    assert.throws(() => loadConfig({ flags: { listenerLimits: { maxConnections: 0 } }, env: {}, cwd: '/' }), ConfigError);
  });
});

describe('slow and idle clients', () => {
  it('closes a connection that never sends its headers, on service and admin listeners and the secrets store\'s own server', async () => {
    const limited = await startTestRuntimeWith({ headersTimeoutMs: 300, requestTimeoutMs: 1_000 });
    try {
      for (const url of [limited.url('errorreporting'), limited.url('secrets'), limited.adminUrl]) {
        const idle = await open(url);
        await idle.closed; // resolves only when the server closes the socket
      }
    } finally {
      await limited.close();
    }
  });

  it('closes a connection whose body stops arriving, without answering it', async () => {
    const limited = await startTestRuntimeWith({ headersTimeoutMs: 300, requestTimeoutMs: 1_000 });
    try {
      const slow = await open(limited.url('errorreporting'));
      slow.socket.write(
        `POST /v1beta1/projects/p/events:report?key=${DEV_API_KEY} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"message":"`,
      );
      const received = await slow.closed;
      assert.doesNotMatch(received, /^HTTP\/1\.1 2/, 'the partial request was not processed');
    } finally {
      await limited.close();
    }
  });

  it('every listener keeps idle sockets as configured and says so, the secrets store\'s own server too', async () => {
    const limited = await startTestRuntimeWith({ keepAliveTimeoutMs: 9_000, headersTimeoutMs: 400 });
    try {
      for (const url of [limited.url('errorreporting'), limited.url('secrets'), limited.adminUrl]) {
        const held = await open(url);
        const head = await answered(held, '/v1/sys/health');
        assert.match(head, /\r\nKeep-Alive: timeout=9\r\n/i, url);
        held.socket.destroy();
      }
      // Node sweeps for overdue headers as often as its server was created to: the secrets store makes its own.
      for (const app of [...limited.rt.services.values()].map((s) => s.app)) {
        assert.equal((app.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval, 200);
        assert.equal(app.server.keepAliveTimeout, 9_000);
      }
    } finally {
      await limited.close();
    }
  });

  it('refuses sockets past the connection limit and accepts again once one closes', async () => {
    const limited = await startTestRuntimeWith({ maxConnections: 3 });
    try {
      const url = limited.url('errorreporting');
      const held = await Promise.all([open(url), open(url), open(url)]);
      for (const h of held) assert.match(await answered(h, '/v1beta1/projects/p/groupStats'), /^HTTP\/1\.1 \d{3}/);
      const extra = await open(url);
      extra.socket.write('GET /v1beta1/projects/p/groupStats HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.equal(await extra.closed, '', 'closed without an answer');
      held[0]!.socket.destroy();
      await held[0]!.closed;
      // The server counts the closed socket out when it sees the close; a new connection is served after that.
      for (;;) {
        const next = await open(url);
        const answer = await Promise.race([answered(next, '/v1beta1/projects/p/groupStats'), next.closed.then(() => '')]);
        next.socket.destroy();
        if (answer) break;
      }
      for (const h of held) h.socket.destroy();
    } finally {
      await limited.close();
    }
  });
});

function startTestRuntimeWith(listenerLimits: Record<string, number>): Promise<TestRuntime> {
  return startTestRuntime({ services: ['errorreporting', 'secrets'], database: 'sqlite', listenerLimits });
}
